# ChatML with {% generation %} markers: completion-string meta template, twin of chatml_generation.py.
#
# Each message '<|im_start|>{role}\n' + content + '<|im_end|>\n', generation prompt
# '<|im_start|>assistant\n', no BOS, no default system prompt. The template's
# {% generation %} tags only mark assistant text (for transformers' assistant masks); they
# add no characters, so the two agree byte for byte.
from promptkit import CompletionModel

models = [
    dict(
        abbr='chatml-generation',
        type=CompletionModel,
        path='configs/models/hf/chatml_generation',  # the name an engine serves the model under (the request's model)
        tokenizer_path='../hf/chatml_generation',  # the local model folder (its chat template), relative to this file
        meta_template=dict(
            round=[
                dict(role='HUMAN', begin='<|im_start|>user\n', end='<|im_end|>\n'),
                dict(role='BOT', begin='<|im_start|>assistant\n', end='<|im_end|>\n', generate=True),
            ],
            reserved_roles=[dict(role='SYSTEM', begin='<|im_start|>system\n', end='<|im_end|>\n')],
        ),
        max_seq_len=8192,
    )
]
