# C-Eval-style Chinese multiple choice (高中地理), generation, 5 fixed shots.
#
# Demonstrates: Chinese text in templates and data; custom split names (shots
# from `dev`, questions from `val`, as C-Eval publishes no test answers); a chat
# ice_template plus a prompt_template whose final BOT turn holds `{answer}`.
# In the item under test that `{answer}` is masked to '' (the output column),
# and a meta template cuts the prompt at the model's turn anyway. The dev rows
# carry an `explanation` column that no template uses.
from promptkit import FixKRetriever, GenInferencer, JsonlDataset, PromptTemplate

ceval_demo_reader_cfg = dict(
    input_columns=['question', 'A', 'B', 'C', 'D'],
    output_column='answer',
    train_split='dev',
    test_split='val',
)

_question = '下面是一道高中地理单项选择题，请从四个选项中选出唯一正确的答案。\n{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\n答案：'

ceval_demo_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template=dict(round=[
            dict(role='HUMAN', prompt=_question),
            dict(role='BOT', prompt='{answer}'),
        ]),
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            begin='</E>',
            round=[
                dict(role='HUMAN', prompt=_question),
                dict(role='BOT', prompt='{answer}'),
            ],
        ),
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2, 3, 4]),
    inferencer=dict(type=GenInferencer),
)

datasets = [
    dict(
        abbr='ceval_demo-high_school_geography',
        type=JsonlDataset,
        path=dict(dev='data/dev.jsonl', val='data/val.jsonl'),
        reader_cfg=ceval_demo_reader_cfg,
        infer_cfg=ceval_demo_infer_cfg,
    )
]
