# Shared pieces of the MMLU-style demo (high school physics), imported by
# mmlu_demo_gen.py and mmlu_demo_ppl.py with mmengine's read_base().
#
# Shots come from the 5-row `dev` split, the questions under test from `test`,
# as in MMLU. Not a dataset config by itself: it defines no `datasets`.

mmlu_demo_reader_cfg = dict(
    input_columns=['question', 'A', 'B', 'C', 'D'],
    output_column='answer',
    train_split='dev',
    test_split='test',
)

# Relative to this folder (the folder of every config that imports it).
mmlu_demo_path = dict(dev='data/dev.jsonl', test='data/test.jsonl')

mmlu_demo_hint = 'Answer the following multiple choice questions about high school physics.\n\n'
