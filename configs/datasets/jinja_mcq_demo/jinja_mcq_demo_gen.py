# Multiple choice with a variable number of options, written as Jinja prompt templates.
#
# JinjaPromptTemplate is chosen by its type (a PromptTemplate never reads {{ }} as Jinja).
# The options column is a list; the template loops over it and letters the options with the
# config-defined filter `letter` (a Python callable: here the builtin chr). Two shots (FixK) are
# rendered with the same kind of template and spliced in at </E> as finished text; the answer of
# the item under test is masked. Test row 3 holds '{{ 7*7 }}' and '{answer}' in its question and
# options: they render literally.
from promptkit import FixKRetriever, GenInferencer, JinjaPromptTemplate, JsonlDataset

MCQ = (
    '{{ question }}\n'
    '{% for option in options %}\n'
    '{{ (65 + loop.index0) | letter }}. {{ option }}\n'
    '{% endfor %}\n'
    'Answer: {{ answer }}'
)

datasets = [
    dict(
        abbr='jinja_mcq_demo',
        type=JsonlDataset,
        path=dict(train='data/dev.jsonl', test='data/test.jsonl'),
        reader_cfg=dict(input_columns=['question', 'options'], output_column='answer'),
        infer_cfg=dict(
            ice_template=dict(type=JinjaPromptTemplate, template=MCQ + '\n', filters=dict(letter=chr)),
            prompt_template=dict(
                type=JinjaPromptTemplate,
                template=dict(round=[dict(role='HUMAN', prompt='</E>' + MCQ.replace('Answer: {{ answer }}', 'Answer:')),
                                     dict(role='BOT', prompt='{{ answer }}')]),
                ice_token='</E>',
                filters=dict(letter=chr),
            ),
            retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
            inferencer=dict(type=GenInferencer),
        ),
    )
]
