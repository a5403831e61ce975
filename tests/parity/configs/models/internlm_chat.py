# internlm-chat style completion model (like hf_internlm_chat_7b).
models = [dict(
    abbr='internlm-chat', type='HuggingFaceCausalLM',
    meta_template=dict(round=[
        dict(role='HUMAN', begin='<|User|>:', end='\n'),
        dict(role='BOT', begin='<|Bot|>:', end='<eoa>\n', generate=True),
    ]),
    max_seq_len=2048)]
