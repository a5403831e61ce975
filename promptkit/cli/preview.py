"""What ``promptkit preview`` shows: the shots picked, the PromptList with roles and sections, the final input.

Dialogues show one panel pair per turn; media parts show as a line a person
can judge (where, MIME type, bytes, image size), never as base64.  Media are
looked at under the dataset's media policy (root, regular files only, decode
limit) in every mode, ``keep`` included: see :func:`~promptkit.media.describe_media`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from promptkit.control_tokens import describe_hits
from promptkit.errors import PromptkitError
from promptkit.fitting import TokenSegments
from promptkit.media import describe_media
from promptkit.parts import Part
from promptkit.pipeline import RenderedPrompt, Renderer
from promptkit.promptlist import Marker, PromptList, RoleItem, describe_item

#: ``describe(modality, url)``: a media part's line (:func:`~promptkit.media.describe_media` under the dataset's policy).
Describe = Callable[[str, str], str]

_ROLE_STYLES = {"SYSTEM": "magenta", "HUMAN": "cyan", "BOT": "green", "system": "magenta", "user": "cyan", "assistant": "green"}


def show(renderer: Renderer, indices: Iterable[int], config: Path, force_color: bool | None) -> None:
    console = Console(force_terminal=force_color, no_color=force_color is False, highlight=False)
    for index in indices:
        try:
            shown = _row(renderer, index, config)
        except PromptkitError as error:  # a media part that cannot be looked at; rendering errors name their row already
            where = renderer.dataset.config_path
            model = renderer.model.abbr if renderer.model is not None else None
            raise error.add_context(row=index, config=str(where) if where else None, dataset=renderer.dataset.abbr, model=model) from None
        for renderable in shown:  # printed once the whole row is built: a row shows completely or not at all
            console.print(renderable)


def _row(renderer: Renderer, index: int, config: Path) -> list[RenderableType]:
    model = renderer.model.abbr if renderer.model is not None else "(no model: completion, no meta template)"
    prompts = renderer.render(index)
    describe: Describe = partial(describe_media, root=renderer.media_root, policy=renderer.dataset.media)
    first = prompts[0]
    out: list[RenderableType] = [
        Rule(Text(f"{renderer.dataset.abbr} · row {index} · {first.mode} · {model}", style="bold")),
        Text(f"config: {config}", style="dim"),
        _shots_line(first, renderer.dataset.reader.train_split),
    ]
    if renderer.model is not None:
        _, hits = renderer.model.token_guard.guard_row(renderer.test_rows[index])
        if hits:
            action = _token_action(renderer.model.special_token_policy)
            out.append(Text(f"control tokens in row text: {describe_hits(hits)} ({action})", style="bold red"))
    if renderer.max_seq_len:
        enforced = "enforced" if renderer.token_counter is not None else "not enforced: the model config sets no tokenizer or token_counter"
        out.append(Text(f"max_seq_len: {renderer.max_seq_len} ({enforced})", style="dim"))
    if renderer.infer_mode is not None:
        out.append(Text(_turns_line(renderer, prompts), style="dim"))
    for prompt in prompts:
        title = f"label {prompt.label!r}" if prompt.mode == "ppl" else f"turn {prompt.turn}" if prompt.turn is not None else "prompt"
        if prompt.mode == "calib":  # a calibration (unconditioned) prompt of a format dataset
            title = "calib" if prompt.label is None else f"calib, label {prompt.label!r}"
        out.append(Panel(_promptlist(prompt.intermediate, describe), title=f"{title}: template output", title_align="left", border_style="blue"))
        out.append(Panel(_final(prompt, describe), title=f"{title}: final input ({_kind(prompt)})", title_align="left", border_style="yellow"))
        segments = renderer.token_segments(prompt)
        if segments is not None:
            out.append(_tokens_line(segments, renderer.max_seq_len, prompt.truncated))
    return out


def _token_action(policy: str) -> str:
    if policy == "escape":
        return "escaped with U+200B, special_token_policy='escape'"
    return f"left as they are, special_token_policy={policy!r}"


def _turns_line(renderer: Renderer, prompts: list[RenderedPrompt]) -> str:
    line = f"dialogue: infer_mode {renderer.infer_mode!r}, {len(prompts)} prompt(s)"
    if renderer.infer_mode == "every" and not renderer.replies:
        line += "; later turns need the model's replies (--replies FILE)"
    return line


def _shots_line(prompt: RenderedPrompt, split: str) -> Text:
    if not prompt.ice_idx:
        return Text("shots: none")
    return Text(f"shots: rows {prompt.ice_idx} of split {split!r}")


def _tokens_line(segments: TokenSegments, max_seq_len: int | None, truncated: bool) -> Text:
    limit = f" of max_seq_len {max_seq_len}" if max_seq_len else ""
    shots = ", ".join(map(str, segments.shots)) or "none"
    line = f"tokens: {segments.total}{limit} · system {segments.system} · shots {shots} · query and template {segments.rest}"
    if truncated:
        line += " · shots dropped to fit"
    return Text(line, style="dim")


def _kind(prompt: RenderedPrompt) -> str:
    if isinstance(prompt.prompt, str):
        return "completion string" + (f" + {len(prompt.media)} media" if prompt.media else "")
    return f"{len(prompt.prompt)} chat messages"


def _promptlist(intermediate: str | PromptList, describe: Describe) -> Text:
    if isinstance(intermediate, str):
        return _visible(intermediate)
    out = Text()
    depth = 0
    for item in intermediate:
        if isinstance(item, Marker):
            if item.pos == "end":
                depth -= 1
            out.append("  " * depth + describe_item(item) + "\n", style="dim")
            if item.pos == "begin":
                depth += 1
        elif isinstance(item, RoleItem):
            out.append("  " * depth)
            out.append(item.role, style="bold " + _ROLE_STYLES.get(item.role, "white"))
            if item.fallback_role:
                out.append(f" (fallback {item.fallback_role})", style="dim")
            out.append(": ")
            if item.parts is not None:
                out.append("\n")
                out.append_text(_parts([part.dump() for part in item.parts], describe, "  " * (depth + 1)))
            else:
                out.append_text(_visible(item.prompt if item.prompt is not None else "", quote=True))
            out.append("\n")
        else:
            out.append("  " * depth + "text: ", style="dim")
            out.append_text(_visible(item, quote=True))
            out.append("\n")
    out.rstrip()
    return out


def _final(prompt: RenderedPrompt, describe: Describe) -> Group | Text:
    if isinstance(prompt.prompt, str):
        text = _visible(prompt.prompt)
        if prompt.media:
            text.append("\n\nmedia, in placeholder order:\n", style="dim")
            text.append_text(_parts(prompt.media, describe, "  "))
        return text
    table = Table(show_header=True, header_style="bold", expand=True, show_lines=True)
    table.add_column("role", no_wrap=True)
    table.add_column("content")
    for message in prompt.prompt:
        role, content = message["role"], message["content"]
        shown = _visible(content) if isinstance(content, str) else _parts(content, describe, "")
        table.add_row(Text(role, style="bold " + _ROLE_STYLES.get(role, "white")), shown)
    return Group(table)


def _parts(parts: Sequence[Mapping[str, Any]], describe: Describe, indent: str) -> Text:
    """One line per content part: text quoted, media described (see :func:`describe_media`)."""
    out = Text()
    for number, data in enumerate(parts):
        part = Part.from_dict(data)
        out.append(("\n" if number else "") + indent)
        if part.modality == "text":
            out.append("text ", style="dim")
            out.append_text(_visible(part.text_value, quote=True))
        else:
            out.append(f"{part.modality} ", style="bold yellow")
            out.append(describe(part.modality, part.url or ""))
    return out


def _visible(text: str, quote: bool = False) -> Text:
    """The text as it is, with its trailing newlines shown (``⏎``) so they are not lost on screen."""
    body = Text(text)
    stripped = text.rstrip("\n")
    if len(stripped) != len(text) or not text:
        body.append("⏎" * (len(text) - len(stripped)) if text else "∅", style="dim")
    if quote:
        return Text("«").append_text(body).append("»")
    return body
