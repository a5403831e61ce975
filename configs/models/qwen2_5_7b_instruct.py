# Qwen2.5 7B Instruct: ChatML completion-string meta template.
#
# Tokens from the model's HF chat template and special tokens
# (/work/shared/chat_templates/qwen2_5.jinja, qwen2_5.json): no BOS token;
# each message is '<|im_start|>{role}\n' + content + '<|im_end|>\n', and the
# generation prompt is '<|im_start|>assistant\n'.
# Difference from apply_chat_template: when a conversation has no system
# message, the HF template inserts a default one ("You are Qwen, created by
# Alibaba Cloud. You are a helpful assistant."). A meta template cannot add a
# turn only when another is missing, so prompts without SYSTEM get none here.
from promptkit import CompletionModel

models = [
    dict(
        abbr='qwen2.5-7b-instruct',
        type=CompletionModel,
        path='configs/models/hf/qwen2_5_7b_instruct',  # the local model folder (its chat template), relative to the repository root
        meta_template=dict(
            round=[
                dict(role='HUMAN', begin='<|im_start|>user\n', end='<|im_end|>\n'),
                dict(role='BOT', begin='<|im_start|>assistant\n', end='<|im_end|>\n', generate=True),
            ],
            reserved_roles=[
                dict(role='SYSTEM', begin='<|im_start|>system\n', end='<|im_end|>\n'),
            ],
        ),
        max_seq_len=32768,
        max_out_len=2048,
        batch_size=16,
        generation_kwargs=dict(eos_token_id=[151645, 151643]),  # <|im_end|>, <|endoftext|>
        run_cfg=dict(num_gpus=1),
    )
]
