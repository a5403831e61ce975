# sep_token in a gen string template: removed from the prompt, kept inside the shots.
datasets = [dict(
    abbr='sep_token_gen', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template='Q: {question}\nA:<SEP> {answer}',
                          sep_token='<SEP>'),
        prompt_template=dict(type='PromptTemplate', template='</E>Q: {question}\nA:<SEP> {answer}',
                             ice_token='</E>', sep_token='<SEP>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[1]),
        inferencer=dict(type='GenInferencer'),
    ))]
