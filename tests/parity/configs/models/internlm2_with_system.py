# SYSTEM as a *round* role (like hf_internlm2_chat_7b_with_system).
models = [dict(
    abbr='internlm2-with-system', type='HuggingFaceCausalLM',
    meta_template=dict(round=[
        dict(role='SYSTEM', begin='<|im_start|>system\n', end='<|im_end|>\n'),
        dict(role='HUMAN', begin='<|im_start|>user\n', end='<|im_end|>\n'),
        dict(role='BOT', begin='<|im_start|>assistant\n', end='<|im_end|>\n', generate=True),
    ]),
    max_seq_len=4096)]
