# Llama-3 with OpenCompass's default meta template (SYSTEM sent as HUMAN).
# path is relative to the repository root; the OpenCompass harness ignores it.
models = [dict(
    abbr='hf_chat_llama3', type='HuggingFacewithChatTemplate',
    path='configs/models/hf/llama3_8b_instruct',
    max_out_len=64, batch_size=8)]
