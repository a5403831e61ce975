# Qwen3 0.6B (ChatML with a thinking switch): the model's own chat template, as OpenCompass's HuggingFacewithChatTemplate applies it.
#
# The template is Qwen3's (configs/models/hf/qwen3_0_6b/chat_template.jinja, from llama.cpp's
# models/templates/Qwen-Qwen3-0.6B.jinja, snapshot 1eeb523c): it reads `enable_thinking`; false adds an
# empty '<think>\n\n</think>\n\n' block after the generation prompt. `thinking=False` here (or a dataset's
# infer_cfg thinking=..., or `promptkit render --thinking on|off`) sets it: see docs/configs.md#prompt-controls.
# Meta-template twin: ../qwen2_5_7b_instruct.py; `promptkit check-template` compares the two (ChatML, without the think block).
models = [
    dict(
        abbr='qwen3-0.6b-hf',
        type='HuggingFacewithChatTemplate',
        path='configs/models/hf/qwen3_0_6b',  # the name an engine serves the model under (the request's model)
        tokenizer_path='../hf/qwen3_0_6b',  # the local model folder (its chat template), relative to this file
        thinking=False,
        max_seq_len=32768,
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
