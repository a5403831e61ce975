# MT-Bench-style dialogues (2 turns per row), infer_mode='last': one prompt per row, for its last turn, earlier
# turns carrying the reference answers (AISBench crashes in this mode).
from mmengine.config import read_base

with read_base():
    from .mtbench_demo_common import mtbench_demo_path, mtbench_demo_reader_cfg, mtbench_demo_template

datasets = [
    dict(
        abbr='mtbench_demo_last',
        type='JsonlDataset',
        path=mtbench_demo_path,
        reader_cfg=mtbench_demo_reader_cfg,
        infer_cfg=dict(
            prompt_template=mtbench_demo_template,
            retriever=dict(type='ZeroRetriever'),
            inferencer=dict(type='MultiTurnGenInferencer', infer_mode='last'),
        ),
    )
]
