# Gemma-2 (no system role) with OpenCompass's default meta template.
# path is relative to the repository root; the OpenCompass harness ignores it.
models = [dict(
    abbr='hf_chat_gemma2', type='HuggingFacewithChatTemplate',
    path='configs/models/hf/gemma2_2b_it',
    max_out_len=64, batch_size=8)]
