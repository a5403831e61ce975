# ChatML written as a completion meta template, on promptkit's CompletionModel.
models = [dict(
    abbr='chatml', type='CompletionModel',
    meta_template=dict(
        round=[
            dict(role='HUMAN', begin='<|im_start|>user\n', end='<|im_end|>\n'),
            dict(role='BOT', begin='<|im_start|>assistant\n', end='<|im_end|>\n', generate=True),
        ],
        reserved_roles=[dict(role='SYSTEM', begin='<|im_start|>system\n', end='<|im_end|>\n')]),
    max_seq_len=4096)]
