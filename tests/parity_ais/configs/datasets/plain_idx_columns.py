# A plain PromptTemplate (chat form) using the idx and subdivision columns AISBench's BaseDataset adds to every row.
datasets = [dict(
    abbr='plain_idx_columns', type='JsonlDataset', path='../../data/plain.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='Item {idx} of {subdivision}: {question}'),
            dict(role='BOT', prompt='{answer}'),
        ])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
