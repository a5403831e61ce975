# internlm-chat with a 34-word context, for PPL truncation on chat prompts.
models = [dict(
    abbr='internlm-chat-tiny', type='HuggingFaceCausalLM',
    meta_template=dict(round=[
        dict(role='HUMAN', begin='<|User|>:', end='\n'),
        dict(role='BOT', begin='<|Bot|>:', end='<eoa>\n', generate=True),
    ]),
    max_seq_len=34)]
