# gsm8k_gen style: hard-coded HUMAN/BOT example pairs inside the round, final HUMAN without BOT.
datasets = [dict(
    abbr='multiturn_fixed_round', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer', test_range='[:2]'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='Question: What is 3+3?\nAnswer:'),
            dict(role='BOT', prompt='3+3=6. The answer is 6.\n'),
            dict(role='HUMAN', prompt='Question: What is 9-4?\nAnswer:'),
            dict(role='BOT', prompt='9-4=5. The answer is 5.\n'),
            dict(role='HUMAN', prompt="Question: {question}\nLet's think step by step\nAnswer:"),
        ])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
