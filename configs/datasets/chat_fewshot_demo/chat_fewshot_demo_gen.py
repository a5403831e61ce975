# The chat few-shot example from the prompt-template contract (seed 002).
#
# Demonstrates: the same data as string_fewshot_demo, written as chat
# templates. The shots render as HUMAN/BOT pairs and are spliced in at the
# '</E>' item of `begin`, after the SYSTEM instruction (fallback HUMAN). For
# test row 0 (ex3) the contract's intermediate result is:
#     SYSTEM 'Solve the following questions.', HUMAN '2+2=?', BOT '4',
#     HUMAN '3+3=?', BOT '6', HUMAN '1+1=?', BOT ''
# A model's meta template then turns that into its final input.
from promptkit import FixKRetriever, GenInferencer, JsonlDataset, PromptTemplate

chat_fewshot_demo_reader_cfg = dict(
    input_columns=['question'],
    output_column='answer',
    train_split='train',
    test_split='test',
)

chat_fewshot_demo_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template=dict(round=[
            dict(role='HUMAN', prompt='{question}'),
            dict(role='BOT', prompt='{answer}'),
        ]),
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            begin=[
                dict(role='SYSTEM', fallback_role='HUMAN', prompt='Solve the following questions.'),
                '</E>',
            ],
            round=[
                dict(role='HUMAN', prompt='{question}'),
                dict(role='BOT', prompt='{answer}'),
            ],
        ),
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
    inferencer=dict(type=GenInferencer),
)

datasets = [
    dict(
        abbr='chat_fewshot_demo',
        type=JsonlDataset,
        path=dict(train='data/train.jsonl', test='data/test.jsonl'),
        reader_cfg=chat_fewshot_demo_reader_cfg,
        infer_cfg=chat_fewshot_demo_infer_cfg,
    )
]
