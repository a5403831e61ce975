# llama3.1-instruct style API meta: HUMAN/BOT plus reserved SYSTEM.
models = [dict(
    abbr='gpt-meta-system', type='OpenAISDK', path='gpt-4o-mini',
    meta_template=dict(
        round=[
            dict(role='HUMAN', api_role='HUMAN'),
            dict(role='BOT', api_role='BOT', generate=True),
        ],
        reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')]),
    max_seq_len=4096)]
