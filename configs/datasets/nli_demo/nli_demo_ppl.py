# Three-way natural language inference (MNLI/CMNLI style), PPL, zero-shot.
#
# Demonstrates: a label-keyed template whose values are chat dicts. Every
# candidate is the same HUMAN question followed by a different BOT reply
# (Yes / Maybe / No); a completion model scores the whole rendered
# conversation, BOT reply included (ppl mode never cuts at the model's turn).
from promptkit import JsonlDataset, PPLInferencer, PromptTemplate, ZeroRetriever

nli_demo_reader_cfg = dict(input_columns=['premise', 'hypothesis'], output_column='label')

_question = ('Premise: {premise}\nHypothesis: {hypothesis}\n'
             'Does the premise entail the hypothesis? Answer Yes, Maybe or No.')

nli_demo_infer_cfg = dict(
    prompt_template=dict(
        type=PromptTemplate,
        template={
            'entailment': dict(round=[
                dict(role='HUMAN', prompt=_question),
                dict(role='BOT', prompt='Yes'),
            ]),
            'neutral': dict(round=[
                dict(role='HUMAN', prompt=_question),
                dict(role='BOT', prompt='Maybe'),
            ]),
            'contradiction': dict(round=[
                dict(role='HUMAN', prompt=_question),
                dict(role='BOT', prompt='No'),
            ]),
        },
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=PPLInferencer),
)

datasets = [
    dict(
        abbr='nli_demo',
        type=JsonlDataset,
        path='data/validation.jsonl',
        reader_cfg=nli_demo_reader_cfg,
        infer_cfg=nli_demo_infer_cfg,
    )
]
