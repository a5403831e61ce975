"""Prompt text as terminal lines: spans coloured, control tokens highlighted, invisible characters marked, wraps told apart.

Each line shown starts with a gutter mark that says how it relates to the text:

* ``│`` — the line starts a line of the text (at its start, or after a newline);
* ``↪`` — the line continues the one above: a wrap to the terminal's width,
  or a continuation that starts in the middle of a line of the text;
* ``⋯`` — several lines of one shot folded into one (``preview --full`` shows them).

Inside a line, a newline is shown as ``↵`` at the end of the line it ends,
trailing spaces as ``·``, tabs as ``→``, other control characters as their
control pictures (``␍``) and zero-width or format characters by code point
(``⟨U+200B⟩``), so a wrapped line is never mistaken for content.  Lines are
broken here, at the width given, never by the terminal.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len, get_character_cell_size
from rich.text import Text

from promptkit.meta_templates.spans import Span, shot_of

__all__ = [
    "FOLD",
    "LINE",
    "MARKER_STYLE",
    "TOKEN_STYLE",
    "WRAP",
    "Block",
    "lay_out",
    "piece_label",
    "piece_style",
    "visible",
    "wrap",
]

LINE, WRAP, FOLD = "│", "↪", "⋯"
NEWLINE, TRAILING_SPACE, TAB = "↵", "·", "→"
MARKER_STYLE = "dim"
TOKEN_STYLE = "bold red"
_PIECE_STYLES = {
    "wrapper": "bright_black",
    "system": "magenta",
    "shot answer": "green",
    "history": "yellow",
    "history answer": "dark_orange",
    "query": "bold",
    "answer slot": "bold green underline",
    "text": "",
}
_SHOT_STYLES = ("blue", "cyan")  # alternating, so that two shots side by side are told apart


def piece_label(piece: str) -> str:
    """The name a person reads for a span's piece: ``shot[2].answer`` → ``shot 2 answer``, ``answer_slot`` → ``answer slot``."""
    shot = shot_of(piece)
    if shot:
        return f"shot {shot[0]}" + (" answer" if shot[1] else "")
    return piece.replace("_", " ").replace(".", " ")


def piece_style(label: str) -> str:
    """The colour of a piece (by its :func:`piece_label`): each shot alternates between two, answers are green."""
    if label.startswith("shot "):
        return _PIECE_STYLES["shot answer"] if label.endswith(" answer") else _SHOT_STYLES[int(label.split()[1]) % 2]
    return _PIECE_STYLES.get(label, "")


def _shown(char: str) -> str | None:
    """What an invisible character is shown as (``None``: the character itself)."""
    if char == "\t":
        return TAB
    category = unicodedata.category(char)
    if category == "Cc":
        code = ord(char)
        return chr(0x2400 + code) if code < 32 else "␡" if code == 127 else f"⟨U+{code:04X}⟩"
    if category in ("Cf", "Zl", "Zp"):  # zero-width and format characters (U+200B, U+FEFF, …), line and paragraph separators
        return f"⟨U+{ord(char):04X}⟩"
    return None


def visible(text: str, styles: Sequence[str] | None = None) -> list[Text]:
    """``text``'s lines with their invisible characters marked (see the module docstring), one :class:`Text` per line of the text.

    ``styles`` gives each character's style; a trailing newline ends its line with ``↵`` and adds no empty line after it.
    """
    lines: list[Text] = []
    start = 0
    while True:
        end = text.find("\n", start)
        last = end == -1
        end = len(text) if last else end
        lines.append(_line(text, start, end, styles, newline=not last))
        if last or end + 1 == len(text):
            return lines
        start = end + 1


def _line(text: str, start: int, end: int, styles: Sequence[str] | None, newline: bool) -> Text:
    out = Text()
    line_end = text.find("\n", start)  # whitespace is trailing only at the end of the text's line, not where a stretch stops
    line_end = len(text) if line_end == -1 else line_end
    trailing = start + len(text[start:line_end].rstrip(" \t"))
    run: list[str] = []
    run_style = ""
    for position in range(start, end):
        char = text[position]
        shown = TRAILING_SPACE if char == " " and position >= trailing else _shown(char)
        style = MARKER_STYLE if shown is not None else styles[position] if styles is not None else ""
        if style != run_style and run:
            out.append("".join(run), style=run_style)
            run = []
        run_style = style
        run.append(shown if shown is not None else char)
    if run:
        out.append("".join(run), style=run_style)
    if newline:
        out.append(NEWLINE, style=MARKER_STYLE)
    return out


def wrap(line: Text, width: int) -> list[Text]:
    """``line`` cut into pieces of at most ``width`` cells, after a space where one is near the end, nothing dropped."""
    width = max(width, 8)
    if cell_len(line.plain) <= width:
        return [line]
    plain = line.plain
    cuts: list[int] = []
    start = used = 0
    space = -1
    for position, char in enumerate(plain):
        size = get_character_cell_size(char)
        if used + size > width:
            cut = space + 1 if space >= start and space + 1 - start > width // 2 else position
            cuts.append(cut)
            used = cell_len(plain[cut:position])
            start = cut
            space = -1
        used += size
        if char == " ":
            space = position
    return list(line.divide(cuts))


@dataclass(frozen=True, slots=True)
class Block:
    """A stretch of prompt text to lay out: ``text[start:stop]`` with its spans, the control tokens to highlight."""

    text: str
    spans: Sequence[Span] = ()
    tokens: Sequence[str] = ()
    start: int = 0
    stop: int | None = None
    #: Fold each shot of several lines into one line (``preview`` without ``--full``).
    fold: bool = False
    #: The piece names the spans use (``Span.piece``) shown as labels beside the lines where they begin.
    labels: bool = True


def lay_out(block: Block, width: int, label_width: int, first_label: Text | None = None) -> list[Text]:
    """The block as terminal lines of at most ``width`` cells: label column, gutter mark, text (see the module docstring)."""
    text = block.text
    pieces = _pieces(text, block.spans)
    styles = [piece_style(piece) for piece in pieces]
    _highlight(text, block.tokens, styles)
    folded = _shot_regions(text, block.spans) if block.fold else []
    out: list[Text] = []
    shown_label: str | None = None
    body_width = width - label_width - 2
    stop = len(text) if block.stop is None else block.stop
    rows = _rows(text[:stop], block.start)
    index = 0
    while index < len(rows):
        start, end = rows[index]
        shot = _region_of(folded, start, end)
        group = [rows[index]]
        while shot is not None and index + len(group) < len(rows) and _region_of(folded, *rows[index + len(group)]) == shot:
            group.append(rows[index + len(group)])
        if len(group) > 1:
            joined = Text().join(_line(text, s, e, styles, newline=e < stop) for s, e in group)
            joined.truncate(body_width, overflow="ellipsis")
            label = f"shot {shot}"
            out.append(_with_gutter(_label(label, label_width), FOLD, joined))
            shown_label = label
            index += len(group)
            continue
        label = _line_label(pieces, start, end) if start < len(text) else shown_label or ""
        tag = first_label if first_label is not None and not out else _label(label if label != shown_label and block.labels else "", label_width)
        shown_label = label
        mark = WRAP if start == block.start and start > 0 and text[start - 1] != "\n" else LINE
        for number, piece in enumerate(wrap(_line(text, start, end, styles, newline=end < stop), body_width)):
            out.append(_with_gutter(tag if number == 0 else _label("", label_width), mark if number == 0 else WRAP, piece))
        index += 1
    return out


def _line_label(pieces: Sequence[str], start: int, end: int) -> str:
    """The piece a line is labelled with: the first one in it that is not the model's wrapper, else the wrapper."""
    return next((piece for piece in pieces[start:end] if piece != "wrapper"), pieces[start])


def _label(label: str, width: int) -> Text:
    return Text(label.ljust(width)[:width], style=piece_style(label))


def _with_gutter(label: Text, mark: str, body: Text) -> Text:
    line = Text()
    line.append_text(label)
    line.append(mark + " ", style=MARKER_STYLE)
    line.append_text(body)
    return line


def _rows(text: str, start: int) -> list[tuple[int, int]]:
    """The lines of ``text[start:]`` as ``(start, end)`` offsets, the newline excluded; no empty line after a final newline."""
    rows: list[tuple[int, int]] = []
    while True:
        end = text.find("\n", start)
        if end == -1:
            if start < len(text) or not rows:
                rows.append((start, len(text)))
            return rows
        rows.append((start, end))
        start = end + 1
        if start == len(text):
            return rows


def _pieces(text: str, spans: Sequence[Span]) -> list[str]:
    """Each character's piece label; characters no span covers are ``text``."""
    pieces = ["text"] * (len(text) + 1)  # one past the end: the label of an empty last line
    for span in spans:
        label = piece_label(span.piece)
        pieces[span.start : span.end] = [label] * (span.end - span.start)
    return pieces


def _highlight(text: str, tokens: Sequence[str], styles: list[str]) -> None:
    if not tokens:
        return
    pattern = re.compile("|".join(map(re.escape, sorted(tokens, key=lambda token: (-len(token), token)))))
    for match in pattern.finditer(text):
        styles[match.start() : match.end()] = [TOKEN_STYLE] * (match.end() - match.start())


def _shot_regions(text: str, spans: Sequence[Span]) -> list[tuple[int, int, int]]:
    """``(shot, start, end)``: from each shot's first character to the next shot's, the last one up to the next other piece."""
    starts: dict[int, int] = {}
    last_end = -1
    for span in spans:
        shot = shot_of(span.piece)
        if shot:
            number = shot[0]
            starts[number] = min(starts.get(number, span.start), span.start)
            last_end = max(last_end, span.end)
    if not starts:
        return []
    after = [span.start for span in spans if span.start >= last_end and span.piece != "wrapper" and not shot_of(span.piece)]
    stop = min(after, default=len(text))
    ordered = sorted(starts.items(), key=lambda item: item[1])
    return [(shot, start, ordered[number + 1][1] if number + 1 < len(ordered) else stop) for number, (shot, start) in enumerate(ordered)]


def _region_of(regions: Sequence[tuple[int, int, int]], start: int, end: int) -> int | None:
    """The shot whose region holds the whole line ``text[start:end]`` and its newline, if one does."""
    for shot, low, high in regions:
        if low <= start and end + 1 <= high:
            return shot
    return None
