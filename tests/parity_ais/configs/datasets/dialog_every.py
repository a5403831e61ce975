# Seed 002 dialogue shape, infer_mode every: history holds the model's own replies (--replies).
datasets = [dict(
    abbr='dialog_every', type='JsonlDataset', path='../../data/dialogs.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MultiTurnPromptTemplate', template=dict(
            round=[
                dict(role='HUMAN', prompt='{question}'),
                dict(role='BOT', prompt='{answer}'),
            ],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='MultiTurnGenInferencer', infer_mode='every'),
    ))]
