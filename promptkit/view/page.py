"""The browser view of rendered prompts: one self-contained HTML file (inline CSS and script, the data as JSON).

The page needs no network and loads nothing: its style and script are inlined
from ``promptkit/view/assets``, thumbnails are ``data:`` URLs, and the
prompts are one JSON document in a ``<script type="application/json">``
element, where every ``<`` is written as a ``\\u`` escape so that no row text
can close the element.  The script builds a row's elements only when
the row is opened, and the list of rows in pages as it is scrolled, so a file
of ten thousand prompts opens in about a second (see ``benchmarks/bench_view.py``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from importlib.resources import files
from typing import Any

from promptkit.records.json_text import JsonText, NonFinite
from promptkit.render.renderer import Renderer
from promptkit.view.entries import Entry, PageTables, prompt_entries

__all__ = ["HtmlView"]

#: Shown for a run without a model config: a completion model with no meta template.
NO_MODEL = "(no model)"

#: What the page's JSON writes as ``\\u`` escapes: every ``<``, so no row text can close the script element or open a
#: comment in it (``>`` and ``&`` mean nothing there), and the two line separators older script engines refuse in strings.
_JSON_ESCAPES = (("<", "\\u003c"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))
#: A place in the page's data that is a field of a prompt's record: ``prompts[<i>].rec.<field>``.
_RECORD_FIELD = re.compile(r"prompts\[(\d+)\]\.rec\.(.+)")


class HtmlView:
    """Collects the prompts of dataset × model pairs and writes them as one HTML page.

    >>> from promptkit import RowsDataset, Renderer, build_dataset
    >>> spec = build_dataset(dict(abbr="demo", type=RowsDataset, rows=[{"q": "2+2?", "a": "4"}],
    ...     reader_cfg=dict(input_columns=["q"], output_column="a"),
    ...     infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="Q: {q}\\nA:"),
    ...                    retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))))
    >>> view = HtmlView(title="demo")
    >>> view.add(Renderer(spec))
    >>> len(view), view.data()["prompts"][0]["f"], view.data()["prompts"][0]["gold"]
    (1, 'Q: 2+2?\\nA:', '4')
    >>> view.html().startswith("<!DOCTYPE html>")
    True
    """

    def __init__(self, title: str = "promptkit view") -> None:
        self.title = title
        self._datasets: dict[str, int] = {}
        self._models: dict[str, int] = {}
        self._dataset_info: list[dict[str, Any]] = []
        self._model_info: list[dict[str, Any]] = []
        self._prompts: list[Entry] = []
        self._tables = PageTables()

    def __len__(self) -> int:
        """How many prompts the page holds."""
        return len(self._prompts)

    def add(self, renderer: Renderer, indices: Iterable[int] | None = None) -> None:
        """Render test rows ``indices`` (default: all) of ``renderer``'s dataset and model and keep their prompts."""
        dataset = self._dataset(renderer)
        model = self._model(renderer)
        for index in range(len(renderer)) if indices is None else indices:
            self._prompts += prompt_entries(renderer, index, dataset, model, self._tables)

    def _dataset(self, renderer: Renderer) -> int:
        spec = renderer.dataset
        if spec.abbr not in self._datasets:
            self._datasets[spec.abbr] = len(self._dataset_info)
            config = spec.config_path
            self._dataset_info.append({"name": spec.abbr, "config": str(config) if config else None, "mode": renderer.mode})
        return self._datasets[spec.abbr]

    def _model(self, renderer: Renderer) -> int:
        model = renderer.model
        name = model.abbr if model is not None and model.abbr is not None else NO_MODEL
        if name not in self._models:
            self._models[name] = len(self._model_info)
            kind = model.kind if model is not None else "completion"
            tokens = list(model.token_guard.tokens) if model is not None else []
            self._model_info.append({"name": name, "kind": kind, "tokens": tokens})
        return self._models[name]

    def data(self) -> dict[str, Any]:
        """The page's data: datasets, models, the shared tables (media, texts) and every prompt's entry (see :mod:`promptkit.view.entries`)."""
        return {
            "title": self.title,
            "datasets": self._dataset_info,
            "models": self._model_info,
            "media": self._tables.media,
            "texts": self._tables.texts,
            "prompts": self._prompts,
        }

    def _json(self) -> str:
        """The page's data as strict JSON (``JSON.parse`` refuses NaN): NaN and Infinity written as null, with one warning
        naming the records (or the places of the page's data) that held them."""
        nulls: list[str] = []
        data = JsonText(compact=True)(self.data(), nulls)
        by_prompt: dict[int, list[str]] = {}
        elsewhere = []
        for place in nulls:
            found = _RECORD_FIELD.fullmatch(place)
            if found is None:
                elsewhere.append(place)
            else:
                by_prompt.setdefault(int(found[1]), []).append(found[2])
        non_finite = NonFinite()
        for position, fields in by_prompt.items():
            record = self._prompts[position]["rec"]
            non_finite.note(str(record.get("id")), record.get("model"), fields)
        if elsewhere:
            non_finite.note("the page's data", None, elsewhere)
        non_finite.warn()
        return data

    def html(self) -> str:
        """The whole page."""
        assets = files("promptkit.view") / "assets"
        style = (assets / "view.css").read_text(encoding="utf-8")
        script = (assets / "view.js").read_text(encoding="utf-8")
        data = self._json()
        for character, escape in _JSON_ESCAPES:  # str.replace: a C loop each, many times faster than str.translate here
            data = data.replace(character, escape)
        title = html.escape(self.title)
        return (
            "<!DOCTYPE html>\n"
            '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
            f"<title>{title}</title>\n<style>\n{style}</style>\n</head>\n<body>\n"
            f'<script id="pk-data" type="application/json">{data}</script>\n'
            f"<script>\n{script}</script>\n</body>\n</html>\n"
        )
