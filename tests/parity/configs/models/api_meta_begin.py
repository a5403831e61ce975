# A meta-level begin given as a role dict: the API parser inserts it unchanged as the first message.
models = [dict(
    abbr='api-meta-begin', type='ChatModel',
    meta_template=dict(
        begin=dict(role='SYSTEM', api_role='SYSTEM', prompt='You are a careful grader.'),
        round=[
            dict(role='HUMAN', api_role='HUMAN'),
            dict(role='BOT', api_role='BOT', generate=True),
        ]))]
