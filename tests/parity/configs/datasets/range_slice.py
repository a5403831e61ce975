# train_range/test_range as slice strings.
datasets = [dict(
    abbr='range_slice', type='JsonlDataset', path='data/long.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer',
                    train_range='[::2]', test_range='[1:4]'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='Q: {question}\nA: {answer}'),
        prompt_template=dict(type='PromptTemplate', template='</E>Q: {question}\nA: {answer}',
                             ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[2, 0]),
        inferencer=dict(type='GenInferencer'),
    ))]
