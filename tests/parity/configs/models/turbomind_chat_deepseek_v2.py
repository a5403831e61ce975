# DeepSeek-V2 through TurboMindModelwithChatTemplate.
# path is relative to the repository root; the OpenCompass harness ignores it.
models = [dict(
    abbr='turbomind_chat_deepseek_v2', type='TurboMindModelwithChatTemplate',
    path='configs/models/hf/deepseek_v2_chat',
    max_out_len=64, batch_size=8)]
