# An empty text segment still yields a text part; a row with no text segment has only the image.
datasets = [dict(
    abbr='vqa_empty_text', type='JsonlDataset', path='../../data/vqa_empty_text.jsonl',
    reader_cfg=dict(input_columns=['content'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MMPromptTemplate', template=dict(
            round=[dict(role='HUMAN', prompt_mm={
                'text': {'type': 'text', 'text': 'Question: {question}\nAnswer with one word.'},
                'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}},
            })],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
