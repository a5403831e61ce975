# SINGLE-PASS DIFFERENCE: row values contain '{answer}', '{question}', '</E>' and JSON braces.
datasets = [dict(
    abbr='braces_gen', type='JsonlDataset', path='data/braces.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='Q: {question}\nA: {answer}'),
        prompt_template=dict(type='PromptTemplate', template='</E>Q: {question}\nA: {answer}',
                             ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1]),
        inferencer=dict(type='GenInferencer'),
    ))]
