# VLLMCustomAPI with a minimal U:/A: meta template.
models = [dict(
    abbr='vllm-completion-ua', type='VLLMCustomAPI', path='', model='base',
    meta_template=dict(round=[
        dict(role='HUMAN', begin='U:', end='\n'),
        dict(role='BOT', begin='A:', end='\n', generate=True),
    ]))]
