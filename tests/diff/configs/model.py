# A completion model of the diff tests: a meta template of short tags.
from promptkit import CompletionModel

models = [
    dict(
        abbr='tiny-chat',
        type=CompletionModel,
        meta_template=dict(
            begin='<s>',
            round=[
                dict(role='HUMAN', begin='<u>', end='</u>\n'),
                dict(role='BOT', begin='<a>', end='</a>\n', generate=True),
            ],
            reserved_roles=[dict(role='SYSTEM', begin='<sys>', end='</sys>\n')],
        ),
    )
]
