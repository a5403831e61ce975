# Turn columns named query/response (taken from the round's placeholders, not hard-wired).
datasets = [dict(
    abbr='dialog_custom_columns', type='JsonlDataset', path='../../data/dialogs_columns.jsonl',
    reader_cfg=dict(input_columns=['query'], output_column='response'),
    infer_cfg=dict(
        prompt_template=dict(type='MultiTurnPromptTemplate', template=dict(
            round=[
                dict(role='HUMAN', prompt='{query}'),
                dict(role='BOT', prompt='{response}'),
            ],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='MultiTurnGenInferencer', infer_mode='every_with_gt'),
    ))]
