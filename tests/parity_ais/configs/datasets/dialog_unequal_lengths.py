# 3 questions, 2 answers: AISBench zips and silently drops the third turn.
datasets = [dict(
    abbr='dialog_unequal_lengths', type='JsonlDataset', path='../../data/dialogs_unequal.jsonl',
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
