# Malformed content: leading junk, text before a start tag, an unknown tag (AISBench drops them silently).
datasets = [dict(
    abbr='vqa_malformed', type='JsonlDataset', path='../../data/vqa_malformed.jsonl',
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
