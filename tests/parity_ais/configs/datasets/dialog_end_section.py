# An end section after the dialogue: with a meta template the gen cut stops before it (end markers quirk).
datasets = [dict(
    abbr='dialog_end_section', type='JsonlDataset', path='../../data/dialogs.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MultiTurnPromptTemplate', template=dict(
            round=[
                dict(role='HUMAN', prompt='{question}'),
                dict(role='BOT', prompt='{answer}'),
            ],
            end=[dict(role='HUMAN', prompt='Keep every answer short.')],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='MultiTurnGenInferencer', infer_mode='every_with_gt'),
    ))]
