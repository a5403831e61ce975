# A HUMAN text item in begin followed by the MM HUMAN round: two same-role messages to merge.
datasets = [dict(
    abbr='vqa_human_begin', type='JsonlDataset', path='../../data/vqa.jsonl',
    reader_cfg=dict(input_columns=['content'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MMPromptTemplate', template=dict(
            begin=[dict(role='HUMAN', prompt='Look at the picture carefully.')],
            round=[dict(role='HUMAN', prompt_mm={
                'text': {'type': 'text', 'text': '{question} Answer briefly.'},
                'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}},
            })],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
