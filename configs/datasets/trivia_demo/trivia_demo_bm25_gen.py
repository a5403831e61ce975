# Few-shot trivia with BM25-retrieved shots from the same subject.
#
# Demonstrates: BM25Retriever (pip install 'promptkit[bm25]') picking, for each
# test question, the 3 train rows whose words match it best (CJK-aware tokens,
# ties in pool order), restricted by filter=dict(same='subject') to rows of the
# test row's subject; chat ice_template and prompt_template with '</E>'.
from promptkit import BM25Retriever, GenInferencer, JsonlDataset, PromptTemplate

trivia_demo_reader_cfg = dict(input_columns=['question'], output_column='answer')

_round = [
    dict(role='HUMAN', prompt='Question: {question}'),
    dict(role='BOT', prompt='Answer: {answer}'),
]

trivia_demo_bm25_infer_cfg = dict(
    ice_template=dict(type=PromptTemplate, template=dict(round=_round)),
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='Answer the question in a few words.'), '</E>'],
            round=_round,
        ),
        ice_token='</E>',
    ),
    retriever=dict(type=BM25Retriever, ice_num=3, filter=dict(same='subject')),
    inferencer=dict(type=GenInferencer),
)

datasets = [
    dict(
        abbr='trivia_demo_bm25',
        type=JsonlDataset,
        path=dict(train='data/train.jsonl', test='data/test.jsonl'),
        reader_cfg=trivia_demo_reader_cfg,
        infer_cfg=trivia_demo_bm25_infer_cfg,
    )
]
