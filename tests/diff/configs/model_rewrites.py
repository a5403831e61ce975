# A chat-template model whose template upper-cases every message: the pieces cannot be placed in its output.
from promptkit import ChatTemplateModel

models = [
    dict(
        abbr='shouting',
        type=ChatTemplateModel,
        chat_template="{% for m in messages %}<{{ m.role }}>{{ m.content | upper }}\n{% endfor %}",
    )
]
