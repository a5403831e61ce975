"""The lint's checks: a dataset config's templates read statically, then a sample of its rows rendered.

Each check is one function that yields :class:`~promptkit.linting.finding.Finding`
values through :class:`Lint` (which knows the dataset, the model, the sampled
rows and where each piece of the config is written).  docs/lint.md lists the
checks and what each one reports.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from promptkit.errors import PromptkitError, closest
from promptkit.frontends.opencompass.loader import DatasetSpec
from promptkit.linting.finding import Finding
from promptkit.linting.locate import ConfigSource, Location
from promptkit.meta_templates import ChatModel, ChatTemplateModel, CompletionModel, Model
from promptkit.promptlist import PromptList, RoleItem
from promptkit.render.renderer import Renderer
from promptkit.templates import JinjaPromptTemplate, MMPromptTemplate, PromptTemplate
from promptkit.templates.mm_template import CONTENT_COLUMN, PAYLOAD_PLACEHOLDER
from promptkit.templates.protocol import Template
from promptkit.text.placeholders import compile_text

if TYPE_CHECKING:
    import jinja2

__all__ = ["CHECKS", "Lint"]

#: Every check, in the order it runs: name → what it looks for (docs/lint.md has the details).
CHECKS = {
    "unknown-placeholder": "a {placeholder} that names no column of the rows (it renders literally, as written)",
    "unused-column": "an input column that no template uses",
    "unknown-label": "a row's label that is not a label the template scores",
    "answer-junction": "a double space, or no space, where the answer meets the text before it",
    "answer-in-user-turn": "a chat ice_template whose answer column sits in a HUMAN turn, so the shots' answers are user text",
    "ice-token": "shots with no ice_token to go to, or an ice_token written more than once",
    "missing-role": "a template role the model's meta template lacks (which fallback fires), or a system message the chat template refuses or drops",
    "media-placeholder": "a completion prompt whose media placeholders do not match its media parts in number",
    "special-token": "row text holding one of the model's control tokens",
    "render-error": "a sampled row that does not render",
}

#: Rows the row-based checks render, by default.
DEFAULT_ROWS = 20
#: Rows one row-based check names at most per dataset (the rest are counted in the last one's message).
_ROWS_NAMED = 3
_TEMPLATE_KEYS = ("prompt_template", "ice_template")


@dataclass(frozen=True)
class _Text:
    """One text of a template as the config writes it: which template, its role item's role (``None``: a bare
    string), the fallback role, the label (label-keyed templates) and the placeholder names it fills."""

    template: str
    text: str
    role: str | None
    fallback_role: str | None
    label: Hashable | None
    names: tuple[str, ...]


def _names(text: str, jinja: jinja2.Environment | None) -> tuple[str, ...]:
    """The placeholder names of a text, or its undeclared variables when ``jinja`` (the template's filters) is given."""
    if jinja is None:
        return compile_text(text).names
    import jinja2.meta

    try:
        return tuple(sorted(jinja2.meta.find_undeclared_variables(jinja.parse(text))))
    except jinja2.TemplateError:
        return ()  # the template compiled with these filters, so this cannot happen; no names to report if it did


def _strings(value: Any) -> Iterator[str]:
    """The strings inside a ``prompt_mm`` part template (nested dicts and lists)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def template_texts(key: str, template: Template | None) -> list[_Text]:
    """The texts of a ``PromptTemplate`` (and its subclasses) as written; other template kinds have none to read."""
    if not isinstance(template, PromptTemplate):
        return []
    jinja: jinja2.Environment | None = None
    if isinstance(template, JinjaPromptTemplate):
        import jinja2  # only a Jinja template's texts are read with it: `import promptkit` reads no Jinja

        jinja = jinja2.Environment()
        jinja.filters.update(template.filters or {})
    out: list[_Text] = []

    def add(text: str, role: str | None, fallback: str | None, label: Hashable | None) -> None:
        out.append(_Text(key, text, role, fallback, label, _names(text, jinja)))

    def body(value: Any, label: Hashable | None) -> None:
        if isinstance(value, str):
            add(value, None, None, label)
            return
        for section in ("begin", "round", "end"):
            items = value.get(section)
            if items is None:
                continue
            for item in items if isinstance(items, (list, tuple)) else [items]:
                if isinstance(item, str):
                    add(item, None, None, label)
                elif isinstance(item, Mapping):
                    role, fallback = item.get("role"), item.get("fallback_role")
                    if isinstance(item.get("prompt"), str):
                        add(item["prompt"], role, fallback, label)
                    for text in _strings(item.get("prompt_mm")):
                        add(text, role, fallback, label)
                    if item.get("prompt") is None and item.get("prompt_mm") is None:
                        add("", role, fallback, label)

    raw = template.template
    if template.labels is not None and isinstance(raw, Mapping):
        for label, value in raw.items():
            body(value, label)
    else:
        body(raw, None)
    return out


def _glued(left: str, right: str) -> str | None:
    """What is wrong where ``left`` (the text before the answer) meets ``right`` (the answer): a double space,
    no space, or nothing (``None``)."""
    if not left or not right:
        return None
    if left.endswith(("  ", " \t", "\t ")) or (left[-1] in " \t" and right[0] in " \t"):
        return "double space"
    if (left[-1] == ":" and not right[0].isspace()) or (left[-1].isalnum() and right[0].isalnum()):
        return "no space"
    return None


def _item_text(item: object) -> str:
    """A PromptList item's text: the string, or a role item's prompt."""
    if isinstance(item, RoleItem):
        return item.prompt or ""
    return item if isinstance(item, str) else ""


def _junction(renders: Sequence[str | PromptList]) -> tuple[str, list[str]] | None:
    """Where the renders of one row for each label part: (the shared text before it, each label's rest); ``None``
    when they part at a turn boundary (the meta template decides what stands there) or do not part at all."""
    first = renders[0]
    if isinstance(first, str):
        texts = [r for r in renders if isinstance(r, str)]
    else:
        lists = [r.items for r in renders if isinstance(r, PromptList)]
        at = next((i for i in range(min(map(len, lists))) if len({repr(items[i]) for items in lists}) > 1), None)
        if at is None or not all(isinstance(items[at], (str, RoleItem)) for items in lists):
            return None
        texts = [_item_text(items[at]) for items in lists]
    if len(texts) != len(renders):
        return None
    shared = os.path.commonprefix(texts)
    while shared and shared[-1].isalnum():  # the labels may share a first letter or word: part before it
        shared = shared[:-1]
    if not shared:
        return None
    return shared, [text[len(shared) :] for text in texts]


class Lint:
    """One dataset × model: the sampled rows, where the config writes things, and the findings as they are made."""

    def __init__(self, dataset: DatasetSpec, model: Model | None, rows: int = DEFAULT_ROWS) -> None:
        self.dataset = dataset
        self.model = model
        self.rows = rows
        multimodal = any(t is not None and t.is_multimodal for t in (dataset.prompt_template, dataset.ice_template))
        # Without a model, rows render as `promptkit render` renders them, multimodal ones for a chat model (a
        # completion model needs mm_placeholders); 'every' dialogues render their first turn, as in preview.
        stand_in = ChatModel(abbr=None) if model is None and multimodal else model
        self.renderer = Renderer(dataset, stand_in, replies={})
        self.source = ConfigSource(dataset.config_path).for_dataset(dataset.abbr)
        self.findings: list[Finding] = []
        self.texts = template_texts("ice_template", dataset.ice_template) + template_texts("prompt_template", dataset.prompt_template)
        self._named: dict[str, int] = {}
        self._media_seen: set[tuple[str, int, int]] = set()  # each mismatch once: it is the template's, not the row's

    # -- recording findings --------------------------------------------------------
    def add(self, check: str, severity: str, message: str, fix: str, at: Location | None, row: int | None = None) -> None:
        """Record a finding; row-based checks name at most a few rows each."""
        if row is not None:
            named = self._named.get(check, 0)
            self._named[check] = named + 1
            if named >= _ROWS_NAMED:
                return
        if at is None:
            at = self.source.key(*_TEMPLATE_KEYS, "infer_cfg")
        config = at.file if at is not None else (str(self.dataset.config_path) if self.dataset.config_path else None)
        self.findings.append(
            Finding(check, severity, message, fix, self.dataset.abbr, config, at.line if at is not None else None, self._model_abbr, row)
        )

    @property
    def _model_abbr(self) -> str | None:
        return self.model.abbr if self.model is not None else None

    def at_text(self, text: _Text, *snippets: str) -> Location | None:
        """Where a template text is written: the first snippet found, else the text's first line, else its template's key."""
        first_line = text.text.split("\n", 1)[0]
        return self.source.text(*snippets, first_line) or self.source.key(text.template)

    # -- the rows --------------------------------------------------------------------
    @cached_property
    def test_rows(self) -> Sequence[Mapping[str, Any]]:
        return self.renderer.test_rows[: self.rows]

    @cached_property
    def pool_rows(self) -> Sequence[Mapping[str, Any]]:
        return self.renderer.pool[: self.rows]

    @cached_property
    def columns(self) -> set[str]:
        """Every column a template may fill: the reader's columns and the sampled rows' keys."""
        reader = self.dataset.reader
        known = set(reader.input_columns) | ({reader.output_column} if reader.output_column else set())
        for row in (*self.test_rows, *self.pool_rows):
            known.update(str(key) for key in row)
        if isinstance(self.renderer.template, MMPromptTemplate) and CONTENT_COLUMN in known:
            known.update(PAYLOAD_PLACEHOLDER.values())  # tagged content fills these
        return known

    @property
    def output(self) -> str | None:
        return self.dataset.reader.output_column

    def run(self) -> list[Finding]:
        """Every check, in :data:`CHECKS` order."""
        for check in (
            self.unknown_placeholder,
            self.unused_column,
            self.unknown_label,
            self.answer_junction,
            self.answer_in_user_turn,
            self.ice_token,
            self.missing_role,
        ):
            check()
        errors = any(finding.severity == "error" for finding in self.findings)
        self.rendered_rows(report_errors=not errors)
        return self.findings

    # -- static checks ---------------------------------------------------------------
    def unknown_placeholder(self) -> None:
        seen: set[str] = set()
        for text in self.texts:
            for name in text.names:
                if name in seen or not name.isidentifier() or name in self.columns:
                    continue
                seen.add(name)
                close = closest(name, sorted(self.columns))
                jinja = isinstance(self._template(text.template), JinjaPromptTemplate)
                effect = "rendering raises (the variable is undefined)" if jinja else f"it renders literally, as '{{{name}}}'"
                self.add(
                    "unknown-placeholder",
                    "error" if jinja else "warning",
                    f"{{{name}}} in {text.template} names no column of the rows (columns: {', '.join(sorted(self.columns))}): {effect}",
                    f"write {{{close}}}" if close else "add the column to the data, or write the text without braces",
                    self.at_text(text, f"{{{name}}}"),
                )

    def _template(self, key: str) -> Template | None:
        return self.dataset.prompt_template if key == "prompt_template" else self.dataset.ice_template

    def unused_column(self) -> None:
        templates = [self.dataset.prompt_template, self.dataset.ice_template]
        if not all(t is None or isinstance(t, PromptTemplate) for t in templates):
            return  # a messages or raw template reads its columns in its own way
        if not any(self.renderer.template is t for t in templates):
            return  # the inferencer renders with a template of its own (BFCL's), which reads the columns it needs
        used = {name for text in self.texts for name in text.names}
        if any(isinstance(t, MMPromptTemplate) for t in templates):
            used.add(CONTENT_COLUMN)
        for column in self.dataset.reader.input_columns:
            if column in used or column == self.output:
                continue
            self.add(
                "unused-column",
                "warning",
                f"input column {column!r} is used by no template (reader_cfg.input_columns lists it)",
                f"use {{{column}}} in a template, or remove it from reader_cfg.input_columns (it also feeds the retrievers that "
                "compare rows: keep it if that is why it is there)",
                self.source.key("input_columns"),
            )

    def unknown_label(self) -> None:
        template = self.renderer.template
        if not self.renderer.inferencer.scores_labels or self.output is None or not isinstance(template, PromptTemplate):
            return
        labels = self.renderer.labels
        seen: set[Any] = set()
        for index, row in enumerate(self.test_rows):
            gold = row.get(self.output)
            if not isinstance(gold, Hashable) or gold in labels or gold in seen:
                continue
            seen.add(gold)
            twin = next((label for label in labels if str(label) == str(gold)), None)
            hint = (
                f" (the template's label is {twin!r}, a {type(twin).__name__}; the row's is a {type(gold).__name__})"
                if twin is not None
                else ""
            )
            self.add(
                "unknown-label",
                "warning",
                f"the row's label {gold!r} ({self.output}) is not among the labels scored ({', '.join(map(repr, labels))}): it is never "
                f"scored{hint}",
                "make the template's keys the data's labels, with the same values and types, or give PPLInferencer(labels=[...])",
                self.source.key("prompt_template", "template"),
                row=index,
            )

    def answer_junction(self) -> None:
        output = self.output
        if output is not None:
            placeholder = f"{{{output}}}"
            ppl = self.renderer.mode == "ppl" and self.renderer.inferencer.scores_labels
            for text in self.texts:
                if placeholder not in text.text:
                    continue
                left = text.text[: text.text.index(placeholder)]
                if not left or left.endswith("}"):
                    continue  # another placeholder right before it: the data decides, the next check sees it rendered
                answers: list[tuple[int | None, str]]
                if text.template == "ice_template":
                    answers = [(i, str(row.get(output, ""))) for i, row in enumerate(self.pool_rows)]
                elif ppl and self.renderer.template.labels is None:  # type: ignore[attr-defined]
                    answers = [(None, str(label)) for label in self.renderer.labels]
                else:
                    continue
                self._junction_finding(left, answers, text, placeholder)
        self._label_junction()

    def _junction_finding(self, left: str, answers: list[tuple[int | None, str]], text: _Text, placeholder: str) -> None:
        for row, answer in answers:
            problem = _glued(left, answer)
            if problem is None:
                continue
            shown = placeholder if text.template == "ice_template" else "the label"
            self.add(
                "answer-junction",
                "warning",
                f"{problem} where {text.template}'s text {left[-16:]!r} meets {shown} (here {answer[:16]!r}): the answer is scored or "
                "shown as " + repr(left[-8:] + answer[:8]),
                _junction_fix(problem, placeholder),
                self.at_text(text, left[-12:] + placeholder, placeholder),
                row=row if text.template == "ice_template" else None,
            )
            return

    def _label_junction(self) -> None:
        template = self.renderer.template
        if not isinstance(template, PromptTemplate) or template.labels is None or not self.renderer.inferencer.scores_labels:
            return
        labels = self.renderer.labels
        if len(labels) < 2:
            return
        for index, row in enumerate(self.test_rows[:3]):
            try:
                renders = [template.render(row, "", label=label, masked=self.output, mask_value=str(label)) for label in labels]
            except PromptkitError:
                return  # the rendered rows' check reports it
            parted = _junction(renders)
            if parted is None:
                continue
            shared, rests = parted
            for label, rest in zip(labels, rests, strict=True):
                problem = _glued(shared, rest)
                if problem is None:
                    continue
                self.add(
                    "answer-junction",
                    "warning",
                    f"{problem} where the label templates part: the shared text {shared[-16:]!r} meets {rest[:16]!r} (label {label!r})",
                    _junction_fix(problem, "each label's text"),
                    self.source.text(shared.rsplit("\n", 1)[-1][-12:]) or self.source.key("prompt_template"),
                    row=index,
                )
                return

    def answer_in_user_turn(self) -> None:
        if self.output is None:
            return
        for text in self.texts:
            if text.template != "ice_template" or text.role is None or text.role == "BOT" or self.output not in text.names:
                continue
            self.add(
                "answer-in-user-turn",
                "warning",
                f"the ice_template puts {{{self.output}}} in a {text.role} turn, so each shot's answer is {text.role} text and the "
                "model never sees an answer of its own turn",
                f"move {{{self.output}}} into a BOT item: round=[dict(role='HUMAN', prompt=...), dict(role='BOT', prompt='{{{self.output}}}')]",
                self.at_text(text, f"{{{self.output}}}"),
            )
            return

    def ice_token(self) -> None:
        template = self.renderer.template
        token = template.ice_token
        shots = self.dataset.retriever.ice_num if self.renderer.inferencer.uses_shots else 0
        if shots and not template.has_ice_slot:
            where = f"ice_token {token!r} occurs in no text of the template" if token else "the template has no ice_token"
            self.add(
                "ice-token",
                "error",
                f"the retriever picks {shots} shot(s) but {where}: there is no place for the shots and rendering fails",
                "put the ice token where the shots go, e.g. begin='</E>' with ice_token='</E>', or use ZeroRetriever",
                self.source.key("ice_token", "prompt_template"),
            )
        if not token:
            return
        counts: dict[Hashable | None, int] = {}
        for text in self.texts:
            if text.template == "prompt_template":
                counts[text.label] = counts.get(text.label, 0) + text.text.count(token)
        repeated = {label: count for label, count in counts.items() if count > 1}
        if repeated:
            label, count = next(iter(repeated.items()))
            which = f"label {label!r}'s template" if label is not None else "the prompt_template"
            self.add(
                "ice-token",
                "warning",
                f"ice_token {token!r} occurs {count} times in {which}: the shots are spliced in at each",
                f"keep one {token!r}, where the shots go",
                self.source.text(token) or self.source.key("ice_token"),
            )

    def missing_role(self) -> None:
        model = self.model
        meta = getattr(model, "meta_template", None)
        if model is None or meta is None:
            return
        roles = {role.role: role for role in (*meta.round_roles, *meta.reserved)}
        seen: set[str] = set()
        for text in self.texts:
            role = text.role
            if role is None or role in seen:
                continue
            seen.add(role)
            at = self.source.string(role)
            if role in roles:
                if (roles[role].api_role or role) == "SYSTEM":  # sent as a system message
                    self._system_message(model, at)
                continue
            fallback = text.fallback_role
            if fallback is not None and fallback in roles:
                self.add(
                    "missing-role",
                    "note",
                    f"role {role!r} is not in the model's meta template (roles: {', '.join(roles)}): its fallback_role {fallback!r} fires, "
                    f"so its text is rendered as a {fallback} turn",
                    f"nothing, if a {fallback} turn is what is meant; else add {role!r} to the model's meta template (reserved_roles)",
                    at,
                )
            else:
                missing = "the item has no fallback_role" if fallback is None else f"neither is its fallback_role {fallback!r}"
                self.add(
                    "missing-role",
                    "error",
                    f"role {role!r} is not in the model's meta template (roles: {', '.join(roles)}) and {missing}: rendering fails",
                    f"give the item fallback_role='HUMAN' (or another role of the model), or add {role!r} to the meta template",
                    at,
                )

    def _system_message(self, model: Model, at: Location | None) -> None:
        """A chat template that refuses or drops the system messages a prompt sends it (``system_role='error'``)."""
        if not isinstance(model, ChatTemplateModel) or model.system_role != "error":
            return
        probe = model.probe_system_role()
        if probe.probe == "raises":
            severity, effect = "error", "raises on it: rendering fails"
        elif probe.probe == "drops":
            severity, effect = "warning", "drops it: the system text never reaches the model"
        else:
            return
        self.add(
            "missing-role",
            severity,
            f"the template's SYSTEM turn reaches the model's chat template as a system message, and the chat template {effect}",
            f"set system_role='auto' in the model config (it applies {probe.applied!r} here)",
            at,
        )

    # -- rendered rows -------------------------------------------------------------------
    def rendered_rows(self, report_errors: bool) -> None:
        """Render the sampled rows: render errors, control tokens in rows, media placeholders."""
        model = self.model
        guard = model.token_guard if model is not None else None
        failed: dict[str, list[int]] = {}  # each render error once, with the rows it stopped
        for index, row in enumerate(self.test_rows):
            hits = guard.guard_row(row)[1] if guard is not None and guard.active else ()
            if hits and guard is not None:
                self._special_tokens(index, hits, guard.policy)
            try:
                prompts = self.renderer.render(index)
            except PromptkitError as error:
                if report_errors and not (hits and guard is not None and guard.policy == "error"):
                    failed.setdefault(error.message, []).append(index)
                continue
            own = {hit.token for hit in hits}
            formed = dict.fromkeys(token for prompt in prompts for token in prompt.escaped_tokens or () if token not in own)
            if formed:
                self.add(
                    "special-token",
                    "note",
                    f"the row's text forms the model's control tokens with the text around it ({', '.join(map(repr, formed))}): "
                    "they are escaped in the prompt (special_token_policy='escape')",
                    "clean the data, or change the template so that row text does not sit against a token's pieces",
                    self.source.key("path", "abbr"),
                    row=index,
                )
            if isinstance(model, CompletionModel) and model.mm_placeholders:
                for prompt in prompts:
                    self._media(index, prompt.prompt, prompt.media or [], model.mm_placeholders)
        for message, rows in failed.items():
            also = f" (rows {', '.join(map(str, rows))} of the {len(self.test_rows)} rendered)" if len(rows) > 1 else ""
            self.add("render-error", "error", message + also, "see the message; the row renders once it is fixed", None, row=rows[0])

    def _special_tokens(self, index: int, hits: Sequence[Any], policy: str) -> None:
        from promptkit.tokens.guard import describe_hits

        effect = {
            "escape": ("note", "they are escaped in the prompt (special_token_policy='escape')"),
            "error": ("error", "rendering refuses the row (special_token_policy='error')"),
        }.get(policy, ("warning", f"they reach the model as control tokens (special_token_policy={policy!r})"))
        self.add(
            "special-token",
            effect[0],
            f"the row's text holds the model's control tokens ({describe_hits(list(hits))}): {effect[1]}",
            "clean the data, or set special_token_policy='escape' in the model config",
            self.source.key("path", "abbr"),
            row=index,
        )

    def _media(self, index: int, prompt: Any, media: list[dict[str, Any]], placeholders: Mapping[str, str]) -> None:
        if not isinstance(prompt, str):
            return
        written = {modality: prompt.count(text) for modality, text in placeholders.items()}
        parts = {modality: sum(1 for part in media if part.get("type") == f"{modality}_url") for modality in placeholders}
        for modality, count in written.items():
            if count == parts[modality] or (modality, count, parts[modality]) in self._media_seen:
                continue
            self._media_seen.add((modality, count, parts[modality]))
            self.add(
                "media-placeholder",
                "warning",
                f"the prompt holds {count} {placeholders[modality]!r} placeholder(s) but {parts[modality]} {modality} part(s): "
                "the model would pair media and placeholders wrongly",
                f"remove {placeholders[modality]!r} from the template's text and the row's text (or escape it with "
                "special_token_policy='escape')",
                self.source.text(placeholders[modality]) or self.source.key("prompt_template"),
                row=index,
            )


def _junction_fix(problem: str, answer: str) -> str:
    if problem == "double space":
        return f"keep one space: drop the template's trailing space before {answer}, or strip the leading space of the answers"
    return f"put a space between the text and {answer} (e.g. 'Answer: {{answer}}'), or start the answers with one"
