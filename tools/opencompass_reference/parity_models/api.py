# An OpenAI API model with the meta template OpenCompass's API model configs
# carry (their `api_meta_template`): HUMAN/BOT rounds mapped to API roles.
models = [dict(
    abbr='api', type='OpenAISDK', path='any-api-model',
    meta_template=dict(round=[
        dict(role='HUMAN', api_role='HUMAN'),
        dict(role='BOT', api_role='BOT', generate=True),
    ]))]
