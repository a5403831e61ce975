# The same literal-string meta round on a chat (API) model: OpenCompass rejects it.
models = [dict(
    abbr='meta-literals-api', type='ChatModel',
    meta_template=dict(round=[
        '<s>',
        dict(role='HUMAN', api_role='HUMAN'),
        dict(role='BOT', api_role='BOT', generate=True),
    ]))]
