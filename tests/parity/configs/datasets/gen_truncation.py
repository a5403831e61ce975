# max_seq_len on the GenInferencer: the last shots are dropped until the prompt fits.
datasets = [dict(
    abbr='gen_truncation', type='JsonlDataset', path='data/long.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='Q: {question}\nA: {answer}'),
        prompt_template=dict(type='PromptTemplate', template='</E>Q: {question}\nA: {answer}',
                             ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2, 3]),
        inferencer=dict(type='GenInferencer', max_seq_len=40),
    ))]
