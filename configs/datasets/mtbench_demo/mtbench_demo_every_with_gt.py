# An MT-Bench-style dialogue benchmark (2 turns per row), history from the ground truth.
#
# MultiTurnPromptTemplate repeats the round once per turn; the round's columns
# (`question`, `answer`) hold one element per turn. `every_with_gt` sends one
# prompt per turn, earlier turns carrying the reference answers. The system
# prompt in `begin` is filled from the row's `category` (AISBench sends it unfilled).
datasets = [
    dict(
        abbr='mtbench_demo_every_with_gt',
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
            inferencer=dict(type='MultiTurnGenInferencer', infer_mode='every_with_gt'),
        ),
    )
]
