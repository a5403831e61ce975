# RandomRetriever(ice_num=5, seed=2026): OpenCompass's legacy NumPy stream (np.random.seed once, choice per row).
datasets = [dict(
    abbr='random_seed2026', type='JsonlDataset',
    path=dict(train='data/sums_train.jsonl', test='data/products_test.jsonl'),
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='Q: {question}\nA: {answer}'),
        prompt_template=dict(type='PromptTemplate', template='</E>Q: {question}\nA: {answer}', ice_token='</E>'),
        retriever=dict(type='RandomRetriever', ice_num=5, seed=2026),
        inferencer=dict(type='GenInferencer'),
    ))]
