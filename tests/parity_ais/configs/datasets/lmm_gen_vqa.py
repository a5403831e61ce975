# LMMGenInferencer (AISBench's GenInferencer for multimodal models): its prompts are GenInferencer's.
datasets = [dict(
    abbr='lmm_gen_vqa', type='JsonlDataset', path='../../data/vqa.jsonl',
    reader_cfg=dict(input_columns=['content'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MMPromptTemplate', template=dict(
            round=[dict(role='HUMAN', prompt_mm={
                'text': {'type': 'text', 'text': '{question}'},
                'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}', 'detail': 'low'}},
            })],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='LMMGenInferencer'),
    ))]
