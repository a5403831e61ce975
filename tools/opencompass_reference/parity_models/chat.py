# A completion model with a chat meta template in the InternLM2 style
# (HUMAN/BOT rounds, a reserved SYSTEM role), written here for the harness.
models = [dict(
    abbr='chat-meta', type='HuggingFaceCausalLM', path='any/chat-model',
    meta_template=dict(
        round=[
            dict(role='HUMAN', begin='<|im_start|>user\n', end='<|im_end|>\n'),
            dict(role='BOT', begin='<|im_start|>assistant\n', end='<|im_end|>\n', generate=True),
        ],
        reserved_roles=[dict(role='SYSTEM', begin='<|im_start|>system\n', end='<|im_end|>\n')],
    ))]
