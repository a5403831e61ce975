# internlm-chat with a tiny context: the model's max_seq_len overrides the inferencer's.
models = [dict(
    abbr='internlm-chat-short', type='HuggingFaceCausalLM',
    meta_template=dict(round=[
        dict(role='HUMAN', begin='<|User|>:', end='\n'),
        dict(role='BOT', begin='<|Bot|>:', end='<eoa>\n', generate=True),
    ]),
    max_seq_len=45)]
