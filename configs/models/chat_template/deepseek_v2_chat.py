# DeepSeek-V2-Chat ("User: …\n\n" / "Assistant: …<eos>"): the model's own chat template, as OpenCompass's HuggingFacewithChatTemplate applies it.
#
# The template and special tokens are read from the local model folder
# configs/models/hf/deepseek_v2_chat/ (tokenizer_path is relative to this file, so the config works from any folder).
# Meta-template twin: deepseek_v2_chat_meta.py; `promptkit check-template` compares the two.
models = [
    dict(
        abbr='deepseek-v2-chat-hf',
        type='HuggingFacewithChatTemplate',
        path='configs/models/hf/deepseek_v2_chat',  # the name an engine serves the model under (the request's model)
        tokenizer_path='../hf/deepseek_v2_chat',  # the local model folder (its chat template), relative to this file
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
