# A SYSTEM begin section before the dialogue, every.
datasets = [dict(
    abbr='dialog_system_every', type='JsonlDataset', path='../../data/dialogs.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MultiTurnPromptTemplate', template=dict(
            begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='You are a patient tutor.')],
            round=[
                dict(role='HUMAN', prompt='{question}'),
                dict(role='BOT', prompt='{answer}'),
            ],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='MultiTurnGenInferencer', infer_mode='every'),
    ))]
