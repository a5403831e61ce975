# A SYSTEM item placed inside the round (works only when the meta template has SYSTEM as a round role).
datasets = [dict(
    abbr='system_in_round', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer', test_range='[:2]'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='SYSTEM', fallback_role='HUMAN', prompt='Be brief.'),
            dict(role='HUMAN', prompt='{question}'),
            dict(role='BOT', prompt='{answer}'),
        ])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
