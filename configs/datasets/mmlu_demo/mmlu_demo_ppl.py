# MMLU-style multiple choice, likelihood scoring (PPL), 5 fixed dev shots.
#
# Demonstrates: label-keyed string templates. Each of A-D gets its own
# candidate prompt ending in "Answer: <label>"; the model's choice is the label
# whose prompt has the lowest perplexity. Each shot is rendered with the
# ice_template entry of its own gold label, joined by the retriever's
# ice_separator / ice_eos_token ('\n' by default) and spliced at `</E>`, after
# the hint. Shares reader_cfg, data paths and hint with mmlu_demo_gen.py.
from mmengine.config import read_base

from promptkit import FixKRetriever, JsonlDataset, PPLInferencer, PromptTemplate

with read_base():
    from .mmlu_demo_common import mmlu_demo_hint, mmlu_demo_path, mmlu_demo_reader_cfg

_question = '{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: '

mmlu_demo_ppl_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template={label: f'{_question}{label}\n' for label in ['A', 'B', 'C', 'D']},
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template={label: f'{mmlu_demo_hint}</E>{_question}{label}' for label in ['A', 'B', 'C', 'D']},
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2, 3, 4]),
    inferencer=dict(type=PPLInferencer),
)

datasets = [
    dict(
        abbr='mmlu_demo_5shot_ppl',
        type=JsonlDataset,
        path=mmlu_demo_path,
        reader_cfg=mmlu_demo_reader_cfg,
        infer_cfg=mmlu_demo_ppl_infer_cfg,
    )
]
