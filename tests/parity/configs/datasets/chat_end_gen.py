# Chat template with begin, round and end sections, gen mode (end is never reached for meta models).
datasets = [dict(
    abbr='chat_end_gen', type='JsonlDataset', path='data/arith.jsonl',
    reader_cfg=dict(input_columns=['question'], output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(type='PromptTemplate', template=dict(
            begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='You are a calculator.')],
            round=[
                dict(role='HUMAN', prompt='{question}'),
                dict(role='BOT', prompt='{answer}'),
            ],
            end=[dict(role='HUMAN', prompt='Reply with a number only.')])),
        retriever=dict(type='ZeroRetriever'),
        inferencer=dict(type='GenInferencer'),
    ))]
