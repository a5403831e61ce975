# Literal braces, doubled braces and an unknown placeholder inside chat turns and a SYSTEM begin item.
datasets = [dict(
    abbr='placeholder_missing_chat', type='JsonlDataset', path='data/words.jsonl',
    reader_cfg=dict(input_columns=['word'], output_column='meaning'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='Reply as {"meaning": "..."}; ignore {topic}.')],
            round=[
                dict(role='HUMAN', prompt='Word: {{word}} / {word} ({hint})'),
                dict(role='BOT', prompt='{"meaning": "{meaning}"}'),
            ])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
