# SYSTEM instruction with fallback_role HUMAN in begin, plus chat FixK shots via '</E>'.
datasets = [dict(
    abbr='system_fallback_gen', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='Q: {question}'),
            dict(role='BOT', prompt='A: {answer}'),
        ])),
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin=[
                dict(role='SYSTEM', fallback_role='HUMAN', prompt='Solve the following questions.'),
                '</E>',
            ],
            round=[
                dict(role='HUMAN', prompt='Q: {question}'),
                dict(role='BOT', prompt='A: {answer}'),
            ]), ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1]),
        inferencer=dict(type='GenInferencer'),
    ))]
