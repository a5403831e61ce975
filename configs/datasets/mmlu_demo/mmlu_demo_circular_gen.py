# MMLU-style multiple choice, generation, 5 fixed shots: circular evaluation (OpenCompass's CircularEval).
#
# Demonstrates: `circular=dict(...)` on a dataset. Each test row renders once per rotation of its options
# (ABCD, BCDA, CDAB, DABC) with the gold answer remapped; each record names its order ("permutation": "BCDA":
# the text of option A is shown as B, B's as C, ...). The shots come from the dev split and keep their order.
# mode='all' gives every permutation; mode='shuffle' gives `shuffles` seeded random orders per row.
from mmengine.config import read_base

from promptkit import JsonlDataset

with read_base():
    from .mmlu_demo_common import mmlu_demo_path, mmlu_demo_reader_cfg
    from .mmlu_demo_gen import mmlu_demo_gen_infer_cfg

datasets = [
    dict(
        abbr='mmlu_demo_circular_gen',
        type=JsonlDataset,
        path=mmlu_demo_path,
        circular=dict(options=['A', 'B', 'C', 'D'], answer='answer', mode='rotations'),
        reader_cfg=mmlu_demo_reader_cfg,
        infer_cfg=mmlu_demo_gen_infer_cfg,
    )
]
