# BFCL v3 'javascript': JavaScript's hint, parameters as strings (arrays' element types, dicts' schemas in the text).
datasets = [dict(
    abbr='bfcl_javascript', type='JsonlDataset', path='../../data/bfcl_javascript.jsonl',
    tools=dict(column='function', style='bfcl_fc'),
    reader_cfg=dict(input_columns=['id', 'question', 'function'], output_column='ground_truth'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='{question}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='BFCLV3FunctionCallInferencer'),
    ))]
