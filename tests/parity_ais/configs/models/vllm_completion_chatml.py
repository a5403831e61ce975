# AISBench VLLMCustomAPI (completions endpoint) with a ChatML-style meta template and a reserved SYSTEM role.
models = [dict(
    abbr='vllm-completion-chatml', type='VLLMCustomAPI', path='', model='qwen2',
    meta_template=dict(
        round=[
            dict(role='HUMAN', begin='<|im_start|>user\n', end='<|im_end|>\n'),
            dict(role='BOT', begin='<|im_start|>assistant\n', end='<|im_end|>\n', generate=True),
        ],
        reserved_roles=[dict(role='SYSTEM', begin='<|im_start|>system\n', end='<|im_end|>\n')],
    ))]
