# max_seq_len on the PPLInferencer: truncation made for one label carries over to later labels.
_letters = ['A', 'B', 'C', 'D']
datasets = [dict(
    abbr='ppl_truncation', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate',
                          template={x: 'Q: {question}\nAnswer: {' + x + '}' for x in _letters}),
        prompt_template=dict(type='PromptTemplate',
                             template={x: '</E>Q: {question}\nAnswer: {' + x + '}' for x in _letters},
                             ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2]),
        inferencer=dict(type='PPLInferencer', max_seq_len=41),
    ))]
