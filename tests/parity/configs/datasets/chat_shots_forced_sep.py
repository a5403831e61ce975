# Chat (meta) shots: the retriever forces ice_separator/ice_eos_token to '' whatever is configured.
datasets = [dict(
    abbr='chat_shots_forced_sep', type='JsonlDataset', path='data/translate.jsonl',
    reader_cfg=dict(input_columns=['en'], output_column='de', test_range='[2:]'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='{en}'),
            dict(role='BOT', prompt='{de}'),
        ])),
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin='</E>',
            round=[
                dict(role='HUMAN', prompt='{en}'),
                dict(role='BOT', prompt='{de}'),
            ]), ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1], ice_separator='###', ice_eos_token='@@@'),
        inferencer=dict(type='GenInferencer'),
    ))]
