# Separate dev/test files; shots come from train_split='dev'.
_q = '{question}\nA. {A}\nB. {B}\nAnswer: '
datasets = [dict(
    abbr='split_dict', type='JsonlDataset',
    path=dict(dev='data/mcq_dev.jsonl', test='data/mcq_test.jsonl'),
    reader_cfg=dict(input_columns=['question', 'A', 'B'], output_column='answer', train_split='dev'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt=_q),
            dict(role='BOT', prompt='{answer}'),
        ])),
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='Answer with A or B.'), '</E>'],
            round=[dict(role='HUMAN', prompt=_q), dict(role='BOT', prompt='{answer}')]),
            ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[2, 0, 1]),
        inferencer=dict(type='GenInferencer'),
    ))]
