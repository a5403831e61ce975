# question/answer are plain strings, not lists: AISBench iterates them character by character.
datasets = [dict(
    abbr='dialog_string_column', type='JsonlDataset', path='../../data/dialogs_string.jsonl',
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
