# SINGLE-PASS DIFFERENCE in chat turns: braces in row values, chat shots.
datasets = [dict(
    abbr='braces_chat', type='JsonlDataset', path='data/braces.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='{question}'),
            dict(role='BOT', prompt='{answer}'),
        ])),
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin='</E>',
            round=[
                dict(role='HUMAN', prompt='{question}'),
                dict(role='BOT', prompt='{answer}'),
            ]), ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 3]),
        inferencer=dict(type='GenInferencer'),
    ))]
