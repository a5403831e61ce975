# Roles mapped onto API roles, with per-role begin/end inside the message text and a
# THOUGHTS role that shares api_role BOT (consecutive same-role messages are merged).
models = [dict(
    abbr='api-role-mapping', type='ChatModel',
    meta_template=dict(
        round=[
            dict(role='HUMAN', api_role='HUMAN', begin='<<', end='>>'),
            dict(role='THOUGHTS', api_role='BOT', prompt='(thinking)'),
            dict(role='BOT', api_role='BOT', generate=True),
        ],
        reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM', begin='[sys] ')]))]
