# HuggingFaceBaseModel ignores meta templates entirely (plain '\n' joins).
models = [dict(
    abbr='hf-base', type='HuggingFaceBaseModel',
    meta_template=dict(round=[
        dict(role='HUMAN', begin='IGNORED-HUMAN:', end='\n'),
        dict(role='BOT', begin='IGNORED-BOT:', end='\n', generate=True),
    ]),
    max_seq_len=2048)]
