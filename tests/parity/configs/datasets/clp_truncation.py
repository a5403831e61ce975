# CLPInferencer with FixK shots and max_seq_len: one token is kept for the choice when shots are dropped.
datasets = [dict(
    abbr='clp_truncation', type='JsonlDataset', path='data/comments.jsonl',
    reader_cfg=dict(input_columns=['text'], output_column='label'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='Text: {text}\nRude: {label}\n'),
        prompt_template=dict(type='PromptTemplate', template='</E>Text: {text}\nRude:', ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2]),
        inferencer=dict(type='CLPInferencer', max_seq_len=20),
    ))]
