# RawPromptTemplate with dict(expand_column='history'): the row's earlier messages inserted as they are (their braces stay).
datasets = [dict(
    abbr='raw_expand_column', type='JsonlDataset', path='data/chat_history.jsonl',
    reader_cfg=dict(input_columns=['question', 'history'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='RawPromptTemplate', messages=[
            dict(role='system', content='You are a helpful assistant.'),
            dict(expand_column='history'),
            dict(role='user', content='{question}'),
        ]),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
