# AISBench's VLLMCustomAPIChat without a meta template (same default meta as ChatModel).
models = [dict(abbr='vllm-api-chat', type='VLLMCustomAPIChat', max_seq_len=4096)]
