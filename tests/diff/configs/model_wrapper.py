# model.py with another begin for the user turn ('<user>' for '<u>'): only the wrapper changes.
from promptkit import CompletionModel

models = [
    dict(
        abbr='tiny-chat',
        type=CompletionModel,
        meta_template=dict(
            begin='<s>',
            round=[
                dict(role='HUMAN', begin='<user>', end='</u>\n'),
                dict(role='BOT', begin='<a>', end='</a>\n', generate=True),
            ],
            reserved_roles=[dict(role='SYSTEM', begin='<sys>', end='</sys>\n')],
        ),
    )
]
