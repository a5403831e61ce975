# ChatInferencer, infer_mode='every_with_gt', rows holding messages (one input column); shots are not used.
datasets = [dict(
    abbr='chat_inferencer_gt', type='JsonlDataset', path='data/chat_messages.jsonl',
    reader_cfg=dict(input_columns=['messages'], output_column=None),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template='{messages}'),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='ChatInferencer', infer_mode='every_with_gt'),
    ))]
