# VLLMCustomAPI without a meta template: prompt items joined with newlines.
models = [dict(abbr='vllm-completion-nometa', type='VLLMCustomAPI', path='', model='base')]
