# Phi-3 mini 4k instruct: completion-string meta template, twin of phi3_mini_4k_instruct.py.
#
# '<s>' once, user turns '<|user|>\n' + content + '<|end|>\n', assistant turns
# '<|assistant|>\n' + content + '<|end|>\n'. The April-2024 HF template drops system
# messages entirely; here SYSTEM has no role, so a dataset's SYSTEM item falls back to a
# user turn (text is never dropped silently). check-template reports that difference.
from promptkit import CompletionModel

models = [
    dict(
        abbr='phi-3-mini-4k-instruct',
        type=CompletionModel,
        path='configs/models/hf/phi3_mini_4k_instruct',  # the name an engine serves the model under (the request's model)
        tokenizer_path='../hf/phi3_mini_4k_instruct',  # the local model folder (its chat template), relative to this file
        meta_template=dict(
            begin='<s>',
            round=[
                dict(role='HUMAN', begin='<|user|>\n', end='<|end|>\n'),
                dict(role='BOT', begin='<|assistant|>\n', end='<|end|>\n', generate=True),
            ],
        ),
        max_seq_len=4096,
    )
]
