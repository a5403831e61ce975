# String shots spliced into a chat prompt's begin='</E>': a loose string item in the begin section.
_q = '{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '
datasets = [dict(
    abbr='string_ice_chat_prompt', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer',
                    test_range='[:2]'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=_q + '{answer}'),
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin='</E>',
            round=[
                dict(role='HUMAN', prompt=_q),
                dict(role='BOT', prompt='{answer}'),
            ]), ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[2, 4]),
        inferencer=dict(type='GenInferencer'),
    ))]
