"""What ``promptkit preview`` shows: the shots picked, the gold answer, the PromptList, the final input with its spans.

The final input is laid out by :mod:`promptkit.cli._layout`: each piece
(system, shot, shot answer, query, answer slot, the model's wrapper) in its
colour and named in a column on the left where it begins, the model's control
tokens highlighted, newlines and trailing whitespace marked, wraps told apart
from newlines; a legend closes each row.  Shots of several lines are folded to
one line each unless ``--full``.  A ppl row shows the text its labels share
once, then each label's continuation.  Dialogues show one template output and
final input per turn; media parts show as a line a person can judge (where,
MIME type, bytes, image size), never as base64.  Media are looked at under the
dataset's media policy (root, regular files only, decode limit) in every mode,
``keep`` included: see :func:`~promptkit.media.describe_media`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from promptkit.cli._failures import DatasetFailures
from promptkit.cli._layout import FOLD, LINE, MARKER_STYLE, TOKEN_STYLE, WRAP, Block, lay_out, piece_label, piece_style, visible, wrap
from promptkit.cli.arguments import common, load_run, make_renderer, say, terminal_progress
from promptkit.cli.progress import TerminalProgress
from promptkit.errors import ConfigError, DatasetError, PromptkitError
from promptkit.media import describe_media
from promptkit.meta_templates import CompletionModel, Model
from promptkit.meta_templates.spans import Span, find_spans
from promptkit.parts import Part
from promptkit.plan.dataset import DatasetSpec
from promptkit.plan.fitting import TokenSegments
from promptkit.promptlist import Item, Marker, PromptList, RoleItem, describe_item
from promptkit.records.record import RenderedPrompt
from promptkit.render.conversation import load_replies
from promptkit.render.renderer import Renderer
from promptkit.tokens.guard import describe_hits

__all__ = ["Preview", "make_console", "show", "use_color"]

#: ``describe(modality, url)``: a media part's line (:func:`~promptkit.media.describe_media` under the dataset's policy).
Describe = Callable[[str, str], str]

_ROLE_STYLES = {"SYSTEM": "magenta", "HUMAN": "cyan", "BOT": "green", "system": "magenta", "user": "cyan", "assistant": "green"}
#: The order pieces are listed in the legend.
_LEGEND_ORDER = ("wrapper", "system", "shot 0", "shot 1", "shot answer", "history", "history answer", "query", "answer slot", "text")
#: (what a marked character of the text starts with, the legend's sample of it, what it means)
_MARKERS = (
    ("↵", "↵", "newline"),
    ("·", "·", "trailing space"),
    ("→", "→", "tab"),
    ("⟨", "⟨U+…⟩", "an invisible character, by code point"),
    (WRAP, WRAP, "continues the line above (no newline there)"),
    (FOLD, FOLD, "a shot folded to one line (--full shows it)"),
)


def use_color(choice: str, stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """``--color``: ``always``, ``never``, or ``auto`` — on a terminal unless ``NO_COLOR`` is set and not empty (no-color.org)."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    return not environ.get("NO_COLOR") and stream.isatty()


def make_console(color: bool) -> Console:
    """The console preview prints to: without colour, no escape sequence at all (no bold either)."""
    return Console(force_terminal=color, no_color=not color, color_system="auto" if color else None, highlight=False)


@dataclass(frozen=True, slots=True)
class Preview:
    """How rows are shown: ``full`` unfolds every shot and shows each ppl label's template output."""

    config: Path
    full: bool = False


def show(renderers: Sequence[Renderer], indices: Iterable[int], preview: Preview, console: Console) -> None:
    """Each row of ``indices``, for each renderer (one per model) in turn."""
    for index in indices:
        for number, renderer in enumerate(renderers):
            of = f" (model {number + 1} of {len(renderers)})" if len(renderers) > 1 else ""
            try:
                shown = _row(renderer, index, preview, console.width, of)
            except PromptkitError as error:  # a media part that cannot be looked at; rendering errors name their row already
                where = renderer.dataset.config_path
                model = renderer.model.abbr if renderer.model is not None else None
                raise error.add_context(row=index, config=str(where) if where else None, dataset=renderer.dataset.abbr, model=model) from None
            for renderable in shown:  # printed once the whole row is built: a row shows completely or not at all
                console.print(renderable)


def _row(renderer: Renderer, index: int, preview: Preview, width: int, of: str) -> list[RenderableType]:
    model = renderer.model.abbr if renderer.model is not None else "(no model: completion, no meta template)"
    prompts = renderer.render(index)
    describe: Describe = partial(describe_media, root=renderer.media_root, policy=renderer.dataset.media)
    first = prompts[0]
    out: list[RenderableType] = [
        Rule(Text(f"{renderer.dataset.abbr} · row {index} · {first.mode} · {model}{of}", style="bold")),
        Text(f"config: {preview.config}", style="dim"),
        _shots_line(first, renderer.dataset.reader.train_split),
    ]
    gold = _gold(renderer, index)
    if gold is not None:
        out.append(gold)
    if renderer.model is not None:
        _, hits = renderer.model.token_guard.guard_row(renderer.test_rows[index])
        action = _token_action(renderer.model.token_guard.policy)
        if hits:
            out.append(Text(f"control tokens in row text: {describe_hits(hits)} ({action})", style="bold red"))
        own = {hit.token for hit in hits}
        formed = dict.fromkeys(token for prompt in prompts for token in prompt.escaped_tokens or () if token not in own)
        if formed:
            out.append(Text(f"control tokens row text forms with the text around it: {', '.join(map(repr, formed))} ({action})", style="bold red"))
    if renderer.max_seq_len:
        enforced = "enforced" if renderer.token_counter is not None else "not enforced: the model config sets no tokenizer or token_counter"
        out.append(Text(f"max_seq_len: {renderer.max_seq_len} ({enforced})", style="dim"))
    if renderer.infer_mode is not None:
        out.append(Text(_turns_line(renderer, prompts), style="dim"))
    view = _View(renderer, preview, width, describe)
    ppl = [prompt for prompt in prompts if prompt.mode == "ppl"]
    for prompt in prompts:
        if prompt.mode == "ppl" and len(ppl) > 1:
            if prompt is ppl[0]:
                out += view.labels(ppl, _gold_value(renderer, index))
            continue
        out += view.prompt(prompt, _title(prompt))
    out.append(view.legend())
    return out


def _name(prompt: RenderedPrompt, follows: bool) -> str:
    """How a ppl prompt of a row is named: by its label, or by its id when its continuation follows it (lm-eval's requests)."""
    return f"prompt {prompt.id!r}" if follows else f"label {prompt.label!r}"


def _scored(prompt: RenderedPrompt, follows: bool) -> list[RenderableType]:
    """The continuation scored after the input, when the records carry one that follows it."""
    continuation = (prompt.request_fields or {}).get("continuation") if follows else None
    if not isinstance(continuation, str):
        return []
    return [Text(f"  then scored: {continuation!r}", style="yellow")]


def _title(prompt: RenderedPrompt) -> str:
    if prompt.mode == "calib":  # a calibration (unconditioned) prompt of a format dataset
        return "calib" if prompt.label is None else f"calib, label {prompt.label!r}"
    return f"label {prompt.label!r}" if prompt.mode == "ppl" else f"turn {prompt.turn}" if prompt.turn is not None else "prompt"


def _gold_value(renderer: Renderer, index: int) -> Any:
    column = renderer.output_column
    return renderer.test_rows[index].get(column) if column else None


def _gold(renderer: Renderer, index: int) -> Text | None:
    value = _gold_value(renderer, index)
    if value is None:
        return None
    shown = repr(value)
    return Text(f"gold: {shown if len(shown) <= 200 else shown[:199] + '…'} (column {renderer.output_column!r})")


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


def _section(title: str, style: str) -> Rule:
    return Rule(Text(title, style="bold " + style), align="left", style=style)


class _View:
    """The sections of one row for one model; remembers which pieces and markers it showed, for the legend."""

    def __init__(self, renderer: Renderer, preview: Preview, width: int, describe: Describe) -> None:
        self.renderer = renderer
        self.full = preview.full
        self.width = width
        self.describe = describe
        self.tokens = renderer.model.token_guard.tokens if renderer.model is not None else ()
        self.pieces: set[str] = set()
        self.lines: list[Text] = []
        self.notes: list[str] = []

    # -- one prompt ----------------------------------------------------------------
    def prompt(self, prompt: RenderedPrompt, title: str) -> list[RenderableType]:
        out: list[RenderableType] = [_section(f"{title}: template output", "blue"), *self._template(prompt.intermediate)]
        out.append(_section(f"{title}: final input ({_kind(prompt)})", "yellow"))
        out += self._final(prompt, self._spans(prompt))
        out += self._tokens(prompt)
        return out

    def labels(self, prompts: list[RenderedPrompt], gold: Any) -> list[RenderableType]:
        """A ppl row: the template output (each label's with ``--full``), the shared prefix once, each label's continuation
        (a continuation scored after the input, as lm-eval's requests carry it, is shown after it)."""
        follows = self.renderer.plan.inferencer.continuation_follows
        kind = "prompts" if follows else "labels"
        names = ", ".join(repr(prompt.id if follows else prompt.label) for prompt in prompts)
        out: list[RenderableType] = []
        for prompt in prompts if self.full else prompts[:1]:
            more = "" if self.full else f" (the first of {len(prompts)} {kind}; --full shows each)"
            out += [_section(f"{_name(prompt, follows)}: template output{more}", "blue"), *self._template(prompt.intermediate)]
        shared = _shared(prompts)
        if not shared:  # nothing in common: each label in full
            for prompt in prompts:
                out.append(_section(f"{_name(prompt, follows)}{_is_gold(prompt.label, gold)}: final input ({_kind(prompt)})", "yellow"))
                out += self._final(prompt, self._spans(prompt))
                out += _scored(prompt, follows)
                out += self._tokens(prompt)
            return out
        what = "characters" if isinstance(prompts[0].prompt, str) else "messages"
        out.append(_section(f"{kind} {names}: final input ({_kind(prompts[0])}), the first {shared} {what} all share", "yellow"))
        spans = [self._spans(prompt) for prompt in prompts]
        width = max(_label_width(each) for each in spans)  # one label column for the shared text and every continuation
        out += self._final(prompts[0], spans[0], stop=shared, label_width=width)
        for prompt, own in zip(prompts, spans, strict=True):
            out.append(Text(f"{_name(prompt, follows)}{_is_gold(prompt.label, gold)} continues with", style="bold yellow"))
            rest = self._final(prompt, own, start=shared, label_width=width) + _scored(prompt, follows)
            out += rest or [Text("  (nothing: this label's input is the shared text)", style="dim")]
            out += self._tokens(prompt)
        if "answer slot" in self.pieces:
            self.notes.append("answer slot: the label's text the model is scored on (underlined)")
        return out

    def _tokens(self, prompt: RenderedPrompt) -> list[RenderableType]:
        segments = self.renderer.token_segments(prompt)
        return [] if segments is None else [_tokens_line(segments, self.renderer.max_seq_len, prompt.truncated)]

    def _spans(self, prompt: RenderedPrompt) -> list[Span]:
        items = prompt.intermediate.items if isinstance(prompt.intermediate, PromptList) else ()
        if any(isinstance(item, RoleItem) and item.parts is not None for item in items):
            self.notes.append("no spans: the prompt has media parts, so its text is shown uncoloured")
            return []
        model = self.renderer.model or CompletionModel(abbr=None)
        mode = self.renderer.plan.mode  # how the prompt rendered (a calibration prompt's, an lm-eval likelihood context's: the plan's)
        try:
            spans = find_spans(model, prompt.intermediate, mode, render=self.renderer.plan.span_render)
        except PromptkitError as error:  # multimodal parts, a chat template that rewrites the text: no colours, and why
            self.notes.append(f"no spans: {error.message}")
            return []
        self.pieces.update(piece_label(span.piece) for span in spans if span.end > span.start)
        return spans

    # -- the final input -----------------------------------------------------------
    def _final(
        self, prompt: RenderedPrompt, spans: list[Span], start: int = 0, stop: int | None = None, label_width: int | None = None
    ) -> list[RenderableType]:
        final = prompt.prompt
        if isinstance(final, str):
            if start >= (len(final) if stop is None else stop):
                return []
            width = _label_width(spans) if label_width is None else label_width
            lines = self._lay_out(Block(final, spans, self.tokens, start, stop, fold=not self.full), width)
            if prompt.media and stop is None:
                lines.append(Text("media, in placeholder order:", style="dim"))
                lines += self._wrapped(_parts(prompt.media, self.describe, "  "))
            return list(lines)
        messages = final[start:stop]
        width = max((len(message["role"]) for message in final), default=0) + 1  # the whole chat's: a ppl label's rest aligns
        out: list[RenderableType] = []
        for number, message in enumerate(messages, start):
            role, content = message["role"], message["content"]
            tag = Text(role.ljust(width), style="bold " + _ROLE_STYLES.get(role, "white"))
            if isinstance(content, str):
                own = [s for s in spans if s.message == number]
                out += self._lay_out(Block(content, own, self.tokens, fold=not self.full, labels=False), width, tag)
            else:
                for line_number, line in enumerate(_parts(content, self.describe, "")):
                    label = tag if line_number == 0 else Text(" " * width)
                    out += self._wrapped([line], label)
        return out

    def _lay_out(self, block: Block, label_width: int, first_label: Text | None = None) -> list[Text]:
        lines = lay_out(block, self.width, label_width, first_label)
        self.lines += lines
        return lines

    def _wrapped(self, lines: Iterable[Text], label: Text | None = None) -> list[Text]:
        """Lines with the gutter: ``│`` where one starts, ``↪`` on its wrapped continuations."""
        out = []
        head = label or Text()
        for line in lines:
            for number, piece in enumerate(wrap(line, self.width - len(head) - 2)):
                row = Text(" " * len(head)) if number else head.copy()
                row.append((WRAP if number else LINE) + " ", style=MARKER_STYLE)
                row.append_text(piece)
                out.append(row)
            head = Text(" " * len(head))
        self.lines += out
        return out

    # -- the template output -------------------------------------------------------
    def _template(self, intermediate: str | PromptList) -> list[Text]:
        if isinstance(intermediate, str):
            return self._lay_out(Block(intermediate, labels=False), 0)
        out: list[Text] = []
        depth = 0
        items = intermediate.items
        position = 0
        shot = 0
        while position < len(items):
            item = items[position]
            if isinstance(item, Marker) and item.section == "ice" and item.pos == "begin" and not self.full:
                end = items.index(Marker("ice", "end"), position)
                out.append(self._folded(items[position + 1 : end], depth, shot))
                shot += 1
                position = end + 1
                continue
            if isinstance(item, Marker):
                if item.pos == "end":
                    depth -= 1
                out += self._wrapped([Text("  " * depth + describe_item(item), style="dim")])
                if item.pos == "begin":
                    depth += 1
            else:
                out += self._wrapped(self._item(item, depth))
            position += 1
        return out

    def _item(self, item: Item, depth: int) -> list[Text]:
        indent = "  " * depth
        if isinstance(item, RoleItem):
            head = Text(indent).append(item.role, style="bold " + _ROLE_STYLES.get(item.role, "white"))
            if item.fallback_role:
                head.append(f" (fallback {item.fallback_role})", style="dim")
            head.append(": ")
            if item.parts is not None:
                return [head, *_parts([part.dump() for part in item.parts], self.describe, indent + "  ")]
            if item.prompt is None:
                return [head.append("(no prompt: the model's role text only)", style="dim")]
            return _quoted(head, item.prompt)
        assert isinstance(item, str)
        return _quoted(Text(indent).append("text: ", style="dim"), item)

    def _folded(self, items: Sequence[Item], depth: int, shot: int) -> Text:
        """A shot's section on one line: ``<ice> shot 0 · HUMAN «…» BOT «…»``, cut at the width."""
        line = Text("  " * depth).append(f"<ice> shot {shot}", style=piece_style(f"shot {shot}"))
        for item in items:
            line.append("  ")
            if isinstance(item, RoleItem):
                line.append(item.role, style="bold " + _ROLE_STYLES.get(item.role, "white"))
                text = item.prompt if item.parts is None else " ".join(part.describe() for part in item.parts)
            elif isinstance(item, Marker):
                line.append(describe_item(item), style="dim")
                continue
            else:
                text = item
            line.append(" «").append_text(Text().join(visible(text or ""))).append("»")
        whole = line.copy()
        line.truncate(self.width - 2, overflow="ellipsis")
        mark = FOLD if line.plain != whole.plain or "↵" in whole.plain else LINE
        out = Text(mark + " ", style=MARKER_STYLE).append_text(line)
        self.lines.append(out)
        return out

    # -- the legend ----------------------------------------------------------------
    def legend(self) -> Text:
        legend = Text("legend: ", style="dim")
        order = {name: number for number, name in enumerate(_LEGEND_ORDER)}
        shown = sorted({_legend_name(piece) for piece in self.pieces}, key=lambda name: (order.get(name, len(order)), name))
        for name in shown:
            legend.append(name, style=piece_style(name) or "default").append(" ")
        marks = _styled(self.lines, MARKER_STYLE)
        if _styled(self.lines, TOKEN_STYLE):
            legend.append("<|…|>", style=TOKEN_STYLE).append(" control token  ")
        for mark, sample, meaning in _MARKERS:
            if mark in marks:
                legend.append(sample, style=MARKER_STYLE).append(f" {meaning}  ")
        if any("«" in line.plain for line in self.lines):
            legend.append("«…»", style=MARKER_STYLE).append(" a text exactly as the template gave it  ")
        for note in dict.fromkeys(self.notes):
            legend.append(f"· {note} ", style="dim")
        legend.rstrip()
        return legend


def _label_width(spans: Sequence[Span]) -> int:
    """The label column of a completion string: its longest piece name and a space (none without spans)."""
    return max((len(piece_label(span.piece)) for span in spans if span.end > span.start), default=-1) + 1


def _styled(lines: Iterable[Text], style: str) -> str:
    """The characters of ``lines`` shown in ``style`` (the markers, the control tokens), for the legend."""
    return "".join(line.plain[span.start : span.end] for line in lines for span in line.spans if span.style == style)


def _legend_name(piece: str) -> str:
    """Pieces as the legend groups them: shots by their two alternating colours, answers together."""
    if piece.startswith("shot "):
        return "shot answer" if piece.endswith(" answer") else f"shot {int(piece.split()[1]) % 2}"
    return piece


def _is_gold(label: Hashable, gold: Any) -> str:
    return " (gold)" if gold is not None and str(label) == str(gold) else ""


def _shared(prompts: list[RenderedPrompt]) -> int:
    """How much of the final input every label shares: characters of a string, whole messages of a chat."""
    finals = [prompt.prompt for prompt in prompts]
    strings = [final for final in finals if isinstance(final, str)]
    if strings:
        return len(os.path.commonprefix(strings)) if len(strings) == len(finals) else 0
    count = 0
    for messages in zip(*finals, strict=False):
        if any(message != messages[0] for message in messages):
            break
        count += 1
    return count


def _quoted(head: Text, text: str) -> list[Text]:
    """``head«text»``, the text's later lines aligned under its first; an empty text is ``«» (empty)``."""
    if not text:
        return [head.append("«»").append(" (empty)", style="dim")]
    lines = visible(text)
    indent = " " * (len(head) + 1)
    out = [head.append("«").append_text(lines[0])]
    out += [Text(indent).append_text(line) for line in lines[1:]]
    out[-1].append("»")
    return out


def _parts(parts: Sequence[Mapping[str, Any]], describe: Describe, indent: str) -> list[Text]:
    """One line per content part: text quoted, media described (see :func:`describe_media`)."""
    out: list[Text] = []
    for data in parts:
        part = Part.from_dict(data)
        if part.modality == "text":
            out += _quoted(Text(indent).append("text ", style="dim"), part.text_value)
        else:
            out.append(Text(indent).append(f"{part.modality} ", style="bold yellow").append(describe(part.modality, part.url or "")))
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    common(parser)
    parser.add_argument("--index", type=int, default=0, metavar="N", help="first test row to show (default 0)")
    parser.add_argument("--count", type=int, default=1, metavar="K", help="how many rows to show (default 1)")
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour output; auto (the default): when stdout is a terminal and NO_COLOR is not set",
    )
    parser.add_argument("--full", action="store_true", help="show every shot in full (default: a shot of several lines folded to one)")


def run(args: argparse.Namespace) -> int:
    """Show the rendered prompts of the chosen rows, each for every model in turn."""
    console = make_console(use_color(args.color, sys.stdout))
    replies = load_replies(args.replies) if args.replies else None
    if args.count < 1:
        raise ConfigError(f"--count must be at least 1 (got {args.count})")
    failures = DatasetFailures(say)
    progress = terminal_progress(args, transient=True)
    datasets, models = load_run(args)
    for dataset in datasets:
        try:
            _preview_dataset(args, dataset, models, replies, console, progress)
        except DatasetError as error:  # a dataset whose rows cannot be read: reported, and the others still shown
            if args.debug:
                raise
            failures.add(error)
    failures.report()
    return 1 if failures.count else 0


def _preview_dataset(
    args: argparse.Namespace,
    dataset: DatasetSpec,
    models: list[Model | None],
    replies: dict[int, list[str]] | None,
    console: Console,
    progress: TerminalProgress | None,
) -> None:
    """The dataset's rows, each shown for every model in turn (so that the models' inputs for one row sit together)."""
    # Without replies, an 'every' dialogue shows its first turn (the preview says the rest needs --replies).
    renderers = [make_renderer(dataset, model, args, replies if replies is not None else {}, progress) for model in models]
    total = len(renderers[0])
    if not 0 <= args.index < total:
        raise ConfigError(
            f"--index {args.index} is out of range: the test split has {total} rows (0 to {total - 1})",
            config=args.dataset_config,
            dataset=dataset.abbr,
        )
    stop = min(args.index + args.count, total)
    for renderer in renderers:
        renderer.prepare()  # shots picked, with their progress, before the preview is drawn
    show(renderers, range(args.index, stop), Preview(Path(args.dataset_config), full=args.full), console)
