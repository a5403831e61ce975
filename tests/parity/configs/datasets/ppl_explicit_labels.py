# PPLInferencer(labels=[...]) overrides the template keys: only these labels, in this order.
datasets = [dict(
    abbr='ppl_explicit_labels', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer',
                    test_range='[:2]'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate',
                             template={x: '{question} Answer: {' + x + '}' for x in ['A', 'B', 'C', 'D']}),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='PPLInferencer', labels=['D', 'B']),
    ))]
