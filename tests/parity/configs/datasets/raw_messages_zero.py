# RawPromptTemplate, zero-shot: the ice token (a ZeroRetriever's string ice) renders nothing; format_variables=False keeps braces.
datasets = [
    dict(
        abbr='raw_messages_zero', type='JsonlDataset', path='data/arith.jsonl',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(type='RawPromptTemplate', messages=[
                '</E>', dict(role='user', content='{question} Reply with a number.')]),
            retriever=dict(type='ZeroRetriever'),
            inferencer=dict(type='GenInferencer'),
        )),
    dict(
        abbr='raw_messages_literal', type='JsonlDataset', path='data/arith.jsonl',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(type='RawPromptTemplate', format_variables=False, messages=[
                dict(role='system', content='Fill in {question} yourself.'),
                dict(role='user', content='{question}')]),
            retriever=dict(type='ZeroRetriever'),
            inferencer=dict(type='GenInferencer'),
        )),
]
