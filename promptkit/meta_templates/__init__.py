"""Stage 3: a prompt (``str`` or PromptList) becomes a model's final input: a completion string or chat messages."""

from promptkit.meta_templates.models import ChatModel, CompletionModel, Model
from promptkit.meta_templates.spec import MetaRole, MetaTemplate

__all__ = ["ChatModel", "CompletionModel", "MetaRole", "MetaTemplate", "Model"]
