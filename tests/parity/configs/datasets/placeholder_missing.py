# Placeholders that name no column stay literal ({topic}, JSON braces); a column that is in the
# row but not in input_columns ({hint}) is still filled.
datasets = [dict(
    abbr='placeholder_missing', type='JsonlDataset', path='data/words.jsonl',
    reader_cfg=dict(input_columns=['word'], output_column='meaning'),
    infer_cfg=dict(
        prompt_template=dict(
            type='PromptTemplate',
            template='Return JSON {"word": "{word}", "topic": "{topic}"} for {word }.\nHint: {hint}\nMeaning: {meaning}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
