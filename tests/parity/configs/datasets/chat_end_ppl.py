# Label-dict PPL whose chat values carry an `end` section (OpenCompass emits two end/end markers).
def _choice(letter):
    return dict(
        begin='Pick the right option.\n',
        round=[
            dict(role='HUMAN', prompt='{question}\nA. {A}\nB. {B}'),
            dict(role='BOT', prompt='Answer: ' + letter),
        ],
        end=dict(role='HUMAN', prompt='(end of question)'))


datasets = [dict(
    abbr='chat_end_ppl', type='JsonlDataset',
    path=dict(dev='data/mcq_dev.jsonl', test='data/mcq_test.jsonl'),
    reader_cfg=dict(input_columns=['question', 'A', 'B'], output_column='answer', train_split='dev'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template={'A': _choice('A'), 'B': _choice('B')}),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='PPLInferencer'),
    ))]
