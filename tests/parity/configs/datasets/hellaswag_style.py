# hellaswag_10shot_gen style: begin=[HUMAN instruction, '</E>'], masked BOT '{answer}\n' in the round.
_q = '{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer:'
datasets = [dict(
    abbr='hellaswag_style', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer',
                    test_range='[2:4]'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt=_q),
            dict(role='BOT', prompt='{answer}\n'),
        ])),
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin=[dict(role='HUMAN', prompt='Pick the best answer for each question.'), '</E>'],
            round=[
                dict(role='HUMAN', prompt=_q),
                dict(role='BOT', prompt='{answer}\n'),
            ]), ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1]),
        inferencer=dict(type='GenInferencer'),
    ))]
