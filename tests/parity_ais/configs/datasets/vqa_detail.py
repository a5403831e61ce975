# A nested image_url with an extra key (detail) that must be kept.
datasets = [dict(
    abbr='vqa_detail', type='JsonlDataset', path='../../data/vqa.jsonl',
    reader_cfg=dict(input_columns=['content'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MMPromptTemplate', template=dict(
            round=[dict(role='HUMAN', prompt_mm={
                'text': {'type': 'text', 'text': '{question}'},
                'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}', 'detail': 'low'}},
            })],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
