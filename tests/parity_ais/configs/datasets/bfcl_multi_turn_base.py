# BFCL v3 multi-turn rows (function calling): one request per turn, the functions from the involved classes'
# documents (class_docs), earlier turns holding the model's replies (text, no calls: nothing to execute).
datasets = [dict(
    abbr='bfcl_multi_turn_base', type='BFCLDataset', path='../../data/bfcl_multi_turn_base.jsonl',
    class_docs=dict(NotebookAPI='../../data/bfcl_class_docs/notebook_api.jsonl', ClockAPI='../../data/bfcl_class_docs/clock_api.jsonl'),
    tools=dict(column='function', style='bfcl_fc'),
    reader_cfg=dict(input_columns=['id', 'question', 'function'], output_column='ground_truth'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='{question}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='BFCLV3FunctionCallInferencer'),
    ))]
