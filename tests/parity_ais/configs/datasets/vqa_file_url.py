# textvqa style: text + image parts in segment order (text-first, image-first, no closing tag), image URL file://{image}.
datasets = [dict(
    abbr='vqa_file_url', type='JsonlDataset', path='../../data/vqa.jsonl',
    reader_cfg=dict(input_columns=['content'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MMPromptTemplate', template=dict(
            round=[dict(role='HUMAN', prompt_mm={
                'text': {'type': 'text', 'text': '{question} Answer briefly.'},
                'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}},
            })],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
