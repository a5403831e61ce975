# Int-keyed label dicts with chat values, FixK shots chosen by each shot's int gold label.
def _ice(key):
    return dict(round=[
        dict(role='HUMAN', prompt='{context} {question}'),
        dict(role='BOT', prompt='{answer' + key + '}'),
    ])


def _prompt(key):
    return dict(begin='</E>', round=[
        dict(role='HUMAN', prompt='{context} {question}'),
        dict(role='BOT', prompt='{answer' + key + '}'),
    ])


datasets = [dict(
    abbr='int_labels_fixk_ppl', type='JsonlDataset', path='data/siqa.jsonl',
    reader_cfg=dict(input_columns=['context', 'question', 'answerA', 'answerB', 'answerC'],
                    output_column='label', test_range='[3:]'),
    infer_cfg=dict(
        ice_template=dict(type='PromptTemplate', template={1: _ice('A'), 2: _ice('B'), 3: _ice('C')}),
        prompt_template=dict(type='PromptTemplate',
                             template={1: _prompt('A'), 2: _prompt('B'), 3: _prompt('C')},
                             ice_token='</E>'),
        retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2]),
        inferencer=dict(type='PPLInferencer'),
    ))]
