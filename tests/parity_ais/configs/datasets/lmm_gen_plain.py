# LMMGenInferencer on a text-only chat template: the prompts of GenInferencer.
datasets = [dict(
    abbr='lmm_gen_plain', type='JsonlDataset', path='../../data/plain.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(round=[
            dict(role='HUMAN', prompt='Question: {question}'),
            dict(role='BOT', prompt='{answer}'),
        ])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='LMMGenInferencer', gen_field_replace_token=''),
    ))]
