# Qwen2.5 7B Instruct (ChatML, default system prompt): the model's own chat template, as OpenCompass's HuggingFacewithChatTemplate applies it.
#
# The template and special tokens are read from the local model folder
# configs/models/hf/qwen2_5_7b_instruct/ (tokenizer_path is relative to this file, so the config works from any folder).
# Meta-template twin: ../qwen2_5_7b_instruct.py; `promptkit check-template` compares the two.
models = [
    dict(
        abbr='qwen2.5-7b-instruct-hf',
        type='HuggingFacewithChatTemplate',
        path='configs/models/hf/qwen2_5_7b_instruct',  # the name an engine serves the model under (the request's model)
        tokenizer_path='../hf/qwen2_5_7b_instruct',  # the local model folder (its chat template), relative to this file
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
