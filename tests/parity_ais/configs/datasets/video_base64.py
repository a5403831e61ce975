# videobench_gen_base64 style: comma-joined base64 PNG frames as data:video/jpeg;base64,{video}.
datasets = [dict(
    abbr='video_base64', type='JsonlDataset', path='../../data/video.jsonl',
    reader_cfg=dict(input_columns=['content'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MMPromptTemplate', template=dict(
            round=[dict(role='HUMAN', prompt_mm={
                'text': {'type': 'text', 'text': '{question} Please respond with only yes or no.'},
                'video': {'type': 'video_url', 'video_url': {'url': 'data:video/jpeg;base64,{video}'}},
            })],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
