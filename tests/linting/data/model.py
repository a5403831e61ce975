# A completion model with a ChatML-like meta template (HUMAN and BOT only), an image placeholder, control tokens warned about.
models = [
    dict(
        abbr='toy',
        type='CompletionModel',
        meta_template=dict(round=[dict(role='HUMAN', begin='<|im_start|>user\n', end='<|im_end|>\n'),
                                  dict(role='BOT', begin='<|im_start|>assistant\n', end='<|im_end|>\n', generate=True)]),
        mm_placeholders=dict(image='<image>'),
        special_token_policy='warn',
    )
]
