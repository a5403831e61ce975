# Seed 002 dialogue shape: HUMAN {question} / BOT {answer}, one prompt per BOT turn with ground-truth history.
datasets = [dict(
    abbr='dialog_every_with_gt', type='JsonlDataset', path='../../data/dialogs.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MultiTurnPromptTemplate', template=dict(
            round=[
                dict(role='HUMAN', prompt='{question}'),
                dict(role='BOT', prompt='{answer}'),
            ],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='MultiTurnGenInferencer', infer_mode='every_with_gt'),
    ))]
