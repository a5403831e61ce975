"""BFCL v3 rows: their category, their functions as BFCL prepares them, and its multi-turn entries' functions.

A BFCL row's ``id`` names its category (``simple_3`` → ``simple``,
``multi_turn_miss_func_0`` → ``multi_turn_miss_func``), which decides how its
function documents are written for the model (:func:`language_docs`, BFCL's
language pre-processing): each description ends with the language's hint;
for ``java`` and ``javascript`` every parameter becomes a ``string`` whose
description names its type (an array's element type and a JavaScript dict's
schema move into the text).

A multi-turn entry (``multi_turn`` in its id) lists no functions: it names its
``involved_classes``, and :class:`BFCLDataset` gives it the ``function``
documents of those classes (``class_docs``: class name → a JSON Lines file of
documents, one per line, as bfcl-eval ships them), in class order, without the
functions its ``missed_function`` (``{turn: [names]}``) holds out, which become
those turns' documents instead.  A row of a relevance category (``irrelevance``,
``live_relevance`` …) without an answer gets an empty ``ground_truth``.

>>> language_docs([{"name": "f", "description": "Add.", "parameters": {"properties": {"a": {"type": "integer", "description": "A."}}}}], "java")
[{'name': 'f', 'description': 'Add. Note that the provided function is in Java 8 SDK syntax.', 'parameters': {'properties': {'a': {'type': 'string', 'description': 'A. This is Java integer type parameter in string representation.'}}}}]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from promptkit.data.loaders import JsonlDataset, Splits, _resolve
from promptkit.errors import ConfigError, DatasetError

__all__ = ["BFCLDataset", "category_of", "is_multi_turn", "language_docs"]

#: The hint BFCL appends to each function's description, by language (Python for every other category).
_HINTS = {
    "java": " Note that the provided function is in Java 8 SDK syntax.",
    "javascript": " Note that the provided function is in JavaScript syntax.",
    "python": " Note that the provided function is in Python 3 syntax.",
}
#: BFCL's names of the language whose objects a parameter of type ``any`` holds.
_LANGUAGES = {"java": "Java", "javascript": "JavaScript"}


def category_of(row_id: Any) -> str:
    """A BFCL row's category: its id without the trailing ``_<number>`` (``''`` without an id)."""
    return str(row_id).rsplit("_", 1)[0] if row_id is not None else ""


def is_multi_turn(row_id: Any) -> bool:
    """Whether a BFCL row is a multi-turn entry (BFCL's rule: ``multi_turn`` in its id)."""
    return "multi_turn" in str(row_id)


def language_docs(functions: Sequence[Mapping[str, Any]], category: str) -> list[dict[str, Any]]:
    """BFCL's function documents as its handlers write them for ``category`` (see the module docstring); new dicts."""
    hint = _HINTS.get(category, _HINTS["python"])
    out = []
    for function in functions:
        doc = {**function, "description": f"{function.get('description', '')}{hint}"}
        language = _LANGUAGES.get(category)
        if language is not None and isinstance(function.get("parameters"), Mapping):
            properties = {name: _as_string(dict(spec), language) for name, spec in function["parameters"].get("properties", {}).items()}
            doc["parameters"] = {**function["parameters"], "properties": properties}
        out.append(doc)
    return out


def _as_string(spec: dict[str, Any], language: str) -> dict[str, Any]:
    """A Java or JavaScript parameter as BFCL writes it: a string, its type told in its description."""
    kind = spec.get("type")
    if kind == "any":
        spec["description"] += f" This parameter can be of any type of {language} object in string representation."
    else:
        spec["description"] += f" This is {language} {kind} type parameter in string representation."
    if kind in (("ArrayList", "Array") if language == "Java" else ("array",)):
        spec["description"] += f" The list elements are of type {spec['items']['type']}; they are not in string representation."
        del spec["items"]
    if language == "JavaScript" and kind == "dict" and "properties" in spec:
        spec["description"] += f" The dictionary entries have the following schema; they are not in string representation. {json.dumps(spec['properties'])}"
        del spec["properties"]
    spec["type"] = "string"
    return spec


class BFCLDataset(JsonlDataset):
    """BFCL v3 rows from a data file (see the module docstring): multi-turn entries get their classes' functions.

    ``class_docs`` maps each class a multi-turn entry involves to its file of
    function documents (relative to the config's folder, like ``path``); for
    BFCL's own data, bfcl-eval's ``multi_turn_func_doc`` files.
    """

    def __init__(self, path: str | Mapping[str, str], class_docs: Mapping[str, str] | None = None, columns: Sequence[str] | None = None) -> None:
        super().__init__(path, columns)
        if class_docs is not None and (not isinstance(class_docs, Mapping) or not all(isinstance(v, str) for v in class_docs.values())):
            raise ConfigError(f"class_docs must be a dict of class name -> file of function documents (got {class_docs!r})", key="class_docs")
        self.class_docs = dict(class_docs or {})

    def load(self, base_dir: Path | None = None) -> Splits:
        """The rows by split, each multi-turn entry with its ``function`` and ``missed_function`` documents."""
        splits = super().load(base_dir)
        docs: dict[str, list[dict[str, Any]]] = {}
        prepare = lambda rows: [self._entry(row, index, docs, base_dir) for index, row in enumerate(rows)]  # noqa: E731 - used twice below
        return Splits(
            {split: prepare(rows) for split, rows in splits.by_name.items()},
            shared=prepare(splits.shared) if splits.shared is not None else None,
            schemas=splits.schemas,
        )

    def stream(self, base_dir: Path | None = None) -> Splits:
        """The rows, read at once: multi-turn entries are completed from their classes' files."""
        return self.load(base_dir)

    def _entry(self, row: dict[str, Any], index: int, docs: dict[str, list[dict[str, Any]]], base_dir: Path | None) -> dict[str, Any]:
        if "relevance" in category_of(row.get("id")) and "ground_truth" not in row:
            # BFCL's relevance categories have no answers (AISBench gives them a placeholder): an empty one.
            return {**row, "ground_truth": []}
        if not is_multi_turn(row.get("id")):
            return row
        classes = row.get("involved_classes")
        if not isinstance(classes, list) or not all(isinstance(name, str) for name in classes):
            raise DatasetError(f"multi-turn entry {row.get('id')!r} must list its involved_classes (got {classes!r})", row=index, key="involved_classes")
        functions: list[dict[str, Any]] = []
        for name in classes:
            if name not in docs:
                if name not in self.class_docs:
                    raise DatasetError(
                        f"multi-turn entry {row.get('id')!r} involves the class {name!r}, which class_docs does not name; "
                        f"add class_docs=dict({name}='<file of its function documents>') (known: {sorted(self.class_docs)})",
                        row=index,
                        key="class_docs",
                    )
                docs[name] = _read_docs(_resolve(self.class_docs[name], base_dir))
            functions.extend(docs[name])
        out = {**row, "function": functions}
        missed = row.get("missed_function")
        if missed is not None:
            held: dict[str, list[dict[str, Any]]] = {}
            for turn, names in missed.items():
                held[turn] = []
                for name in names:
                    position = next((i for i, doc in enumerate(functions) if doc.get("name") == name), None)
                    if position is None:
                        raise DatasetError(f"multi-turn entry {row.get('id')!r} holds out {name!r}, which none of its classes has", row=index, key="missed_function")
                    held[turn].append(functions.pop(position))
            out["missed_function"] = held
        return out

    def __repr__(self) -> str:
        return f"BFCLDataset(path={self.path!r}, class_docs={self.class_docs!r})"


def _read_docs(path: Path) -> list[dict[str, Any]]:
    """A class's function documents: one JSON object per line."""
    docs = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                docs.append(json.loads(line))
            except json.JSONDecodeError as error:
                raise DatasetError(f"{path}:{number}: a function document must be one JSON object per line ({error.msg})", file=str(path), line=number) from None
    return docs
