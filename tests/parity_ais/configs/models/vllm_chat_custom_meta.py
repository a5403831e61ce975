# VLLMCustomAPIChat with its own meta template: per-role begin/end text around text messages, SYSTEM reserved.
models = [dict(
    abbr='vllm-chat-custom-meta', type='VLLMCustomAPIChat', path='', model='qwen2-vl',
    meta_template=dict(
        round=[
            dict(role='HUMAN', api_role='HUMAN', begin='<q>', end='</q>'),
            dict(role='BOT', api_role='BOT', generate=True),
        ],
        reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
    ))]
