# BFCL v3 'multi_turn_miss_func': the held-out function joins the tools at its turn, whose user message is
# holdout_message.
datasets = [dict(
    abbr='bfcl_multi_turn_miss_func', type='BFCLDataset', path='../../data/bfcl_multi_turn_miss_func.jsonl',
    class_docs=dict(NotebookAPI='../../data/bfcl_class_docs/notebook_api.jsonl', ClockAPI='../../data/bfcl_class_docs/clock_api.jsonl'),
    tools=dict(column='function', style='bfcl_fc'),
    reader_cfg=dict(input_columns=['id', 'question', 'function'], output_column='ground_truth'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='{question}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='BFCLV3FunctionCallInferencer', holdout_message='More functions are available now. Try again.'),
    ))]
