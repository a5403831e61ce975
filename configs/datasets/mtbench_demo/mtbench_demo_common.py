# Shared pieces of the MT-Bench-style dialogue demo, imported by the three
# mtbench_demo_*.py configs with mmengine's read_base(); they differ only in
# infer_mode. Not a dataset config by itself: it defines no `datasets`.
#
# MultiTurnPromptTemplate repeats the round once per turn; the round's columns
# (`question`, `answer`) hold one element per turn. The system prompt in
# `begin` is filled from the row's `category` (AISBench sends it unfilled).
# One dialogue holds `{answer}` and `</E>` literally: they stay text.

mtbench_demo_path = 'data/mtbench_demo.jsonl'

mtbench_demo_reader_cfg = dict(input_columns=['question', 'category'], output_column='answer')

mtbench_demo_template = dict(
    type='MultiTurnPromptTemplate',
    template=dict(
        begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='You are a helpful assistant. Topic: {category}.')],
        round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')],
    ),
)
