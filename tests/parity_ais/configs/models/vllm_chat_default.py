# AISBench VLLMCustomAPIChat without a meta template: it installs HUMAN/BOT(generate) with SYSTEM reserved.
models = [dict(abbr='vllm-chat-default', type='VLLMCustomAPIChat', path='', model='qwen2-vl', max_out_len=512)]
