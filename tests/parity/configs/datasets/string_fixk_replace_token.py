# MCQ string templates; gen_field_replace_token puts a visible marker where the answer was.
_q = '{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: {answer}'
datasets = [dict(
    abbr='string_fixk_replace_token', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template=_q),
        prompt_template=dict(type='PromptTemplate', template='</E>' + _q, ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[1, 3]),
        inferencer=dict(type='GenInferencer', gen_field_replace_token='<ANSWER>'),
    ))]
