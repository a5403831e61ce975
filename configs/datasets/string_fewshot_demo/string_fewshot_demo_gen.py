# The plain-string few-shot example from the prompt-template contract (seed 002).
#
# Demonstrates: string ice_template and prompt_template with ice_token '</E>',
# FixKRetriever([0, 1]) and its default ice_separator / ice_eos_token '\n'.
# train rows 0-1 are the contract's ex1/ex2 and test row 0 is its ex3, so the
# first prompt must be exactly:
#     'Solve the following questions.\n2+2=?\n4\n3+3=?\n6\n1+1=?\n'
# (the contract shows it with the masked answer line left empty). The
# `irrelavent_infos` column (spelled as in the contract) is not an input column
# and never reaches a prompt.
from promptkit import FixKRetriever, GenInferencer, JsonlDataset, PromptTemplate

string_fewshot_demo_reader_cfg = dict(
    input_columns=['question'],
    output_column='answer',
    train_split='train',
    test_split='test',
)

string_fewshot_demo_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template='{question}\n{answer}',
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template='Solve the following questions.\n</E>{question}\n{answer}',
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
    inferencer=dict(type=GenInferencer),
)

datasets = [
    dict(
        abbr='string_fewshot_demo',
        type=JsonlDataset,
        path=dict(train='data/train.jsonl', test='data/test.jsonl'),
        reader_cfg=string_fewshot_demo_reader_cfg,
        infer_cfg=string_fewshot_demo_infer_cfg,
    )
]
