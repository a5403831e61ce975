# siqa_ppl style: a label dict with int keys; 0-shot.
datasets = [dict(
    abbr='int_labels_ppl', type='JsonlDataset', path='data/siqa.jsonl',
    reader_cfg=dict(input_columns=['context', 'question', 'answerA', 'answerB', 'answerC'],
                    output_column='label', test_range='[:2]'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template={
            1: '{context}\nQuestion: {question}\nAnswer: {answerA}',
            2: '{context}\nQuestion: {question}\nAnswer: {answerB}',
            3: '{context}\nQuestion: {question}\nAnswer: {answerC}',
        }),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='PPLInferencer'),
    ))]
