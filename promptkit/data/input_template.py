"""``reader_cfg.input_template``: the text of a row that retrievers index and compare.

OpenCompass renders ``input_template`` (a ``PromptTemplate`` config) with the
whole row, unmasked and without shots.  Only its text matters here, so the
data stage compiles it with the placeholder compiler the templates use
(``promptkit.text.placeholders``) instead of importing the templates stage:

* a string — its text, ``sep_token`` removed, ``ice_token`` removed;
* a chat dict (``begin``/``round``/``end``) — the prompts of its role items,
  one per line (loose strings between items are markers, not text);
* a label dict — the first label's string or chat dict, as generation does.

This is the text ``PromptTemplate(...).render(row)`` gives for each shape
(``tests/data/test_input_template.py`` checks it shape by shape).

>>> InputTemplate("topic: {topic}</E>", ice_token="</E>").text({"topic": "sailing", "q": "boats?"})
'topic: sailing'
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from promptkit.errors import ConfigError, TemplateError
from promptkit.promptlist import check_role_item
from promptkit.text.placeholders import CompiledText, compile_text

__all__ = ["InputTemplate"]

_CHAT_KEYS = ("begin", "round", "end")
_KEYS = ("type", "template", "ice_token", "sep_token")
_WHERE = "reader_cfg.input_template"


class InputTemplate:
    """A ``PromptTemplate`` config compiled to :meth:`text`; implements :class:`~promptkit.data.protocol.RowText`."""

    def __init__(self, template: str | Mapping[Hashable, Any], ice_token: str | None = None, sep_token: str | None = None) -> None:
        for name, value in (("ice_token", ice_token), ("sep_token", sep_token)):
            if value is not None and not isinstance(value, str):
                raise ConfigError(f"input_template {name} must be a str or None (got {value!r} that is a {type(value).__name__})", key=_WHERE)
        self.template = template
        self.ice_token = ice_token or None
        self.sep_token = sep_token or None
        if isinstance(template, Mapping) and template and not all(key in _CHAT_KEYS for key in template):
            template = next(iter(template.values()))  # a label dict: the first label's template
        if isinstance(template, str):
            if self.ice_token and self.ice_token not in template:
                raise ConfigError(f"input_template: ice_token {self.ice_token!r} does not occur in {template!r}", key=_WHERE)
            self._texts: tuple[_Text | None, ...] = (self._compile(template),)
        elif isinstance(template, Mapping) and isinstance(template.get("round"), (list, tuple)) and template["round"]:
            self._texts = tuple(self._compile(item.get("prompt")) for item in self._role_items(template))
        else:
            raise ConfigError(
                f"input_template's template must be a string, a chat dict with a non-empty 'round' list, or a label dict (got {template!r})",
                key=_WHERE,
            )

    @classmethod
    def from_config(cls, cfg: Any) -> InputTemplate:
        """``dict(type='PromptTemplate', template=..., ice_token=..., sep_token=...)`` (``type`` may be omitted or a class)."""
        kind = cfg.get("type", "PromptTemplate") if isinstance(cfg, Mapping) else None
        name = kind.__name__ if isinstance(kind, type) else str(kind).rsplit(".", 1)[-1]
        if not isinstance(cfg, Mapping) or name != "PromptTemplate":
            raise ConfigError(f"input_template must be dict(type=PromptTemplate, template=...), the text retrievers compare (got {cfg!r})", key=_WHERE)
        unknown = [key for key in cfg if key not in _KEYS]
        if unknown or "template" not in cfg:
            problem = f"has the unknown key {unknown[0]!r}" if unknown else "needs a 'template'"
            raise ConfigError(f"input_template {problem}; it takes {list(_KEYS)}", key=_WHERE)
        return cls(cfg["template"], cfg.get("ice_token"), cfg.get("sep_token"))

    def _compile(self, text: str | None) -> _Text | None:
        if text is None:
            return None
        if self.sep_token:
            text = text.replace(self.sep_token, "")
        if self.ice_token:
            # The prompt template compiles the text between ice tokens piece by piece: a placeholder never spans one.
            return _Pieces(tuple(compile_text(piece) for piece in text.split(self.ice_token)))
        return compile_text(text)

    @staticmethod
    def _role_items(template: Mapping[Hashable, Any]) -> list[Mapping[str, Any]]:
        items = []
        for section in _CHAT_KEYS:
            raw = template.get(section, ())
            for i, item in enumerate(raw if isinstance(raw, (list, tuple)) else [raw]):
                if isinstance(item, Mapping):
                    try:
                        check_role_item(item, f"input_template {section}[{i}]")
                    except TemplateError as error:
                        raise ConfigError(str(error), key=_WHERE) from None
                    items.append(item)
                elif not isinstance(item, str):
                    raise ConfigError(f"input_template {section}[{i}] must be a str or a role dict (got {type(item).__name__})", key=_WHERE)
        return items

    def text(self, row: Mapping[str, Any]) -> str:
        """The row's text: the string rendered, or a chat template's role prompts one per line."""
        return "\n".join("" if text is None else text.render(row) for text in self._texts)

    def __repr__(self) -> str:
        return f"InputTemplate(template={self.template!r}, ice_token={self.ice_token!r}, sep_token={self.sep_token!r})"


class _Pieces:
    """Text cut at the ice token, each piece compiled; renders the pieces joined (no shots go into input text)."""

    __slots__ = ("pieces",)

    def __init__(self, pieces: tuple[CompiledText, ...]) -> None:
        self.pieces = pieces

    def render(self, row: Mapping[str, Any]) -> str:
        return "".join(piece.render(row) for piece in self.pieces)


_Text = CompiledText | _Pieces
