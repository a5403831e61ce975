# ChatML with {% generation %} markers around assistant turns: the model's own chat template, as OpenCompass's HuggingFacewithChatTemplate applies it.
#
# The template and special tokens are read from the local model folder
# configs/models/hf/chatml_generation/ (path is relative to the repository root).
# Meta-template twin: chatml_generation_meta.py; `promptkit check-template` compares the two.
models = [
    dict(
        abbr='chatml-generation-hf',
        type='HuggingFacewithChatTemplate',
        path='configs/models/hf/chatml_generation',
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
