# Follow-up questions after a conversation the row holds (RawPromptTemplate with expand_column).
#
# Demonstrates: dict(expand_column='history') inserts the row's messages as they
# are (their text is data: the `{answer}` in row 1 stays literal); an empty
# history inserts nothing.
from promptkit import GenInferencer, JsonlDataset, RawPromptTemplate, ZeroRetriever

datasets = [
    dict(
        abbr='raw_messages_demo_history',
        type=JsonlDataset,
        path='data/history.jsonl',
        reader_cfg=dict(input_columns=['history', 'question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(type=RawPromptTemplate, messages=[
                dict(role='system', content='You are a patient tutor.'),
                dict(expand_column='history'),
                dict(role='user', content='{question}'),
            ]),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer),
        ),
    )
]
