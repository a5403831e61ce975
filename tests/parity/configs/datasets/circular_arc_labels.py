# CircularEval, ARC style: the options are the columns textA-textD, the answer column holds the letters A-D
# (OpenCompass's CircularARCDataset answer switch; here labels=[...]).
datasets = [dict(
    abbr='circular_arc_labels', type='JsonlDataset', path='data/arc.jsonl',
    circular=dict(options=['textA', 'textB', 'textC', 'textD'], labels=['A', 'B', 'C', 'D'], answer='answerKey'),
    reader_cfg=dict(input_columns=['question', 'textA', 'textB', 'textC', 'textD'], output_column='answerKey',
                    test_range='[0:8]'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='Question: {question}\nA. {textA}\nB. {textB}\nC. {textC}\nD. {textD}\nAnswer:'),
            dict(role='BOT', prompt='{answerKey}'),
        ])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
