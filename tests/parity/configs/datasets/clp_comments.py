# CLPInferencer (civilcomments_clp style): one prompt per row, the first test row's choices scored.
datasets = [dict(
    abbr='clp_comments', type='JsonlDataset', path='data/comments.jsonl',
    reader_cfg=dict(input_columns=['text'], output_column='label'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[dict(
            role='HUMAN', prompt='Text: {text}\nQuestion: Does the above text contain rude language?\nAnswer:')])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='CLPInferencer'),
    ))]
