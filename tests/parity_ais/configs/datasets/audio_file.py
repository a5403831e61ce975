# vocalsound style: text + audio_url file://{audio}; the template declares all four modalities (mm_custom).
datasets = [dict(
    abbr='audio_file', type='JsonlDataset', path='../../data/audio.jsonl',
    reader_cfg=dict(input_columns=['content'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MMPromptTemplate', template=dict(
            round=[dict(role='HUMAN', prompt_mm={
                'text': {'type': 'text', 'text': '{question}'},
                'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}},
                'video': {'type': 'video_url', 'video_url': {'url': 'file://{video}'}},
                'audio': {'type': 'audio_url', 'audio_url': {'url': 'file://{audio}'}},
            })],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
