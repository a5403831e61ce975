# SlidingWindowRetriever(k=3) on aligned 5-row splits: the previous k rows, padded from the end of the pool.
datasets = [dict(
    abbr='sliding_window', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='{question} -> {answer}'),
        prompt_template=dict(type='PromptTemplate', template='</E>{question} -> {answer}', ice_token='</E>'),
        retriever=dict(type='SlidingWindowRetriever', k=3),
        inferencer=dict(type='GenInferencer'),
    ))]
