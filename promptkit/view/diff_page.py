"""A :class:`~promptkit.diff.DiffReport` as one self-contained HTML page (``promptkit diff --html``).

The page uses the view's style sheet (``assets/view.css``: the pieces' colours,
the monospace text, the marks of invisible characters) and no script: every
changed prompt is a ``<details>`` element listing its changed pieces, each
with its whole text in A and B merged, removed text in ``<del>``, added text in
``<ins>``.  All text is escaped with :func:`html.escape`; nothing is loaded.
"""

from __future__ import annotations

import html
from importlib.resources import files

from promptkit.diff import DiffReport, PieceChange, PromptDiff
from promptkit.diff.text import diff_runs, headline, summary
from promptkit.meta_templates.spans import shot_of

__all__ = ["diff_html"]

#: The view's class of each piece (the colours of ``promptkit view``).
_CLASSES = {
    "system": "k-system",
    "history": "k-history",
    "history.answer": "k-history-answer",
    "query": "k-query",
    "answer_slot": "k-answer",
    "wrapper": "k-wrapper",
}
_STYLE = """
del { background: #fecaca; color: #7f1d1d; text-decoration: line-through; }
ins { background: #bbf7d0; color: #14532d; text-decoration: none; }
.piece { margin: 6px 10px 10px; }
.piece > .label { font-size: 12px; padding: 0 5px; border-radius: 3px; }
.piece > .note, .prompt-note { color: var(--dim); font-size: 12px; margin-left: 6px; }
.final .text { border: 1px solid var(--line); border-radius: 4px; padding: 4px 6px; background: #fff; }
.only { color: var(--dim); }
"""


def diff_html(report: DiffReport, title: str = "promptkit diff") -> str:
    """The whole page."""
    style = (files("promptkit.view") / "assets" / "view.css").read_text(encoding="utf-8")
    body = [
        f"<header><h1>{_e(title)}</h1><span id=\"pk-summary\">{_e(summary(report))}</span>",
        f'<div class="meta">A: {_e(report.a)}<br>B: {_e(report.b)}</div>',
    ]
    if report.pairing:
        body.append(f'<div class="meta">pairing: {_e(report.pairing)}</div>')
    body.append("</header>\n<main>")
    body += [_prompt(prompt) for prompt in report.changed]
    for side, ids in (("A", report.only_a), ("B", report.only_b)):
        if ids:
            body.append(f'<details class="row only"><summary>{len(ids)} prompt(s) only in {side}</summary>')
            body.append(f'<div class="text">{_e(chr(10).join(ids))}</div></details>')
    body.append("</main>")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        f"<title>{_e(title)}</title>\n<style>\n{style}{_STYLE}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


def _prompt(prompt: PromptDiff) -> str:
    labels = headline(prompt)
    inputs = f'<span class="badge">inputs changed: {_e(", ".join(prompt.inputs))}</span>' if prompt.inputs else ""
    out = [f'<details class="row" open data-id="{_e(prompt.id)}"><summary><span class="where">{_e(prompt.id)}</span>'
           f'<span class="badge">{_e(labels)}</span>{inputs}</summary>']
    if prompt.note:
        out.append(f'<div class="prompt-note">{_e(prompt.note)}</div>')
    out += [_piece(change) for change in prompt.changes]
    out.append("</details>")
    return "\n".join(out)


def _piece(change: PieceChange) -> str:
    note = f'<span class="note">{_e(change.note)}</span>' if change.note else ""
    if change.before is None or change.after is None:
        side = "B" if change.before is None else "A"
        text = change.after if change.before is None else change.before
        body = f'<span class="only">only in {side}:</span>\n{_visible(text or "")}'
    else:
        body = "".join(_run(tag, text) for tag, text in diff_runs(change.before, change.after))
    return (
        f'<div class="piece final" data-piece="{_e(change.piece)}"><span class="label sp {_class(change.piece)}">{_e(change.label)}</span>'
        f'{note}<div class="text">{body}</div></div>'
    )


def _run(tag: str, text: str) -> str:
    shown = _visible(text)
    return shown if tag == "equal" else f"<del>{shown}</del>" if tag == "delete" else f"<ins>{shown}</ins>"


def _visible(text: str) -> str:
    """Escaped text with newlines and tabs marked as the view marks them (the characters themselves kept)."""
    return _e(text).replace("\n", '<span class="ws">⏎</span>\n').replace("\t", '<span class="ws">→</span>\t')


def _class(piece: str) -> str:
    shot = shot_of(piece)
    if shot:
        return ("k-shot-answer" if shot[1] else "k-shot") + (" s-odd" if shot[0] % 2 else "")
    return _CLASSES.get(piece, "k-text")


def _e(text: str) -> str:
    return html.escape(text, quote=True)
