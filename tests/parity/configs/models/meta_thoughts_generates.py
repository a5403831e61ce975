# generate=True on a role that is not the last one (THOUGHTS).
models = [dict(
    abbr='thoughts-generates', type='HuggingFaceCausalLM',
    meta_template=dict(
        begin='meta instruction\n',
        round=[
            dict(role='HUMAN', begin='<|HUMAN|>:', end='<eoh>\n'),
            dict(role='THOUGHTS', begin='<|Inner Thoughts|>:', prompt='None', end='<eot>\n', generate=True),
            dict(role='BOT', begin='<|BOT|>:', end='<eob>\n'),
        ],
        end='meta end'),
    max_seq_len=2048)]
