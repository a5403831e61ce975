# Qwen2-VL 7B Instruct served by vLLM behind an OpenAI-compatible chat endpoint,
# configured the AISBench way (class name 'VLLMCustomAPIChat' as a string).
#
# Multimodal turns become OpenAI content-part lists:
#   [{"type": "text", "text": ...}, {"type": "image_url", "image_url": {"url": ...}}]
# No meta_template: HUMAN -> user, BOT -> assistant, SYSTEM -> system; the
# server applies Qwen2-VL's chat template and loads the media. Its control
# tokens are named, since the server's tokenizer is invisible from here: row
# text holding one is escaped (special_token_policy).
models = [
    dict(
        abbr='qwen2-vl-7b-instruct-api',
        type='VLLMCustomAPIChat',
        path='Qwen/Qwen2-VL-7B-Instruct',
        max_seq_len=32768,
        max_out_len=512,
        batch_size=8,
        extra_control_tokens=['<|im_start|>', '<|im_end|>', '<|endoftext|>', '<|vision_start|>', '<|vision_end|>', '<|image_pad|>', '<|video_pad|>'],
    )
]
