"""How the prompt controls reshape what templates render: the shot layout and the system prompt.

``shots`` (see :mod:`promptkit.controls`) is one of:

* ``'as_configured'`` (default): as the templates say.
* ``'as_turns'``: a plain **string** prompt template (and its string ice_template) renders as turns, as lm-eval's
  ``--fewshot_as_multiturn`` does.  Each shot is a ``HUMAN``/``BOT`` pair: the ice_template is split at its first
  ``{answer}`` placeholder (the reader's output column); the text before it, right-stripped of whitespace, is the
  ``HUMAN`` turn, the text from it on, stripped, the ``BOT`` turn.  The prompt template is split at its ice token:
  the text before the token, as written, starts the first ``HUMAN`` turn (a shot's, or the query's); the text after
  it is split like a shot (without the placeholder it is all ``HUMAN`` and ``BOT`` is empty).  The shots go in a
  ``begin`` section and the query in the ``round``; ``ice_separator`` and ``ice_eos_token`` are not used.
  A chat template is turns already and renders as configured.
* ``'in_user_turn'``: the shots of a **chat** template are flattened into the query's user turn: each shot's turns
  (their prompts) joined with ``'\\n'``, the shots joined with ``'\\n\\n'``, then ``'\\n\\n'`` and the text of the
  first turn after the shots (of the shots' first role, ``HUMAN``).  A string template has its shots in one
  text already and renders as configured.

``system_prompt`` puts a ``SYSTEM`` turn first: the prompt of the first ``SYSTEM`` item of the ``begin`` section
is replaced, or a ``dict(role='SYSTEM', fallback_role='HUMAN', prompt=...)`` item is inserted at the start of
``begin`` (a section is made when there is none).  A plain-string prompt has no turns: it is refused (use a chat
template, or ``shots='as_turns'``).

>>> from promptkit.templates.prompt_template import PromptTemplate
>>> layout = ShotLayout("as_turns", PromptTemplate('Add.\\n</E>Q: {q}\\nA: {a}', ice_token='</E>'),
...                     PromptTemplate('Q: {q}\\nA: {a}\\n'), 'a')
>>> shot = layout.ice_template.render_shot({'q': '1+1', 'a': '2'})
>>> [item.dump() for item in layout.template.render({'q': '2+2', 'a': ''}, shot) if not isinstance(item, Marker)]
[{'role': 'HUMAN', 'prompt': 'Add.\\nQ: 1+1\\nA:'}, {'role': 'BOT', 'prompt': '2'}, {'role': 'HUMAN', 'prompt': 'Q: 2+2\\nA:'}, {'role': 'BOT', 'prompt': ''}]
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import replace
from typing import Any

from promptkit.controls import SHOT_LAYOUTS
from promptkit.errors import ConfigError, TemplateError
from promptkit.promptlist import Item, Marker, PromptList, RoleItem
from promptkit.templates.prompt_template import PromptTemplate
from promptkit.templates.protocol import Prompt, Template
from promptkit.text.placeholders import compile_text

__all__ = ["ShotLayout", "with_system_prompt"]

_ICE = "</E>"


class ShotLayout:
    """The templates a dataset renders with under a shot layout, and what to do to each rendered prompt."""

    def __init__(self, layout: str, template: Template, ice_template: Template | None, output_column: str | None) -> None:
        if layout not in SHOT_LAYOUTS:
            raise ConfigError(f"shots must be one of {', '.join(map(repr, SHOT_LAYOUTS))} (got {layout!r})", key="shots")
        self.layout = layout
        self.template = template
        self.ice_template = ice_template
        #: Whether each rendered prompt goes through :meth:`finish` (chat shots flattened).
        self.flattens = layout == "in_user_turn" and template.kind == "chat"
        if layout == "as_turns" and template.kind == "string":
            self.template, self.ice_template = _as_turns(template, ice_template, output_column)

    def finish(self, prompt: Prompt) -> Prompt:
        """The prompt with its chat shots flattened into the user turn (``in_user_turn``); others unchanged."""
        if not self.flattens or not isinstance(prompt, PromptList):
            return prompt
        return _flatten_shots(prompt)


def _as_turns(template: Template, ice_template: Template | None, output_column: str | None) -> tuple[Template, Template | None]:
    """The string templates as chat ones (see the module docstring)."""
    source = _string_source(template, "prompt_template")
    answer = f"{{{output_column}}}" if output_column else None
    ice_token = template.ice_token
    if ice_token and ice_token in source:
        before, after = source.split(ice_token, 1)
    else:
        before, after = "", source
    human, bot = _split(after, answer)
    chat_shots = None
    if ice_template is not None:
        shot_source = _string_source(ice_template, "ice_template")
        if answer is None or answer not in shot_source:
            raise TemplateError(
                f"shots='as_turns' splits each shot at its answer, but the ice_template {shot_source!r} has no "
                f"{answer or '{answer}'} placeholder (reader_cfg.output_column); put the answer in the ice_template, or use "
                "shots='as_configured'",
                key="infer_cfg.ice_template",
            )
        shot_human, shot_bot = _split(shot_source, answer)
        chat_shots = PromptTemplate(dict(round=[dict(role="HUMAN", prompt=shot_human), dict(role="BOT", prompt=shot_bot)]))
    round_ = [dict(role="HUMAN", prompt=human), dict(role="BOT", prompt=bot)]
    chat = PromptTemplate(dict(begin=[_ICE], round=round_), ice_token=_ICE, sep_token=template.sep_token)
    return _Preamble(chat, before), chat_shots


def _string_source(template: Template, key: str) -> str:
    if type(template) is not PromptTemplate or not isinstance(template.template, str):
        raise TemplateError(
            f"shots='as_turns' renders a plain string PromptTemplate as turns; the {key} is a {template.kind} "
            f"{type(template).__name__}; use shots='as_configured'",
            key=f"infer_cfg.{key}",
        )
    return template.template


def _split(source: str, answer: str | None) -> tuple[str, str]:
    """``source`` cut at the answer placeholder: the text before it right-stripped, the rest stripped."""
    if answer is None or answer not in source:
        return source.strip(), ""
    at = source.index(answer)
    return source[:at].rstrip(), source[at:].strip()


class _Preamble:
    """A chat template whose first ``HUMAN`` turn starts with a fixed text (a string template's text before its shots)."""

    is_multimodal = False
    labels = None

    def __init__(self, chat: PromptTemplate, preamble: str) -> None:
        self.chat = chat
        #: The template's source, as provenance hashes it: the chat template's and the text before the shots.
        self.template = {"chat": chat.template, "preamble": preamble}
        self.kind = chat.kind
        self.ice_token = chat.ice_token
        self.has_ice_slot = chat.has_ice_slot
        self.sep_token = chat.sep_token
        self.preamble = compile_text(preamble)

    def render_shot(self, row: Mapping[str, Any], label: Hashable | None = None) -> Prompt:
        return self.chat.render_shot(row, label)

    def render(
        self, row: Mapping[str, Any], ice: Prompt = "", *, label: Hashable | None = None, masked: str | None = None, mask_value: str = ""
    ) -> Prompt:
        prompt = self.chat.render(row, ice, label=label, masked=masked, mask_value=mask_value)
        assert isinstance(prompt, PromptList)
        values = dict(row, **{masked: mask_value}) if masked is not None else row
        text = self.preamble.render(values)
        if not text:
            return prompt
        items = list(prompt.items)
        for index, item in enumerate(items):
            if type(item) is RoleItem and item.role == "HUMAN":
                items[index] = replace(item, prompt=text + (item.prompt or ""))
                break
        return PromptList._of(tuple(items))


def _flatten_shots(prompt: PromptList) -> PromptList:
    """Every ``ice`` section removed, its text put at the start of the first turn after it (of the shots' first role)."""
    items: list[Item] = []
    shots: list[str] = []
    turns: list[str] = []
    role: str | None = None
    depth = 0
    for item in prompt.items:
        if type(item) is Marker and item.section == "ice":
            depth += 1 if item.pos == "begin" else -1
            if item.pos == "end" and depth == 0:
                shots.append("\n".join(turns))
                turns = []
            continue
        if depth:
            if type(item) is RoleItem:
                if item.parts is not None:
                    raise TemplateError("shots='in_user_turn' flattens text shots; a shot has media parts, so use shots='as_configured'")
                role = role or item.role
                turns.append(item.prompt or "")
            elif type(item) is str and item:
                turns.append(item)
            continue
        if shots and type(item) is RoleItem and item.role == role and item.parts is None:
            block = "\n\n".join(shots)
            item = replace(item, prompt=block + "\n\n" + (item.prompt or "") if item.prompt else block)
            shots = []
        items.append(item)
    if shots:
        raise TemplateError(f"shots='in_user_turn' found no {role} turn after the shots to put them in; use shots='as_configured'")
    return PromptList._of(tuple(items))


def with_system_prompt(prompt: Prompt, text: str) -> PromptList:
    """``prompt`` with ``text`` as its system turn (see the module docstring)."""
    if isinstance(prompt, str):
        raise TemplateError(
            "system_prompt is set but the prompt template is a plain string, which has no turns to hold a system prompt; "
            "use a chat template (begin/round), or shots='as_turns'",
            key="system_prompt",
        )
    items = list(prompt.items)
    depth = 0
    for index, item in enumerate(items):
        if type(item) is Marker:
            if item.section == "begin":
                depth += 1 if item.pos == "begin" else -1
            continue
        if depth and type(item) is RoleItem and item.role == "SYSTEM":
            items[index] = replace(item, prompt=text, parts=None)
            return PromptList._of(tuple(items))
    system = RoleItem("SYSTEM", text, "HUMAN")
    if items and items[0] == Marker("begin", "begin"):
        return PromptList._of((items[0], system, *items[1:]))
    return PromptList._of((Marker("begin", "begin"), system, Marker("begin", "end"), *items))
