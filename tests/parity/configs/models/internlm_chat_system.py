# internlm-chat with a reserved SYSTEM role (usable in begin/end sections only).
models = [dict(
    abbr='internlm-chat-system', type='HuggingFaceCausalLM',
    meta_template=dict(
        round=[
            dict(role='HUMAN', begin='<|User|>:', end='\n'),
            dict(role='BOT', begin='<|Bot|>:', end='<eoa>\n', generate=True),
        ],
        reserved_roles=[dict(role='SYSTEM', begin='<|System|>:', end='\n')]),
    max_seq_len=2048)]
