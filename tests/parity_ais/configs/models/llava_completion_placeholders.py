# A LLaVA-style completion model that declares where media go in the string (promptkit's mm_placeholders;
# AISBench has no such key and drops the parts).
models = [dict(
    abbr='llava-completion', type='VLLMCustomAPI', path='', model='llava',
    mm_placeholders=dict(image='<image>'),
    meta_template=dict(round=[
        dict(role='HUMAN', begin='USER: ', end='\n'),
        dict(role='BOT', begin='ASSISTANT:', end='\n', generate=True),
    ]))]
