# Plain string templates, FixK shots in a custom order, answer masked with ''.
datasets = [dict(
    abbr='string_fixk_gen', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='Q: {question}\nA: {answer}'),
        prompt_template=dict(type='PromptTemplate',
                             template='Solve the following questions.\n</E>Q: {question}\nA: {answer}',
                             ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 2, 1]),
        inferencer=dict(type='GenInferencer'),
    ))]
