# Standardized Sample records (seed 000), rendered with the format's defaults.
#
# Demonstrates: no reader_cfg / infer_cfg — StandardSampleDataset brings them.
# Each record's `messages` become turns (system first), its own
# `few_shot_examples` become earlier user/assistant turns (picked by
# EmbeddedShotsRetriever from the `few_shot` split), `options` are listed after
# the last user message, and records with `unconditioned_input` also render a
# `calib` prompt. Chat models carry `tools`/`tool_choice` into the render
# record. Rows 9-11 hold image/audio/video parts (content parts for chat
# models, `mm_placeholders` plus a media list for completion models that have
# them; the files are not bundled: paths are kept as written).
# data/samples_bad.jsonl breaks each validation rule once (`promptkit validate`).
from promptkit import StandardSampleDataset

datasets = [
    dict(
        abbr='standard_sample_demo',
        type=StandardSampleDataset,
        path='data/samples.jsonl',
    )
]
