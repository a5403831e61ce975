# CircularEval with every permutation of three options (OpenCompass's 'all_possible'), scored by a label-dict PPL
# template; a single-file dataset is its train and test split, so it is permuted as a whole.
_body = '{question}\nA. {A}\nB. {B}\nC. {C}\nAnswer: '
datasets = [dict(
    abbr='circular_all_ppl', type='JsonlDataset', path='data/mcq3.jsonl',
    circular=dict(options=['A', 'B', 'C'], answer='answer', mode='all'),
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template={x: _body + x for x in 'ABC'}),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='PPLInferencer'),
    ))]
