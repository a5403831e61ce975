# InternLM2 Chat 7B: ChatML-style completion-string meta template.
#
# Tokens: InternLM2's chat format starts with the BOS token '<s>' and wraps
# each message as '<|im_start|>{role}\n' + content + '<|im_end|>\n'; the
# generation prompt is '<|im_start|>assistant\n' ('<|im_end|>' is token 92542).
# There is no InternLM2 file in /work/shared/chat_templates/; the layout is the
# ChatML one of chatml.jinja there, plus the leading BOS of the InternLM2
# tokenizer. '<s>' is written into the string, so tokenise it without adding
# special tokens.
# Uses an OpenCompass class name as a string type, as many real configs do.
models = [
    dict(
        abbr='internlm2-chat-7b-hf',
        type='HuggingFaceCausalLM',
        path='internlm/internlm2-chat-7b',
        meta_template=dict(
            begin='<s>',
            round=[
                dict(role='HUMAN', begin='<|im_start|>user\n', end='<|im_end|>\n'),
                dict(role='BOT', begin='<|im_start|>assistant\n', end='<|im_end|>\n', generate=True),
            ],
            reserved_roles=[
                dict(role='SYSTEM', begin='<|im_start|>system\n', end='<|im_end|>\n'),
            ],
        ),
        max_seq_len=4096,
        max_out_len=1024,
        batch_size=8,
        generation_kwargs=dict(eos_token_id=[2, 92542]),  # </s>, <|im_end|>
        run_cfg=dict(num_gpus=1),
    )
]
