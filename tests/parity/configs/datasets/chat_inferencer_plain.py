# ChatInferencer on string rows: a chat-form prompt_template (SYSTEM, HUMAN), the answer appended as the assistant turn.
datasets = [dict(
    abbr='chat_inferencer_plain', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='Solve it.')],
            round=[dict(role='HUMAN', prompt='{question}')])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='ChatInferencer'),
    ))]
