# '{{word}}' is not an escape: the inner placeholder is filled and the outer braces stay.
# input_columns given in the whitespace-separated string form.
datasets = [dict(
    abbr='double_braces', type='JsonlDataset', path='data/words.jsonl',
    reader_cfg=dict(input_columns='word hint', output_column='meaning'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate',
                             template='Define {{word}} ({hint}) as a set {{{word}}}.\nMeaning: {meaning}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
