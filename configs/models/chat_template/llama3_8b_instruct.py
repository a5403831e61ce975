# Meta Llama 3 8B Instruct: the model's own chat template, as OpenCompass's HuggingFacewithChatTemplate applies it.
#
# The template and special tokens are read from the local model folder
# configs/models/hf/llama3_8b_instruct/ (tokenizer_path is relative to this file, so the config works from any folder).
# Meta-template twin: ../llama3_8b_instruct.py; `promptkit check-template` compares the two.
models = [
    dict(
        abbr='llama-3-8b-instruct-hf',
        type='HuggingFacewithChatTemplate',
        path='configs/models/hf/llama3_8b_instruct',  # the name an engine serves the model under (the request's model)
        tokenizer_path='../hf/llama3_8b_instruct',  # the local model folder (its chat template), relative to this file
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
