# ChatInferencer, infer_mode='last': list-of-string columns make one exchange per turn; the last turn's history is sent.
datasets = [dict(
    abbr='chat_inferencer_last', type='JsonlDataset', path='data/dialogues.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[dict(role='HUMAN', prompt='{question}')])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='ChatInferencer', infer_mode='last', max_out_len=512),
    ))]
