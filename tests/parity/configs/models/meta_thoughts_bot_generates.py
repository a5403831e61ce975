# A THOUGHTS role with a default prompt; BOT generates.
models = [dict(
    abbr='thoughts-bot-generates', type='HuggingFaceCausalLM',
    meta_template=dict(
        begin='meta instruction\n',
        round=[
            dict(role='HUMAN', begin='<|HUMAN|>:', end='<eoh>\n'),
            dict(role='THOUGHTS', begin='<|Inner Thoughts|>:', prompt='None', end='<eot>\n'),
            dict(role='BOT', begin='<|BOT|>:', end='<eob>\n', generate=True),
        ],
        end='meta end'),
    max_seq_len=2048)]
