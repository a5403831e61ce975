# MultiTurnPromptTemplate under the plain GenInferencer: one prompt per row, cut before the last BOT turn.
datasets = [dict(
    abbr='dialog_gen_inferencer', type='JsonlDataset', path='../../data/dialogs.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='MultiTurnPromptTemplate', template=dict(
            round=[
                dict(role='HUMAN', prompt='{question}'),
                dict(role='BOT', prompt='{answer}'),
            ],
        )),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
