# No role is marked generate=True: nothing is cut, even in gen mode.
models = [dict(
    abbr='no-generate', type='TurboMindModel',
    meta_template=dict(
        round=[
            dict(role='HUMAN', begin='<user>', end='</user>'),
            dict(role='BOT', begin='<bot>', end='</bot>'),
        ],
        end='<fin>'),
    max_seq_len=2048)]
