# Mistral 7B Instruct v0.3 ("v3" template): the model's own chat template, as OpenCompass's HuggingFacewithChatTemplate applies it.
#
# The template and special tokens are read from the local model folder
# configs/models/hf/mistral_7b_instruct_v0_3/ (path is relative to the repository root).
# Meta-template twin: ../mistral_7b_instruct_v0_3.py; `promptkit check-template` compares the two.
models = [
    dict(
        abbr='mistral-7b-instruct-v0.3-chat-template',
        type='HuggingFacewithChatTemplate',
        path='configs/models/hf/mistral_7b_instruct_v0_3',
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
