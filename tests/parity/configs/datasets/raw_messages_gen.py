# RawPromptTemplate: system + ice + user + empty assistant; RawPromptTemplate shots (FixK), answer shown in shots.
datasets = [dict(
    abbr='raw_messages_gen', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='RawPromptTemplate', messages=[
            dict(role='user', content='Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}'),
            dict(role='assistant', content='The answer is {answer}'),
        ]),
        prompt_template=dict(type='RawPromptTemplate', messages=[
            dict(role='system', content='Answer the multiple-choice question with one letter.'),
            '</E>',
            dict(role='user', content='Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}'),
        ]),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1]),
        inferencer=dict(type='GenInferencer'),
    ))]
