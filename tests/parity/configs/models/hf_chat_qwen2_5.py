# Qwen2.5 (ChatML, default system prompt) with OpenCompass's default meta template.
# path is relative to the repository root; the OpenCompass harness ignores it.
models = [dict(
    abbr='hf_chat_qwen2_5', type='HuggingFacewithChatTemplate',
    path='configs/models/hf/qwen2_5_7b_instruct',
    max_out_len=64, batch_size=8)]
