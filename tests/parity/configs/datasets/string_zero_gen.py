datasets = [dict(
    abbr='string_zero_gen', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='Q: {question}\nA: {answer}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
