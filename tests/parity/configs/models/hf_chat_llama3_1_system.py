# Llama-3.1 with a reserved SYSTEM->SYSTEM role, as OpenCompass's hf_llama3_1_8b_instruct config.
# path is relative to the repository root; the OpenCompass harness ignores it.
models = [dict(
    abbr='hf_chat_llama3_1_system', type='HuggingFacewithChatTemplate',
    path='configs/models/hf/llama3_1_8b_instruct',
    meta_template=dict(
        round=[dict(role='HUMAN', api_role='HUMAN'), dict(role='BOT', api_role='BOT', generate=True)],
        reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
    ),
    max_out_len=64, batch_size=8)]
