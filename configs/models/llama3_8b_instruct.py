# Meta Llama 3 8B Instruct: completion-string meta template.
#
# Tokens from the model's HF chat template and special tokens
# (/work/shared/chat_templates/llama3.jinja, llama3.json):
#   <|begin_of_text|> once at the start (the BOS token, written into the
#   string, so tokenise it without adding special tokens), then per message
#   '<|start_header_id|>{role}<|end_header_id|>\n\n' + content + '<|eot_id|>',
#   and the generation prompt '<|start_header_id|>assistant<|end_header_id|>\n\n'.
# Differences from apply_chat_template: the HF template trims each message's
# content (`| trim`); a meta template cannot, so contents are sent as written.
from promptkit import CompletionModel

models = [
    dict(
        abbr='llama-3-8b-instruct',
        type=CompletionModel,
        path='configs/models/hf/llama3_8b_instruct',  # the local model folder (its chat template), relative to the repository root
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
        max_out_len=1024,
        batch_size=16,
        generation_kwargs=dict(eos_token_id=[128001, 128009]),  # <|end_of_text|>, <|eot_id|>
        run_cfg=dict(num_gpus=1),
    )
]
