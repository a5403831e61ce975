# Multiple choice written as OpenAI-style messages (RawPromptTemplate), 2 fixed shots from the dev split.
#
# Demonstrates: RawPromptTemplate as ice_template (each shot: a user message and
# the assistant's answer) and as prompt_template (a system message, '</E>' where
# the shots go, the question). A chat model receives these messages as written;
# a completion model gets them through its meta template. The answer of the
# item under test is never shown.
from promptkit import FixKRetriever, GenInferencer, JsonlDataset, RawPromptTemplate

_question = 'Question: {question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}'

datasets = [
    dict(
        abbr='raw_messages_demo',
        type=JsonlDataset,
        path=dict(dev='data/dev.jsonl', test='data/test.jsonl'),
        reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer', train_split='dev', test_split='test'),
        infer_cfg=dict(
            ice_template=dict(type=RawPromptTemplate, messages=[
                dict(role='user', content=_question),
                dict(role='assistant', content='The answer is {answer}.'),
            ]),
            prompt_template=dict(type=RawPromptTemplate, messages=[
                dict(role='system', content='Answer with the letter of the correct option.'),
                '</E>',
                dict(role='user', content=_question),
            ]),
            retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
            inferencer=dict(type=GenInferencer, max_out_len=16),
        ),
    )
]
