# BFCL v3 'java': Java's hint, every parameter a string described by its Java type (BFCL's Java pre-processing).
datasets = [dict(
    abbr='bfcl_java', type='JsonlDataset', path='../../data/bfcl_java.jsonl',
    tools=dict(column='function', style='bfcl_fc'),
    reader_cfg=dict(input_columns=['id', 'question', 'function'], output_column='ground_truth'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='{question}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='BFCLV3FunctionCallInferencer'),
    ))]
