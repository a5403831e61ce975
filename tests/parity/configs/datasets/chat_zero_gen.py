# A plain HUMAN/BOT chat template, 0-shot, gen.
datasets = [dict(
    abbr='chat_zero_gen', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='Question: {question}'),
            dict(role='BOT', prompt='Answer: {answer}'),
        ])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
