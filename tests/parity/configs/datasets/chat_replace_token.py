# gen_field_replace_token on a chat template: the masked BOT text is visible without a meta
# template and cut away (never shown) with one.
datasets = [dict(
    abbr='chat_replace_token', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer', test_range='[1:3]'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='Q: {question}'),
            dict(role='BOT', prompt='A: {answer}'),
        ])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer', gen_field_replace_token='[MASK]'),
    ))]
