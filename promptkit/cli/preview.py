"""What ``promptkit preview`` shows: the shots picked, the PromptList with roles and sections, the final input."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from promptkit.pipeline import RenderedPrompt, Renderer
from promptkit.promptlist import Marker, PromptList, RoleItem, describe_item

_ROLE_STYLES = {"SYSTEM": "magenta", "HUMAN": "cyan", "BOT": "green", "system": "magenta", "user": "cyan", "assistant": "green"}


def show(renderer: Renderer, indices: Iterable[int], config: Path, force_color: bool | None) -> None:
    console = Console(force_terminal=force_color, no_color=force_color is False, highlight=False)
    model = renderer.model.abbr if renderer.model is not None else "(no model: completion, no meta template)"
    reader = renderer.dataset.reader
    for index in indices:
        prompts = renderer.render(index)
        first = prompts[0]
        console.rule(Text(f"{renderer.dataset.abbr} · row {index} · {first.mode} · {model}", style="bold"))
        console.print(Text(f"config: {config}", style="dim"))
        console.print(_shots_line(first, reader.train_split))
        if renderer.max_seq_len:
            enforced = "enforced" if renderer.token_counter is not None else "not enforced: the model config sets no token_counter"
            console.print(Text(f"max_seq_len: {renderer.max_seq_len} ({enforced})", style="dim"))
        for prompt in prompts:
            title = f"label {prompt.label!r}" if prompt.mode == "ppl" else "prompt"
            if prompt.mode == "calib":  # a calibration (unconditioned) prompt of a format dataset
                title = "calib" if prompt.label is None else f"calib, label {prompt.label!r}"
            console.print(Panel(_promptlist(prompt.intermediate), title=f"{title}: template output", title_align="left", border_style="blue"))
            console.print(Panel(_final(prompt), title=f"{title}: final input ({_kind(prompt)})", title_align="left", border_style="yellow"))


def _shots_line(prompt: RenderedPrompt, split: str) -> Text:
    if not prompt.ice_idx:
        return Text("shots: none")
    return Text(f"shots: rows {prompt.ice_idx} of split {split!r}")


def _kind(prompt: RenderedPrompt) -> str:
    return "completion string" if isinstance(prompt.prompt, str) else f"{len(prompt.prompt)} chat messages"


def _promptlist(intermediate: str | PromptList) -> Text:
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
            out.append_text(_visible(item.prompt if item.prompt is not None else "", quote=True))
            out.append("\n")
        else:
            out.append("  " * depth + "text: ", style="dim")
            out.append_text(_visible(item, quote=True))
            out.append("\n")
    out.rstrip()
    return out


def _final(prompt: RenderedPrompt) -> Group | Text:
    if isinstance(prompt.prompt, str):
        return _visible(prompt.prompt)
    table = Table(show_header=True, header_style="bold", expand=True, show_lines=True)
    table.add_column("role", no_wrap=True)
    table.add_column("content")
    for message in prompt.prompt:
        role = message["role"]
        table.add_row(Text(role, style="bold " + _ROLE_STYLES.get(role, "white")), _visible(str(message["content"])))
    return Group(table)


def _visible(text: str, quote: bool = False) -> Text:
    """The text as it is, with its trailing newlines shown (``⏎``) so they are not lost on screen."""
    body = Text(text)
    stripped = text.rstrip("\n")
    if len(stripped) != len(text) or not text:
        body.append("⏎" * (len(text) - len(stripped)) if text else "∅", style="dim")
    if quote:
        return Text("«").append_text(body).append("»")
    return body
