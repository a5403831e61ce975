# mmlu_ppl style: label-dict string ice_template (no ice token) + label-dict prompt with '</E>'.
_letters = ['A', 'B', 'C', 'D']
_body = '{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '
datasets = [dict(
    abbr='label_dict_string_ppl', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer',
                    test_range='[2:4]'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate',
                          template={x: _body + x + '\n' for x in _letters}),
        prompt_template=dict(type='PromptTemplate',
                             template={x: 'The following are multiple choice questions.\n</E>' + _body + x
                                       for x in _letters},
                             ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1]),
        inferencer=dict(type='PPLInferencer'),
    ))]
