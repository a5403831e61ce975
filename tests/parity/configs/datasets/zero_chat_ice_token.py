# ZeroRetriever with a chat ice_template and prompt begin='</E>': the ice is '' and leaves an
# empty string item in the begin section.
datasets = [dict(
    abbr='zero_chat_ice_token', type='JsonlDataset', path='data/translate.jsonl',
    reader_cfg=dict(input_columns=['en'], output_column='de', test_range='[:2]'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='{en}'),
            dict(role='BOT', prompt='{de}'),
        ])),
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin='</E>',
            round=[
                dict(role='HUMAN', prompt='Translate: {en}'),
                dict(role='BOT', prompt='{de}'),
            ]), ice_token='</E>'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
