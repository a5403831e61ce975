# PPLOnlyInferencer (wikitext style) and InferencePPLOnlyInferencer: one prompt per row, scored whole, no answer column.
datasets = [
    dict(
        abbr='ppl_only', type='JsonlDataset', path='data/corpus.jsonl',
        reader_cfg=dict(input_columns=['text'], output_column=None),
        infer_cfg=dict(
            prompt_template=dict(type='PromptTemplate', template=dict(round=[dict(role='HUMAN', prompt='{text}')])),
            retriever=dict(type='ZeroRetriever'),
            inferencer=dict(type='PPLOnlyInferencer'),
        )),
    dict(
        abbr='inference_ppl_only', type='JsonlDataset', path='data/corpus.jsonl',
        reader_cfg=dict(input_columns=['text'], output_column=None),
        infer_cfg=dict(
            prompt_template=dict(type='PromptTemplate', template='{text}'),
            retriever=dict(type='ZeroRetriever'),
            inferencer=dict(type='InferencePPLOnlyInferencer'),
        )),
]
