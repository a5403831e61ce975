# Meta Llama 3.1 8B Instruct: completion-string meta template, twin of llama3_1_8b_instruct.py.
#
# The same turn format as Llama 3 ('<|start_header_id|>{role}<|end_header_id|>\n\n' + content
# + '<|eot_id|>'). What a meta template cannot express: the 3.1 template always opens with a
# system header holding "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n"
# (the dataset's system text, if any, follows inside that same header), and it trims contents.
# `promptkit check-template` shows the first place where the two differ.
from promptkit import CompletionModel

models = [
    dict(
        abbr='llama-3.1-8b-instruct',
        type=CompletionModel,
        path='configs/models/hf/llama3_1_8b_instruct',  # the name an engine serves the model under (the request's model)
        tokenizer_path='../hf/llama3_1_8b_instruct',  # the local model folder (its chat template), relative to this file
        meta_template=dict(
            begin='<|begin_of_text|>',
            round=[
                dict(role='HUMAN', begin='<|start_header_id|>user<|end_header_id|>\n\n', end='<|eot_id|>'),
                dict(role='BOT', begin='<|start_header_id|>assistant<|end_header_id|>\n\n', end='<|eot_id|>',
                     generate=True),
            ],
            reserved_roles=[
                dict(role='SYSTEM', begin='<|start_header_id|>system<|end_header_id|>\n\n', end='<|eot_id|>'),
            ],
        ),
        max_seq_len=8192,
    )
]
