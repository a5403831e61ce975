# SWCELossInferencer (llm_compression style): each row's text, no shots, no meta template.
datasets = [dict(
    abbr='swce_loss', type='JsonlDataset', path='data/corpus.jsonl',
    reader_cfg=dict(input_columns=['text'], output_column=None),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='{text}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='SWCELossInferencer', block_size=1900, stride=512),
    ))]
