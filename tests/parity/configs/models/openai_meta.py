# gpt_4.py style: HUMAN/BOT only, no SYSTEM role.
models = [dict(
    abbr='gpt-meta', type='OpenAI', path='gpt-4o-mini',
    meta_template=dict(round=[
        dict(role='HUMAN', api_role='HUMAN'),
        dict(role='BOT', api_role='BOT', generate=True),
    ]),
    max_seq_len=4096)]
