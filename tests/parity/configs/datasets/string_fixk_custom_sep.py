# FixK with a custom ice_separator and ice_eos_token (string shots keep them).
datasets = [dict(
    abbr='string_fixk_custom_sep', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='Q: {question}\nA: {answer}'),
        prompt_template=dict(type='PromptTemplate', template='</E>Q: {question}\nA: {answer}',
                             ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[3, 0],
                       ice_separator='\n\n', ice_eos_token='\n===\n'),
        inferencer=dict(type='GenInferencer'),
    ))]
