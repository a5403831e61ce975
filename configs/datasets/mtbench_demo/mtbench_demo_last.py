# An MT-Bench-style dialogue benchmark (2 turns per row), one prompt per row: the last turn.
#
# MultiTurnPromptTemplate repeats the round once per turn; the round's columns
# (`question`, `answer`) hold one element per turn. `last` sends one
# prompt per row, for its last turn, earlier turns carrying the reference answers
# (AISBench crashes in this mode). The system
# prompt in `begin` is filled from the row's `category` (AISBench sends it unfilled).
datasets = [
    dict(
        abbr='mtbench_demo_last',
        type='JsonlDataset',
        path='data/mtbench_demo.jsonl',
        reader_cfg=dict(input_columns=['question', 'category'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(
                type='MultiTurnPromptTemplate',
                template=dict(
                    begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='You are a helpful assistant. Topic: {category}.')],
                    round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')],
                ),
            ),
            retriever=dict(type='ZeroRetriever'),
            inferencer=dict(type='MultiTurnGenInferencer', infer_mode='last'),
        ),
    )
]
