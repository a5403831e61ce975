# Meta Llama 3.1 8B Instruct: the model's own chat template, as OpenCompass's HuggingFacewithChatTemplate applies it.
#
# The template and special tokens are read from the local model folder
# configs/models/hf/llama3_1_8b_instruct/ (tokenizer_path is relative to this file, so the config works from any folder).
# Meta-template twin: llama3_1_8b_instruct_meta.py; `promptkit check-template` compares the two.
models = [
    dict(
        abbr='llama-3.1-8b-instruct-hf',
        type='HuggingFacewithChatTemplate',
        path='configs/models/hf/llama3_1_8b_instruct',  # the name an engine serves the model under (the request's model)
        tokenizer_path='../hf/llama3_1_8b_instruct',  # the local model folder (its chat template), relative to this file
        # OpenCompass's own Llama-3.1 config keeps SYSTEM a separate system message:
        meta_template=dict(
            round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)],
            reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
        ),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
