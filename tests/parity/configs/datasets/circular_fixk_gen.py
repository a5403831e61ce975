# CircularEval, mmlu_gen style: the test split's rows once per rotation of A-D (gold remapped); shots from the dev
# split keep their order (OpenCompass's circular splits are the test split only).
_q = '{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '
datasets = [dict(
    abbr='circular_fixk_gen', type='JsonlDataset', path=dict(train='data/mcq_split_dev.jsonl', test='data/mcq_split_test.jsonl'),
    circular=dict(options=['A', 'B', 'C', 'D'], answer='answer'),
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt=_q),
            dict(role='BOT', prompt='{answer}\n'),
        ])),
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin='</E>',
            round=[dict(role='HUMAN', prompt=_q)]), ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1]),
        inferencer=dict(type='GenInferencer'),
    ))]
