# GSM8K-style grade-school maths, generation, no retriever shots.
#
# Demonstrates: a chat template whose `round` hard-codes three worked
# HUMAN/BOT examples before the test question (the few-shot examples live in
# the template, so the retriever is ZeroRetriever). The last turn has no BOT
# item: the model's turn comes from the meta template's `generate=True` role.
# Gold answers keep GSM8K's "#### <number>" last line.
from promptkit import GenInferencer, JsonlDataset, PromptTemplate, ZeroRetriever

gsm8k_demo_reader_cfg = dict(input_columns=['question'], output_column='answer')

gsm8k_demo_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(round=[
            dict(role='HUMAN', prompt='Question: Anna has 5 apples. She buys 2 bags with 4 apples in each bag. How many apples does she have now?\nWork through it step by step.\nAnswer:'),
            dict(role='BOT', prompt='She buys 2 * 4 = 8 apples.\nNow she has 5 + 8 = 13 apples.\nThe answer is 13\n'),
            dict(role='HUMAN', prompt='Question: A shop had 40 shirts and sold 3/4 of them on Saturday. How many shirts are left?\nWork through it step by step.\nAnswer:'),
            dict(role='BOT', prompt='The shop sold 40 * 3 / 4 = 30 shirts.\nIt has 40 - 30 = 10 shirts left.\nThe answer is 10\n'),
            dict(role='HUMAN', prompt='Question: Ben reads 14 pages a day. How many days does he need to finish a 150-page book?\nWork through it step by step.\nAnswer:'),
            dict(role='BOT', prompt='After 10 days Ben has read 10 * 14 = 140 pages, so 10 pages are still left.\nHe needs one more day, so 10 + 1 = 11 days.\nThe answer is 11\n'),
            dict(role='HUMAN', prompt='Question: {question}\nWork through it step by step.\nAnswer:'),
        ]),
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer, max_out_len=512),
)

datasets = [
    dict(
        abbr='gsm8k_demo',
        type=JsonlDataset,
        path='data/test.jsonl',
        reader_cfg=gsm8k_demo_reader_cfg,
        infer_cfg=gsm8k_demo_infer_cfg,
    )
]
