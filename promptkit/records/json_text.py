"""The JSON text of what promptkit writes (records, engine lines, snapshot files, a view page's data): strict JSON, fast.

JSON has no NaN or Infinity, and ``json.dumps`` writes them as the bare words
``NaN`` and ``Infinity``, which strict parsers (``JSON.parse``, ``jq``, Go,
Rust, Java) refuse.  Rows bring them (pandas and CSV data spell a missing
value NaN), so :class:`JsonText` writes a float that is NaN or infinite as
``null``, JSON's missing value, and says where (:func:`finite`);
:class:`NonFinite` turns that into one warning.  A float used as a key is
written as ``json.dumps`` writes it (``"NaN"``, a string: valid JSON).

Speed: the C encoder is built once and refuses NaN (``allow_nan=False``);
only a value that holds one pays for a second pass.
"""

from __future__ import annotations

import json
import json.encoder
import logging
import math
import os
from typing import Any

__all__ = ["JsonText", "NonFinite", "finite"]

logger = logging.getLogger("promptkit.records")

#: How many places a warning names.
_SHOWN = 5


class JsonText:
    """``json.dumps(value, ensure_ascii=False)``, NaN and ±Infinity written as ``null``, from an encoder made once.

    ``json.dumps`` with any argument builds a ``JSONEncoder`` and then, per call, its C encoder: a third of the cost of
    encoding a small record.  Here the C encoder (``json.encoder.c_make_encoder``) is built once with the arguments
    ``JSONEncoder(ensure_ascii=False, allow_nan=False)`` gives it (``compact``: the separators ``,`` and ``:``);
    without the C accelerator, ``JSONEncoder.encode`` is reused.  It pickles as a new one (a worker started fresh
    builds its own).  A value holding NaN or an infinite float is written again with ``null`` in their places, and
    the places are appended to ``nulls`` when it is given.

    >>> JsonText()({"prompt": "é\\n", "ice_idx": [0, 1], "label": None}) == json.dumps({"prompt": "é\\n", "ice_idx": [0, 1], "label": None}, ensure_ascii=False)
    True
    >>> nulls = []
    >>> JsonText()({"gold": float("nan"), "request": {"scores": [1.5, float("-inf")]}}, nulls), nulls
    ('{"gold": null, "request": {"scores": [1.5, null]}}', ['gold', 'request.scores[1]'])
    """

    def __init__(self, compact: bool = False) -> None:
        self.compact = compact
        separators = (",", ":") if compact else (", ", ": ")
        self._encoder = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=separators)
        make = getattr(json.encoder, "c_make_encoder", None)  # the C accelerator (not in typeshed; None without it)
        # The arguments JSONEncoder.iterencode passes for a one-shot encode (markers: the circular-reference check).
        self._markers: dict[int, Any] = {}
        self._chunks = (
            None
            if make is None
            else make(self._markers, self._encoder.default, json.encoder.encode_basestring, None, separators[1], separators[0], False, False, False)
        )

    def __call__(self, value: Any, nulls: list[str] | None = None) -> str:
        # The C encoder leaves the containers it was inside marked when it raises: the marks are cleared, or the next
        # value that reuses their addresses would be taken for a circular reference.
        try:
            return self._encode(value)
        except ValueError:  # NaN or an infinite float (anything else the encoder refuses fails again below)
            self._markers.clear()
        except BaseException:
            self._markers.clear()
            raise
        try:
            return self._encode(finite(value, nulls))
        finally:
            self._markers.clear()

    def _encode(self, value: Any) -> str:
        if self._chunks is None or isinstance(value, str):  # no accelerator, or JSONEncoder.encode's own path for a bare string
            return self._encoder.encode(value)
        return "".join(self._chunks(value, 0))

    def __reduce__(self) -> tuple[type[JsonText], tuple[bool]]:
        return JsonText, (self.compact,)


def finite(value: Any, nulls: list[str] | None = None, where: str = "") -> Any:
    """``value`` with every NaN and infinite float (in dicts, lists and tuples) as ``None``; their places appended to
    ``nulls`` (``key.key[index]``). Parts that hold none are the same objects, and so is ``value`` when it holds none.

    >>> finite({"a": [1.0, float("inf")], "b": "x"})
    {'a': [1.0, None], 'b': 'x'}
    """
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        if nulls is not None:
            nulls.append(where or "(the value)")
        return None
    if isinstance(value, dict):
        changed = {}
        for key, item in value.items():
            new = finite(item, nulls, f"{where}.{key}" if where else str(key))
            if new is not item:
                changed[key] = new
        if not changed and not any(isinstance(key, float) and not math.isfinite(key) for key in value):
            return value
        out = {**value, **changed}
        # A float key is written as a string (json.dumps's "NaN"): valid JSON, nothing lost; the strict encoder refuses it.
        return {json.dumps(key) if isinstance(key, float) and not math.isfinite(key) else key: item for key, item in out.items()}
    if isinstance(value, (list, tuple)):
        items = [finite(item, nulls, f"{where}[{index}]") for index, item in enumerate(value)]
        return value if all(new is old for new, old in zip(items, value, strict=True)) else items
    return value


class NonFinite:
    """Where NaN or Infinity were written as ``null`` (:class:`JsonText`'s ``nulls``), for one warning.

    :meth:`note` collects the records (by name) and their fields; :meth:`warn` logs one warning naming how many
    and the first five, then starts again. A note that travelled into another process (a ``--workers`` process,
    forked or unpickled) cannot report to the one that made it: there the first record noted is warned about at
    once, and the process warns no more.
    """

    def __init__(self) -> None:
        self._made_in = os.getpid()
        self._places: list[str] = []
        self._count = 0
        self._warned_here = False

    def note(self, record_id: str, model: str | None, fields: list[str]) -> None:
        """The record of prompt ``record_id`` (for ``model``) had ``fields`` written as null."""
        place = f"{record_id}{'' if model is None else f' of model {model!r}'} ({', '.join(fields)})"
        if os.getpid() != self._made_in:
            if not self._warned_here:
                self._warned_here = True
                logger.warning("%s (a worker process; it does not warn again)", _message(1, [place]))
            return
        self._count += 1
        if len(self._places) < _SHOWN:
            self._places.append(place)

    def warn(self) -> None:
        """One warning for the records noted since the last one, if any."""
        if self._count:
            logger.warning("%s", _message(self._count, self._places))
        self._places, self._count = [], 0


def _message(count: int, places: list[str]) -> str:
    shown = ", ".join(places) + (", ..." if count > len(places) else "")
    return f"{count} record(s) held NaN or Infinity, which JSON has no value for; written as null: {shown}"
