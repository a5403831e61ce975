# ARC_c_ppl style: label dict whose values are chat templates; 0-shot.
datasets = [dict(
    abbr='label_dict_chat_ppl', type='JsonlDataset', path='data/arc.jsonl',
    reader_cfg=dict(input_columns=['question', 'textA', 'textB', 'textC', 'textD'],
                    output_column='answerKey', test_range='[:2]'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template={
            x: dict(round=[
                dict(role='HUMAN', prompt='Question: {question}\nAnswer: '),
                dict(role='BOT', prompt='{text' + x + '}'),
            ]) for x in ['A', 'B', 'C', 'D']}),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='PPLInferencer'),
    ))]
