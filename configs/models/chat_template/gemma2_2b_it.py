# Gemma 2 2B IT (no system role): the model's own chat template, as OpenCompass's HuggingFacewithChatTemplate applies it.
#
# The template and special tokens are read from the local model folder
# configs/models/hf/gemma2_2b_it/ (tokenizer_path is relative to this file, so the config works from any folder).
# Meta-template twin: ../gemma2_2b_it.py; `promptkit check-template` compares the two.
models = [
    dict(
        abbr='gemma-2-2b-it-hf',
        type='HuggingFacewithChatTemplate',
        path='configs/models/hf/gemma2_2b_it',  # the name an engine serves the model under (the request's model)
        tokenizer_path='../hf/gemma2_2b_it',  # the local model folder (its chat template), relative to this file
        # The template raises 'System role not supported'; with a meta template that keeps SYSTEM
        # separate, system_role='auto' finds that out once, at load, and applies 'merge_into_first_user':
        # the system text opens the first user turn (`promptkit check-template configs/models/gemma2_2b_it.py` says so).
        system_role='auto',
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
