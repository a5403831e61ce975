# Several image segments and interleaved text/image segments: one part per segment, in order.
datasets = [dict(
    abbr='vqa_multi_image', type='JsonlDataset', path='../../data/vqa_multi.jsonl',
    reader_cfg=dict(input_columns=['content'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MMPromptTemplate', template=dict(
            round=[dict(role='HUMAN', prompt_mm={
                'text': {'type': 'text', 'text': '{question}'},
                'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}},
            })],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
