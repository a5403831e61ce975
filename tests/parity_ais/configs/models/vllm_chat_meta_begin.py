# VLLMCustomAPIChat whose meta template opens with a system message given as a role dict.
models = [dict(
    abbr='vllm-chat-meta-begin', type='VLLMCustomAPIChat', path='', model='qwen2-vl',
    meta_template=dict(
        begin=dict(role='SYSTEM', api_role='SYSTEM', prompt='Answer in one line.'),
        round=[
            dict(role='HUMAN', api_role='HUMAN'),
            dict(role='BOT', api_role='BOT', generate=True),
        ],
        reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
    ))]
