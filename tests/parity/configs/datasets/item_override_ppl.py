# Item-level begin/end overrides inside label-dict chat templates, PPL (the BOT answer is rendered).
def _choice(letter):
    return dict(round=[
        dict(role='HUMAN', prompt='{question}\nA. {A}\nB. {B}', begin='<<', end='>>\n'),
        dict(role='BOT', prompt='Answer: ' + letter, end='!!\n'),
    ])


datasets = [dict(
    abbr='item_override_ppl', type='JsonlDataset',
    path=dict(dev='data/mcq_dev.jsonl', test='data/mcq_test.jsonl'),
    reader_cfg=dict(input_columns=['question', 'A', 'B'], output_column='answer', train_split='dev'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template={'A': _choice('A'), 'B': _choice('B')}),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='PPLInferencer'),
    ))]
