# BFCL v3 multi-turn rows in the prompt style: the involved classes' functions in the first turn's system message.
datasets = [dict(
    abbr='bfcl_multi_turn_base', type='BFCLDataset', path='../../data/bfcl_multi_turn_base.jsonl',
    class_docs=dict(NotebookAPI='../../data/bfcl_class_docs/notebook_api.jsonl', ClockAPI='../../data/bfcl_class_docs/clock_api.jsonl'),
    reader_cfg=dict(input_columns=['id', 'question', 'function'], output_column='ground_truth'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='{question}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='BFCLV3FunctionCallInferencer', returns_tool_calls=False,
                        system_prompt='You pick functions for a question. Reply with the calls only, as [name(arg=value)].\nThe functions:\n{functions}\n'),
    ))]
