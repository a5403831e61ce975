# BFCL v3 'multiple' rows through AISBench's BFCLV3FunctionCallInferencer (function-calling path): the first
# turn's messages, and each row's function documents as OpenAI tools (BFCL's conversion for Python).
datasets = [dict(
    abbr='bfcl_multiple', type='JsonlDataset', path='../../data/bfcl_multiple.jsonl',
    tools=dict(column='function', style='bfcl_fc'),
    reader_cfg=dict(input_columns=['id', 'question', 'function'], output_column='ground_truth'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='{question}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='BFCLV3FunctionCallInferencer'),
    ))]
