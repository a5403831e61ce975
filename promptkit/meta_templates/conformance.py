"""Does a hand-written meta template produce what the model's own chat template produces?

:func:`compare` renders the same prompts through a completion model's meta
template and through the chat template in the model folder its ``path`` names,
and reports each prompt's first divergence: the character offset, the text
both share before it, and how each continues.  This catches a missing BOS, a
different whitespace after a header, a system prompt placed elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from promptkit.errors import ConfigError, PromptkitError
from promptkit.meta_templates import ChatTemplateModel, CompletionModel
from promptkit.promptlist import PromptList

__all__ = ["FAITHFUL_META_TEMPLATE", "Comparison", "chat_template_twin", "compare", "first_divergence"]

#: Messages exactly as the prompt's roles say (HUMAN → user, BOT → assistant, SYSTEM → system; a chat model adds
#: TOOL → tool), so the chat template, not a conversion, decides where a system prompt goes.
FAITHFUL_META_TEMPLATE = dict(
    round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)],
    reserved_roles=[dict(role="SYSTEM", api_role="SYSTEM")],
)


@dataclass(frozen=True)
class Comparison:
    """One prompt through both: ``offset`` is None when they agree; ``chat`` is the template's error when it raised."""

    label: str
    meta: str
    chat: str
    offset: int | None
    chat_error: str | None = None

    def context(self, width: int = 40) -> tuple[str, str, str]:
        """(shared text before the divergence, how the meta template continues, how the chat template continues)."""
        at = self.offset or 0
        return self.meta[max(0, at - width) : at], self.meta[at : at + width], self.chat[at : at + width]


def first_divergence(a: str, b: str) -> int | None:
    """The first offset where ``a`` and ``b`` differ (the shorter one's length if one is a prefix), or None if equal."""
    if a == b:
        return None
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return min(len(a), len(b))


def chat_template_twin(model: CompletionModel) -> ChatTemplateModel:
    """The chat template of the folder ``model``'s ``path`` (or ``tokenizer_path``) names (a local folder, or a hub id in
    the Hugging Face cache: :class:`~promptkit.chat_templates.folders.ModelFolders`), fed the prompt's roles as they are."""
    folder = model.runtime.get("tokenizer_path") or model.runtime.get("path")
    if not isinstance(folder, str):
        raise ConfigError(
            f"model {model.abbr!r} has no path= naming a local model folder, so there is no chat template to check its meta template against",
            model=model.abbr,
            key="path",
        )
    revision = model.runtime.get("revision")
    return ChatTemplateModel(
        abbr=model.abbr, path=folder, meta_template=FAITHFUL_META_TEMPLATE, revision=revision, model_folders=model.model_folders
    )


def compare(model: CompletionModel, chat: ChatTemplateModel, prompts: Iterable[tuple[str, str | PromptList, str]]) -> list[Comparison]:
    """Each ``(label, prompt, mode)`` through ``model``'s meta template and through ``chat``."""
    results = []
    for label, prompt, mode in prompts:
        meta_text = model.render(prompt, mode)
        try:
            chat_text = chat.render(prompt, mode)
        except PromptkitError as error:
            results.append(Comparison(label, meta_text, "", 0, chat_error=error.message))
            continue
        results.append(Comparison(label, meta_text, chat_text, first_divergence(meta_text, chat_text)))
    return results
