# train_range/test_range as floats: int(fraction * len) rows, seeded shuffle.
datasets = [dict(
    abbr='range_float', type='JsonlDataset', path='data/arc.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answerKey',
                    train_range=0.6, test_range=0.5),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='{question} ({answerKey})'),
        prompt_template=dict(type='PromptTemplate', template='</E>{question} ({answerKey})',
                             ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 2]),
        inferencer=dict(type='GenInferencer'),
    ))]
