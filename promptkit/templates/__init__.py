"""Stage 2: a row (plus its rendered shots) becomes a prompt: ``str`` or :class:`~promptkit.PromptList`."""

from promptkit.templates.jinja_template import JinjaPromptTemplate
from promptkit.templates.mm_template import MMPromptTemplate
from promptkit.templates.multiturn_template import MultiTurnPromptTemplate
from promptkit.templates.prompt_template import PromptTemplate
from promptkit.templates.raw_template import RawPromptTemplate

__all__ = ["JinjaPromptTemplate", "MMPromptTemplate", "MultiTurnPromptTemplate", "PromptTemplate", "RawPromptTemplate"]
