# MMLU-style multiple choice, generation, 5 fixed shots from the dev split.
#
# Demonstrates: read_base() inheritance (reader_cfg, paths and hint come from
# mmlu_demo_common.py); a chat ice_template whose BOT turn shows the shot's
# `{answer}`; a prompt_template with `begin='</E>'`, so the five rendered shots
# are spliced into the begin section ahead of the test question; f-strings that
# bake the hint in and leave `{question}` etc. as placeholders.
from mmengine.config import read_base

from promptkit import FixKRetriever, GenInferencer, JsonlDataset, PromptTemplate

with read_base():
    from .mmlu_demo_common import mmlu_demo_hint, mmlu_demo_path, mmlu_demo_reader_cfg

_question = f'{mmlu_demo_hint}{{question}}\nA. {{A}}\nB. {{B}}\nC. {{C}}\nD. {{D}}\nAnswer: '

mmlu_demo_gen_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template=dict(round=[
            dict(role='HUMAN', prompt=_question),
            dict(role='BOT', prompt='{answer}\n'),
        ]),
    ),
    prompt_template=dict(
        type=PromptTemplate,
        template=dict(
            begin='</E>',
            round=[dict(role='HUMAN', prompt=_question)],
        ),
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2, 3, 4]),
    inferencer=dict(type=GenInferencer),
)

datasets = [
    dict(
        abbr='mmlu_demo_5shot_gen',
        type=JsonlDataset,
        path=mmlu_demo_path,
        reader_cfg=mmlu_demo_reader_cfg,
        infer_cfg=mmlu_demo_gen_infer_cfg,
    )
]
