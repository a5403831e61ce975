# Mistral 7B Instruct v0.3: completion-string meta template, no SYSTEM role.
#
# Tokens from Mistral's "v3" HF chat template and special tokens
# (/work/shared/chat_templates/mistral_v0_3.jinja, mistral_v0_3.json):
# '<s>' once at the start, user turns '[INST] ' + content + '[/INST]' (no
# space before '[/INST]' in v3; v0.1/v0.2 had ' [/INST]'), assistant turns
# ' ' + content + '</s>', and no extra generation prompt.
# Choices a meta template forces:
#   * BOT begin is '' rather than ' ', so a gen prompt ends with '[/INST]' as
#     apply_chat_template's does; answered BOT turns (shots) therefore lack
#     the template's leading space.
#   * No SYSTEM role: the HF template folds a system message into the LAST
#     user turn, which a meta template cannot express. A dataset's SYSTEM item
#     falls back to HUMAN and becomes its own '[INST] ...[/INST]' turn.
# Uses an OpenCompass class name as a string type.
models = [
    dict(
        abbr='mistral-7b-instruct-v0.3-hf',
        type='HuggingFaceCausalLM',
        path='configs/models/hf/mistral_7b_instruct_v0_3',  # the local model folder (its chat template), relative to the repository root
        meta_template=dict(
            begin='<s>',
            round=[
                dict(role='HUMAN', begin='[INST] ', end='[/INST]'),
                dict(role='BOT', begin='', end='</s>', generate=True),
            ],
        ),
        max_seq_len=32768,
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
