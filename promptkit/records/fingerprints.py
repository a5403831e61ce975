"""Fingerprints and provenance: which input a model received, and what it was made from.

Every hash is ``"sha256:"`` and the first 16 hex digits of SHA-256 over bytes:

* the **fingerprint** of a final input hashes the completion string's UTF-8 bytes, or, for chat
  messages, their canonical JSON (:func:`canonical`); a completion prompt with media hashes the
  canonical JSON of ``[prompt, media]``;
* the **provenance** of a prompt hashes its sources: ``template`` (the prompt and ice templates'
  config), ``meta_template``, ``chat_template`` (the templates and special tokens), ``tokenizer``
  (the files of the model folder and the ``tokenizer`` file), ``shots`` (the shot ids, ``ice_idx``)
  and ``row`` (the test row as loaded); a source the prompt has none of is ``None``.

The sources of a dataset × model are hashed once (:class:`Sources`); per prompt only the row
(once per row) and the final input are.

>>> fingerprint("Hello")
'sha256:185f8db32271fe25'
>>> canonical({"b": 1, "a": "é"})
b'{"a":"\\xc3\\xa9","b":1}'
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["Sources", "canonical", "digest", "fingerprint"]

_SHA = hashlib.sha256
_MODEL_FOLDER_FILES = ("tokenizer_config.json", "special_tokens_map.json", "tokenizer.json")


def digest(data: bytes) -> str:
    """``"sha256:"`` and the first 16 hex digits of SHA-256 over ``data``."""
    return "sha256:" + _SHA(data).hexdigest()[:16]


def _plain(value: Any) -> Any:
    """What JSON cannot encode, as stable text: a class or function by its qualified name, anything else by ``str()``."""
    if isinstance(value, (set, frozenset)):
        return sorted(map(str, value))
    if isinstance(value, type) or callable(value):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', type(value).__qualname__)}"
    if isinstance(value, bytes):
        return value.hex()
    return str(value)


_ENCODE = json.JSONEncoder(ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=_plain).encode


def canonical(value: Any) -> bytes:
    """The canonical encoding hashed: JSON with sorted keys, no spaces, UTF-8 (other values by :func:`_plain`; keys
    that are not all strings, such as a label dict's ``0`` beside ``'A'``, as their ``str()``)."""
    try:
        return _ENCODE(value).encode()
    except TypeError:  # keys of mixed types cannot be sorted, and tuple keys cannot be encoded
        return _ENCODE(_string_keys(value)).encode()


def _string_keys(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(key): _string_keys(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_string_keys(item) for item in value]
    return value


def fingerprint(prompt: str | Sequence[Mapping[str, Any]], media: Sequence[Mapping[str, Any]] | None = None) -> str:
    """The hash of a final input (see the module docstring)."""
    if media:
        return digest(canonical([prompt, media]))
    if type(prompt) is str:
        return digest(prompt.encode())
    return digest(canonical(prompt))


def _template_source(template: Any) -> Any:
    if template is None:
        return None
    return {
        "type": type(template).__qualname__,
        "template": getattr(template, "template", None) if hasattr(template, "template") else repr(template),
        "ice_token": getattr(template, "ice_token", None),
        "sep_token": getattr(template, "sep_token", None),
    }


def _files_digest(files: Sequence[Path]) -> str | None:
    found = [file for file in files if file.is_file()]
    if not found:
        return None
    sha = _SHA()
    for file in found:
        sha.update(canonical([file.name, _SHA(file.read_bytes()).hexdigest()]))
    return "sha256:" + sha.hexdigest()[:16]


class Sources:
    """The hashes a dataset × model's prompts share, computed once; :meth:`provenance` adds a prompt's shots and row."""

    __slots__ = ("_last_row", "_shots", "static")

    def __init__(self, prompt_template: Any, ice_template: Any, model: Any) -> None:
        meta = getattr(model, "meta_template", None)
        chat = getattr(model, "chat_template", None)
        files: list[Path] = []
        origin = getattr(chat, "origin", "inline")
        if chat is not None and origin != "inline":
            files += [Path(origin) / name for name in _MODEL_FOLDER_FILES]
        tokenizer_file = getattr(getattr(model, "token_counter", None), "path", None)
        if isinstance(tokenizer_file, Path):
            files.append(tokenizer_file)
        self.static: tuple[tuple[str, str | None], ...] = (
            ("template", digest(canonical({"prompt_template": _template_source(prompt_template), "ice_template": _template_source(ice_template)}))),
            ("meta_template", digest(canonical(dataclasses.asdict(meta))) if meta is not None else None),
            (
                "chat_template",
                digest(canonical({"templates": chat.templates, "special_tokens": chat.special_tokens, "added_tokens": chat.added_tokens}))
                if chat is not None
                else None,
            ),
            ("tokenizer", _files_digest(files)),
        )
        policy = getattr(model, "system_policy", None)
        if policy is not None and policy.configured == "auto":  # what the probe of the chat template decided
            self.static += tuple(policy.dump().items())
        #: The last shots and row hashed with their hashes, each one tuple (swapped whole): consecutive prompts with the
        #: same shots (FixK) or of the same row (ppl labels) hash them once; nothing grows with the rows.
        self._shots: tuple[Sequence[int] | None, str] = (None, "")
        self._last_row: tuple[Any, str] = (None, "")

    def provenance(self, ice_idx: Sequence[int], row: Mapping[str, Any] | None) -> dict[str, str | None]:
        """The provenance of a prompt with shots ``ice_idx`` of ``row`` (see the module docstring)."""
        last, shots = self._shots
        if last != ice_idx:
            shots = digest(canonical(ice_idx))
            self._shots = (list(ice_idx), shots)
        out = dict(self.static)
        out["shots"] = shots
        out["row"] = self.row(row) if row is not None else None
        return out

    def row(self, row: Mapping[str, Any]) -> str:
        """The hash of a row: the canonical JSON of its columns, those holding ``None`` left out (a column some rows lack
        is ``None`` in the others once the rows pass through a columnar store such as Ray Data's)."""
        last, hashed = self._last_row
        if last is row:
            return hashed
        hashed = digest(canonical({key: value for key, value in row.items() if value is not None}))
        self._last_row = (row, hashed)
        return hashed
