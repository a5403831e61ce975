# RandomRetriever on one file (train and test are the same rows): OpenCompass may show a row its own answer as a shot.
datasets = [dict(
    abbr='random_same_split', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='{question} -> {answer}'),
        prompt_template=dict(type='PromptTemplate', template='</E>{question} -> {answer}', ice_token='</E>'),
        retriever=dict(type='RandomRetriever', ice_num=3, seed=43),
        inferencer=dict(type='GenInferencer'),
    ))]
