# Llama-3 instruct prompt format written as a completion meta template.
models = [dict(
    abbr='llama3-completion', type='VLLM',
    meta_template=dict(
        begin='<|begin_of_text|>',
        round=[
            dict(role='HUMAN', begin='<|start_header_id|>user<|end_header_id|>\n\n', end='<|eot_id|>'),
            dict(role='BOT', begin='<|start_header_id|>assistant<|end_header_id|>\n\n', end='<|eot_id|>',
                 generate=True),
        ],
        reserved_roles=[
            dict(role='SYSTEM', begin='<|start_header_id|>system<|end_header_id|>\n\n', end='<|eot_id|>'),
        ]),
    max_seq_len=8192)]
