# ZeroRetriever with a custom ice_eos_token and no ice_template: the "ice" is just the eos token.
datasets = [dict(
    abbr='string_zero_custom_eos', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='</E>Q: {question}\nA:',
                             ice_token='</E>'),
        retriever=dict(type='ZeroRetriever', ice_eos_token='<no shots>\n'),
        inferencer=dict(type='GenInferencer'),
    ))]
