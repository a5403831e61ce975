# textvqa_gen_base64 style: the row holds base64, the template says data:image/png;base64,{image}.
datasets = [dict(
    abbr='vqa_base64', type='JsonlDataset', path='../../data/vqa_base64.jsonl',
    reader_cfg=dict(input_columns=['content'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MMPromptTemplate', template=dict(
            round=[dict(role='HUMAN', prompt_mm={
                'text': {'type': 'text', 'text': '{question} Answer briefly.'},
                'image': {'type': 'image_url', 'image_url': {'url': 'data:image/png;base64,{image}'}},
            })],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
