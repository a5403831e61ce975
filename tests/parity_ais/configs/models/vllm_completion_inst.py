# VLLMCustomAPI with a Llama-2-style meta: a meta-level begin, [INST] turns, an end-of-turn marker on the BOT.
models = [dict(
    abbr='vllm-completion-inst', type='VLLMCustomAPI', path='', model='llama2',
    meta_template=dict(
        begin='<s>',
        round=[
            dict(role='HUMAN', begin='[INST] ', end=' [/INST]'),
            dict(role='BOT', begin=' ', end=' </s><s>', generate=True),
        ],
        end='</s>',
    ))]
