# Gemma 2 2B IT: completion-string meta template with no SYSTEM role at all.
#
# Tokens from the model's HF chat template and special tokens
# (/work/shared/chat_templates/gemma2.jinja, gemma2.json): '<bos>' once at
# the start, each message '<start_of_turn>{role}\n' + content + '<end_of_turn>\n'
# with the assistant role named 'model', and the generation prompt
# '<start_of_turn>model\n'.
# The HF template raises "System role not supported"; here a dataset's SYSTEM
# item (fallback_role='HUMAN') becomes a user turn instead. The HF template
# also trims contents and checks that roles alternate; a meta template does
# neither.
from promptkit import CompletionModel

models = [
    dict(
        abbr='gemma-2-2b-it',
        type=CompletionModel,
        path='configs/models/hf/gemma2_2b_it',  # the local model folder (its chat template), relative to the repository root
        meta_template=dict(
            begin='<bos>',
            round=[
                dict(role='HUMAN', begin='<start_of_turn>user\n', end='<end_of_turn>\n'),
                dict(role='BOT', begin='<start_of_turn>model\n', end='<end_of_turn>\n', generate=True),
            ],
        ),
        max_seq_len=8192,
        max_out_len=1024,
        batch_size=16,
        generation_kwargs=dict(eos_token_id=[1, 107]),  # <eos>, <end_of_turn>
        run_cfg=dict(num_gpus=1),
    )
]
