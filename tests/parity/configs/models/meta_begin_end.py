# Top-level meta begin/end strings (end only appears when nothing is generated, i.e. ppl).
models = [dict(
    abbr='meta-begin-end', type='HuggingFace',
    meta_template=dict(
        begin='<BOS>',
        round=[
            dict(role='HUMAN', begin='[U] ', end=' [/U]\n'),
            dict(role='BOT', begin='[B] ', end=' [/B]\n', generate=True),
        ],
        end='<END>'),
    max_seq_len=2048)]
