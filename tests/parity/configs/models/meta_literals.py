# Literal strings between the roles of the meta round.
models = [dict(
    abbr='meta-literals', type='VLLMCustomAPI',
    meta_template=dict(round=[
        '<s>',
        dict(role='HUMAN', begin='U:', end='\n'),
        '---\n',
        dict(role='BOT', begin='B:', end='</s>', generate=True),
    ]),
    max_seq_len=2048)]
