# EvalScope-style adapter (seed 004): raw MMLU-Pro-like records mapped to rows
# by a `record_to_row` function in the config, like an adapter's
# `record_to_sample`. A row whose `choices` is a list of option texts gets the
# MultiChoice placeholders: `{choices}` ('A. ...\nB. ...') and `{letters}`
# ('A,B,C,D'); the list itself stays in `options`.
from promptkit import AdapterDataset, GenInferencer, PromptTemplate, ZeroRetriever


def record_to_row(record):
    return dict(
        id=str(record['question_id']),
        question=record['question'],
        choices=record['options'],
        answer=record['answer'],
        subject=record['category'].lower(),
    )


datasets = [
    dict(
        abbr='adapter_demo',
        type=AdapterDataset,
        path='data/test.jsonl',
        record_to_row=record_to_row,
        reader_cfg=dict(input_columns=['question', 'choices'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(round=[
                    dict(role='HUMAN', prompt="Answer the following multiple choice question. The last line of your response "
                                              "should be of the following format: 'ANSWER: $LETTER' (without quotes) where "
                                              "LETTER is one of {letters}. Think step by step before answering.\n\n"
                                              "Question:\n{question}\nOptions:\n{choices}\n"),
                    dict(role='BOT', prompt='{answer}'),
                ]),
            ),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer),
        ),
    )
]
