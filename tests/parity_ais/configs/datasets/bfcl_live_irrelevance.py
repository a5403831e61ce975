# BFCL v3 'live_irrelevance': rows without an answer (AISBench mocks one); the request is the simple shape.
datasets = [dict(
    abbr='bfcl_live_irrelevance', type='BFCLDataset', path='../../data/bfcl_live_irrelevance.jsonl',
    tools=dict(column='function', style='bfcl_fc'),
    reader_cfg=dict(input_columns=['id', 'question', 'function'], output_column='ground_truth'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='{question}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='BFCLV3FunctionCallInferencer'),
    ))]
