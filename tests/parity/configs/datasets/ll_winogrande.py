# LLInferencer (winogrande_5shot_ll style): label-keyed templates with FixK shots; each prompt carries the row's 'cont'.
datasets = [dict(
    abbr='ll_winogrande', type='JsonlDataset', path='data/winogrande.jsonl',
    reader_cfg=dict(input_columns=['opt1', 'opt2'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template={'A': '{opt1}', 'B': '{opt2}'}),
        prompt_template=dict(type='PromptTemplate', template={'A': '</E>{opt1}', 'B': '</E>{opt2}'}, ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 2]),
        inferencer=dict(type='LLInferencer'),
    ))]
