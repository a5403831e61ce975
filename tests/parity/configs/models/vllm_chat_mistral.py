# Mistral v3 through VLLMwithChatTemplate.
# path is relative to the repository root; the OpenCompass harness ignores it.
models = [dict(
    abbr='vllm_chat_mistral', type='VLLMwithChatTemplate',
    path='configs/models/hf/mistral_7b_instruct_v0_3',
    max_out_len=64, batch_size=8)]
