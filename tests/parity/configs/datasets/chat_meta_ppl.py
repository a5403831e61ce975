# PPL with a (non label-keyed) chat template: get_labels returns the template's keys (['round']).
datasets = [dict(
    abbr='chat_meta_ppl', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer', test_range='[:2]'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='Question: {question}'),
            dict(role='BOT', prompt='Answer: {answer}'),
        ])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='PPLInferencer'),
    ))]
