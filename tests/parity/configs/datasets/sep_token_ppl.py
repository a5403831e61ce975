# sep_token in label-dict PPL templates: removed from the prompt, kept inside the shots.
_letters = ['A', 'B', 'C', 'D']
datasets = [dict(
    abbr='sep_token_ppl', type='JsonlDataset', path='data/mcq.jsonl',
    reader_cfg=dict(input_columns=['question', 'A', 'B', 'C', 'D'], output_column='answer',
                    test_range='[2:4]'),
    infer_cfg=dict(
        ice_template=dict(
            type='PromptTemplate',
            template={x: 'Q: {question}\nAnswer:<SEP> ' + x for x in _letters},
            sep_token='<SEP>'),
        prompt_template=dict(
            type='PromptTemplate',
            template={x: '</E>Q: {question}\nAnswer:<SEP> ' + x for x in _letters},
            ice_token='</E>', sep_token='<SEP>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1]),
        inferencer=dict(type='PPLInferencer'),
    ))]
