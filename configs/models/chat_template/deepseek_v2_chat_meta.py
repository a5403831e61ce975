# DeepSeek-V2-Chat: completion-string meta template, twin of deepseek_v2_chat.py.
#
# BOS '<｜begin▁of▁sentence｜>' once, system text + '\n\n', user turns 'User: ' + content +
# '\n\n', assistant turns 'Assistant: ' + content + '<｜end▁of▁sentence｜>'. The HF generation
# prompt is 'Assistant:' with no space, while answered turns have 'Assistant: '; a meta
# template has one begin for both, so here the generation prompt ends with a space.
from promptkit import CompletionModel

models = [
    dict(
        abbr='deepseek-v2-chat',
        type=CompletionModel,
        path='configs/models/hf/deepseek_v2_chat',  # the name an engine serves the model under (the request's model)
        tokenizer_path='../hf/deepseek_v2_chat',  # the local model folder (its chat template), relative to this file
        meta_template=dict(
            begin='<｜begin▁of▁sentence｜>',
            round=[
                dict(role='HUMAN', begin='User: ', end='\n\n'),
                dict(role='BOT', begin='Assistant: ', end='<｜end▁of▁sentence｜>', generate=True),
            ],
            reserved_roles=[dict(role='SYSTEM', begin='', end='\n\n')],
        ),
        max_seq_len=8192,
    )
]
