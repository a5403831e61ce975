# HellaSwag-style sentence completion, likelihood scoring (PPL), zero-shot.
#
# Demonstrates: a label-keyed template with integer labels 0-3 (the `label`
# column holds ints), one plain-string candidate per ending; each candidate
# is the context followed by one ending, and the ending with the lowest
# perplexity wins. No shots (ZeroRetriever), no ice_token. The labels come
# from the template's keys, in the order written.
from promptkit import JsonlDataset, PPLInferencer, PromptTemplate, ZeroRetriever

hellaswag_demo_reader_cfg = dict(
    input_columns=['activity_label', 'ctx', 'A', 'B', 'C', 'D'],
    output_column='label',
)

hellaswag_demo_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template={
            0: '{activity_label}: {ctx} {A}',
            1: '{activity_label}: {ctx} {B}',
            2: '{activity_label}: {ctx} {C}',
            3: '{activity_label}: {ctx} {D}',
        },
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=PPLInferencer),
)

datasets = [
    dict(
        abbr='hellaswag_demo',
        type=JsonlDataset,
        path='data/val.jsonl',
        reader_cfg=hellaswag_demo_reader_cfg,
        infer_cfg=hellaswag_demo_infer_cfg,
    )
]
