# A VQA-style image dataset in the column convention, with images inlined.
#
# The part templates are filled from the row's columns, in the order of
# prompt_mm: the text part from `question` and `subject`, then one image part
# per path in the `images` list (none for an empty list). media mode 'inline'
# reads each file (relative to the data file's folder), checks it is an image,
# and sends it as a data: URL whose MIME type comes from the bytes. Add
# max_edge=..., image_format='JPEG' to shrink and re-encode large images.
datasets = [
    dict(
        abbr='vqa_demo_columns',
        type='JsonlDataset',
        path='data/vqa_columns.jsonl',
        media=dict(mode='inline', max_part_bytes=200_000),
        reader_cfg=dict(input_columns=['subject', 'question', 'images'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(
                type='MMPromptTemplate',
                template=dict(
                    begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='You answer questions about pictures ({subject}).')],
                    round=[
                        dict(role='HUMAN', prompt_mm={
                            'text': {'type': 'text', 'text': '{question}'},
                            'image': {'type': 'image_url', 'image_url': {'url': '{images}', 'detail': 'low'}},
                        }),
                    ],
                ),
            ),
            retriever=dict(type='ZeroRetriever'),
            inferencer=dict(type='GenInferencer'),
        ),
    )
]
