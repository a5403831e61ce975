# ARC_c_few_shot_ppl style: only an ice_template, a label dict of chat templates with begin='</E>';
# each shot is rendered with the template of its own gold label.
datasets = [dict(
    abbr='arc_few_shot_ppl', type='JsonlDataset', path='data/arc.jsonl',
    reader_cfg=dict(input_columns=['question', 'textA', 'textB', 'textC', 'textD'],
                    output_column='answerKey', test_range='[3:]'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template={
            x: dict(begin='</E>', round=[
                dict(role='HUMAN', prompt='Question: {question}\nAnswer: '),
                dict(role='BOT', prompt='{text' + x + '}'),
            ]) for x in ['A', 'B', 'C', 'D']}, ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2]),
        inferencer=dict(type='PPLInferencer'),
    ))]
