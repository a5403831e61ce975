# Mistral 7B Instruct v0.3 ("v3" template): the model's own chat template, as OpenCompass's HuggingFacewithChatTemplate applies it.
#
# The template and special tokens are read from the local model folder
# configs/models/hf/mistral_7b_instruct_v0_3/ (tokenizer_path is relative to this file, so the config works from any folder).
# Meta-template twin: ../mistral_7b_instruct_v0_3.py; `promptkit check-template` compares the two.
models = [
    dict(
        abbr='mistral-7b-instruct-v0.3-chat-template',
        type='HuggingFacewithChatTemplate',
        path='configs/models/hf/mistral_7b_instruct_v0_3',  # the name an engine serves the model under (the request's model)
        tokenizer_path='../hf/mistral_7b_instruct_v0_3',  # the local model folder (its chat template), relative to this file
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
