# A VQA-style image dataset in AISBench's `content` convention.
#
# Each row's `content` is a string of segments, <AIS_TEXT_START>...<AIS_CONTENT_TAG>
# and <AIS_IMAGE_START>path<AIS_CONTENT_TAG>, in the order the model should see
# them; each segment becomes one content part. The text payload fills {question},
# the image payload {image}. Media are kept as the template builds them
# (media mode 'keep', AISBench's behaviour): the server resolves file:// URLs.
# Completion models need a placeholder per modality (see models/llava_1_5_7b.py).
datasets = [
    dict(
        abbr='vqa_demo_tagged',
        type='JsonlDataset',
        path='data/vqa_tagged.jsonl',
        reader_cfg=dict(input_columns=['content'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(
                type='MMPromptTemplate',
                template=dict(round=[
                    dict(role='HUMAN', prompt_mm={
                        'text': {'type': 'text', 'text': '{question} Answer briefly.'},
                        'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}},
                    }),
                ]),
            ),
            retriever=dict(type='ZeroRetriever'),
            inferencer=dict(type='GenInferencer'),
        ),
    )
]
