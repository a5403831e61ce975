# Chat shots + a chat model with a small max_seq_len: truncation counted on message lists.
datasets = [dict(
    abbr='chat_truncation', type='JsonlDataset', path='data/long.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='{question}'),
            dict(role='BOT', prompt='{answer}'),
        ])),
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='Answer briefly.'), '</E>'],
            round=[
                dict(role='HUMAN', prompt='{question}'),
                dict(role='BOT', prompt='{answer}'),
            ]), ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2]),
        inferencer=dict(type='GenInferencer'),
    ))]
