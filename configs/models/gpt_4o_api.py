# GPT-4o through the OpenAI Chat Completions API: chat-message meta template.
#
# An API model receives messages, not a string, so the meta template carries
# no tokens: each role only names the message role it maps to (`api_role`),
# HUMAN -> user, BOT -> assistant, SYSTEM -> system. Consecutive messages of
# the same role are merged with '\n'; loose strings in a prompt (e.g. ice
# separators) are dropped. SYSTEM is reserved, so a dataset's
# SYSTEM(fallback HUMAN) item stays a separate system message.
# The API key is read from the environment by the runner, never from here.
from promptkit import ChatModel

models = [
    dict(
        abbr='gpt-4o-2024-08-06',
        type=ChatModel,
        path='gpt-4o-2024-08-06',
        meta_template=dict(
            round=[
                dict(role='HUMAN', api_role='HUMAN'),
                dict(role='BOT', api_role='BOT', generate=True),
            ],
            reserved_roles=[
                dict(role='SYSTEM', api_role='SYSTEM'),
            ],
        ),
        max_seq_len=128000,
        max_out_len=2048,
        batch_size=8,
    )
]
