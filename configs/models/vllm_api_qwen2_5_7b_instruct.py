# Qwen2.5 7B Instruct served by vLLM behind an OpenAI-compatible endpoint,
# configured the AISBench way (class name 'VLLMCustomAPIChat' as a string).
#
# No meta_template is given: like AISBench, VLLMCustomAPIChat then uses
# HUMAN -> user and BOT -> assistant (generate) with SYSTEM -> system reserved,
# and the server applies the model's own chat template (including Qwen's
# default system prompt), so the input promptkit renders is the message list.
# The server's template and tokenizer are invisible from here, so its control
# tokens are named: row text holding one is escaped (special_token_policy).
models = [
    dict(
        abbr='vllm-api-qwen2.5-7b-instruct',
        type='VLLMCustomAPIChat',
        path='Qwen/Qwen2.5-7B-Instruct',
        max_seq_len=32768,
        max_out_len=1024,
        batch_size=32,
        generation_kwargs=dict(temperature=0.0),
        extra_control_tokens=['<|im_start|>', '<|im_end|>', '<|endoftext|>'],
    )
]
