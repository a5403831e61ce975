# mmlu_gen style: chat ice_template; prompt begin='</E>' (the ice token as its own item).
_q = '{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '
datasets = [dict(
    abbr='ice_begin_item_fixk', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer',
                    test_range='[3:]'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt=_q),
            dict(role='BOT', prompt='{answer}\n'),
        ])),
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin='</E>',
            round=[dict(role='HUMAN', prompt=_q)]), ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2]),
        inferencer=dict(type='GenInferencer'),
    ))]
