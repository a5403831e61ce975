# BFCL v3 'simple' rows in BFCL's prompt style (AISBench's BFCLV3PromptInferencer, returns_tool_calls=False): the
# functions written into the system message (a system message of the row's own follows them), no tools sent.
# The texts are this suite's own; a real run gives bfcl-eval's DEFAULT_SYSTEM_PROMPT.
datasets = [dict(
    abbr='bfcl_simple', type='JsonlDataset', path='../../data/bfcl_simple.jsonl',
    reader_cfg=dict(input_columns=['id', 'question', 'function'], output_column='ground_truth'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='{question}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='BFCLV3FunctionCallInferencer', returns_tool_calls=False,
                        system_prompt='You pick functions for a question. Reply with the calls only, as [name(arg=value)].\nThe functions:\n{functions}\n'),
    ))]
