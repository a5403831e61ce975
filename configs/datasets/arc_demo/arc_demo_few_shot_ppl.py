# ARC-style science multiple choice, PPL, 3 fixed shots, omitted prompt_template.
#
# Demonstrates the hardest combination of the prompt layer:
#   * a label-keyed template whose values are chat dicts (HUMAN question,
#     BOT answer text);
#   * the omitted form: only ice_template is given, every value has
#     `begin='</E>'` and the template carries ice_token, so it renders both the
#     shots and the scored prompts;
#   * each shot is rendered with the entry of its own gold `answerKey`, so a
#     shot always shows its correct answer text;
#   * the candidates' labels are the template's keys A-D.
# A label dict is not a chat template as a whole, so the retriever joins the
# shots with its ice_separator '\n'; a completion model with a meta template
# emits those separators verbatim, a chat (API) model drops them.
from promptkit import FixKRetriever, JsonlDataset, PPLInferencer, PromptTemplate

arc_demo_reader_cfg = dict(
    input_columns=['question', 'textA', 'textB', 'textC', 'textD'],
    output_column='answerKey',
    train_split='dev',
    test_split='test',
)

arc_demo_infer_cfg = dict(
    ice_template=dict(
        type=PromptTemplate,
        template={
            label: dict(
                begin='</E>',
                round=[
                    dict(role='HUMAN', prompt='Question: {question}'),
                    dict(role='BOT', prompt=f'Answer: {{text{label}}}'),
                ],
            )
            for label in ['A', 'B', 'C', 'D']
        },
        ice_token='</E>',
    ),
    retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2]),
    inferencer=dict(type=PPLInferencer),
)

datasets = [
    dict(
        abbr='arc_demo_3shot_ppl',
        type=JsonlDataset,
        path=dict(dev='data/dev.jsonl', test='data/test.jsonl'),
        reader_cfg=arc_demo_reader_cfg,
        infer_cfg=arc_demo_infer_cfg,
    )
]
