"""Stage 3: a prompt (``str`` or PromptList) becomes a model's final input: a completion string or chat messages.

One module per concept: ``spec`` (the meta template), ``model`` (what every model shares, token counting),
``completion_model`` / ``chat_model`` / ``chat_template_model`` (the three kinds), ``validation`` (shared config
checks), ``aliases`` (OpenCompass and AISBench class names); ``_walk`` and ``_compile`` walk a PromptList
through a meta template, ``completion`` and ``chat_messages`` turn the walk into a string or messages.
"""

from promptkit.meta_templates.chat_model import ChatModel
from promptkit.meta_templates.chat_template_model import ChatTemplateModel
from promptkit.meta_templates.completion_model import CompletionModel
from promptkit.meta_templates.model import ModelBase, TokenCounter, count_tokens
from promptkit.meta_templates.protocol import FinalInput, Model
from promptkit.meta_templates.spec import MetaRole, MetaTemplate

__all__ = ["ChatModel", "ChatTemplateModel", "CompletionModel", "FinalInput", "MetaRole", "MetaTemplate", "Model", "ModelBase", "TokenCounter", "count_tokens"]
