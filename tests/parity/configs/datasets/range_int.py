# test_range as an int: a seeded random subset (random.Random(n)) in shuffled order.
datasets = [dict(
    abbr='range_int', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer', train_range=4, test_range=3),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='{question} -> {answer}'),
        prompt_template=dict(type='PromptTemplate', template='</E>{question} -> {answer}',
                             ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1]),
        inferencer=dict(type='GenInferencer'),
    ))]
