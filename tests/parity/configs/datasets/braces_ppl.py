# SINGLE-PASS DIFFERENCE in PPL: '\frac{A}{B}' in a question meets the option columns A and B.
datasets = [dict(
    abbr='braces_ppl', type='JsonlDataset', path='data/fraction.jsonl',
    reader_cfg=dict(input_columns=['question', 'A', 'B'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template={
            'A': '{question}\nAnswer: {A}', 'B': '{question}\nAnswer: {B}'}),
        prompt_template=dict(type='PromptTemplate', template={
            'A': '</E>{question}\nAnswer: {A}', 'B': '</E>{question}\nAnswer: {B}'}, ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[2]),
        inferencer=dict(type='PPLInferencer'),
    ))]
