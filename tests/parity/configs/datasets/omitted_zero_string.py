# Omitted prompt_template: the ice_template (with </E>) doubles as the prompt; 0-shot.
datasets = [dict(
    abbr='omitted_zero_string', type='JsonlDataset', path='data/translate.jsonl',
    reader_cfg=dict(input_columns=['en'], output_column='de'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='</E>English: {en}\nGerman: {de}',
                          ice_token='</E>'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
