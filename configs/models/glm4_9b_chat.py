# GLM-4 9B Chat: completion-string meta template.
#
# Tokens from GLM-4's HF chat template (not in /work/shared/chat_templates/;
# the template as shipped in THUDM/glm-4-9b-chat's tokenizer config and
# quoted in llama.cpp's chat-template tests): the string starts with
# '[gMASK]<sop>', each message is '<|{role}|>\n' + content with no end token
# (the next role token closes a turn), and the generation prompt is
# '<|assistant|>'.
# Difference from apply_chat_template: the HF generation prompt stops at
# '<|assistant|>' and the model itself writes the '\n'; here the BOT begin is
# '<|assistant|>\n' so that answered turns (shots, PPL candidates) match the
# template exactly, and the gen prompt therefore ends with that '\n' too.
from promptkit import CompletionModel

models = [
    dict(
        abbr='glm-4-9b-chat',
        type=CompletionModel,
        path='THUDM/glm-4-9b-chat',
        meta_template=dict(
            begin='[gMASK]<sop>',
            round=[
                dict(role='HUMAN', begin='<|user|>\n', end=''),
                dict(role='BOT', begin='<|assistant|>\n', end='', generate=True),
            ],
            reserved_roles=[
                dict(role='SYSTEM', begin='<|system|>\n', end=''),
            ],
        ),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=8,
        generation_kwargs=dict(eos_token_id=[151329, 151336, 151338]),  # <|endoftext|>, <|user|>, <|observation|>
        run_cfg=dict(num_gpus=1),
    )
]
