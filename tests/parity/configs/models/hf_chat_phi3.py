# Phi-3-mini (drops system messages).
# path is relative to the repository root; the OpenCompass harness ignores it.
models = [dict(
    abbr='hf_chat_phi3', type='HuggingFacewithChatTemplate',
    path='configs/models/hf/phi3_mini_4k_instruct',
    max_out_len=64, batch_size=8)]
