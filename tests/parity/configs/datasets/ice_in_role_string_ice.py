# The ice token inside a role's prompt, filled with string shots (works).
datasets = [dict(
    abbr='ice_in_role_string_ice', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer', test_range='[2:]'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='Q: {question}\nA: {answer}'),
        prompt_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='</E>Q: {question}'),
            dict(role='BOT', prompt='A: {answer}'),
        ]), ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1]),
        inferencer=dict(type='GenInferencer'),
    ))]
