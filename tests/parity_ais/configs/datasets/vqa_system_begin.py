# hle_llmjudge style: a SYSTEM begin message (no placeholders) before the MM round.
datasets = [dict(
    abbr='vqa_system_begin', type='JsonlDataset', path='../../data/vqa.jsonl',
    reader_cfg=dict(input_columns=['content'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MMPromptTemplate', template=dict(
            begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='You are a careful visual assistant.')],
            round=[dict(role='HUMAN', prompt_mm={
                'text': {'type': 'text', 'text': '{question} Answer briefly.'},
                'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}},
            })],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
