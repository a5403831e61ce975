# Item-level begin/end overrides on prompt-side role items (they replace the meta role's begin/end).
datasets = [dict(
    abbr='item_override_gen', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer', test_range='[:2]'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='{question}', end=' (shot)\n'),
            dict(role='BOT', prompt='{answer}', begin='=> '),
        ])),
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin='</E>',
            round=[
                dict(role='HUMAN', prompt='Q: {question}', begin='[Q] ', end=' [/Q]\n'),
                dict(role='BOT', prompt='A: {answer}', begin='[A] '),
            ]), ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[2, 3]),
        inferencer=dict(type='GenInferencer'),
    ))]
