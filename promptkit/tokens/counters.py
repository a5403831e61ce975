"""Token counters for ``max_seq_len``: a model config's ``tokenizer``.

A model config may name how its prompts are counted::

    tokenizer=dict(type='HFTokenizer', path='models/llama3/tokenizer.json')   # Hugging Face `tokenizers`, local file
    tokenizer=dict(type='TiktokenTokenizer', encoding='cl100k_base')          # tiktoken, file already in its cache
    tokenizer=my_function                                                     # any callable str -> int

Nothing is downloaded: the tokenizer file must be on disk.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from promptkit.errors import ConfigError, check_keys, did_you_mean, require

__all__ = ["HFTokenizer", "TiktokenTokenizer", "build_tokenizer"]

TokenCounter = Callable[[str], int]


class HFTokenizer:
    """Counts tokens with a Hugging Face ``tokenizer.json`` (the ``tokenizers`` library), special tokens not added.

    Counting the final prompt text, which already holds any special tokens
    the meta template writes, matches what the model receives.  Padding and
    truncation saved in the file (an embedding model's ``"padding":
    {"length": 128}``) are turned off, so a count is the text's true length.
    """

    def __init__(self, path: str | os.PathLike[str], add_special_tokens: bool = False) -> None:
        file = Path(path)
        if not file.is_file():
            raise ConfigError(
                f"tokenizer file {str(file)!r} does not exist; give the path of a Hugging Face tokenizer.json on this machine",
                key="tokenizer.path",
            )
        tokenizers = require("tokenizers", "tokenizers", "HFTokenizer")
        try:
            self._tokenizer = tokenizers.Tokenizer.from_file(str(file))
        except Exception as error:  # the library raises a bare Exception for a malformed file
            raise ConfigError(f"cannot read tokenizer file {str(file)!r}: {error}", key="tokenizer.path") from error
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        self.path = file
        self.add_special_tokens = add_special_tokens

    def __call__(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=self.add_special_tokens).ids)

    def encode_offsets(self, text: str) -> tuple[list[int], list[tuple[int, int]]]:
        """The token ids of ``text`` and each token's character span in it (the token view, :mod:`promptkit.records.token_view`)."""
        encoding = self._tokenizer.encode(text, add_special_tokens=self.add_special_tokens)
        return encoding.ids, encoding.offsets

    def __repr__(self) -> str:
        return f"HFTokenizer(path={str(self.path)!r})"


class TiktokenTokenizer:
    """Counts tokens with a ``tiktoken`` encoding whose file is already local (``TIKTOKEN_CACHE_DIR``)."""

    def __init__(self, encoding: str) -> None:
        tiktoken = require("tiktoken", "tiktoken", "TiktokenTokenizer")
        try:
            self._encoding = tiktoken.get_encoding(encoding)
        except Exception as error:  # unknown name (ValueError) or the file is not cached and cannot be fetched
            raise ConfigError(
                f"cannot load the tiktoken encoding {encoding!r} ({type(error).__name__}: {error}); tiktoken needs its file in "
                "TIKTOKEN_CACHE_DIR, since nothing is downloaded at run time",
                key="tokenizer.encoding",
            ) from error
        self.encoding = encoding

    def __call__(self, text: str) -> int:
        return len(self._encoding.encode(text, disallowed_special=()))

    def __repr__(self) -> str:
        return f"TiktokenTokenizer(encoding={self.encoding!r})"


_TYPES: dict[str, type] = {"HFTokenizer": HFTokenizer, "TiktokenTokenizer": TiktokenTokenizer}
_KEYS = {"HFTokenizer": ("type", "path", "add_special_tokens"), "TiktokenTokenizer": ("type", "encoding")}


def build_tokenizer(value: Any) -> TokenCounter:
    """A model config's ``tokenizer``: a callable, or ``dict(type='HFTokenizer'|'TiktokenTokenizer', ...)``."""
    if callable(value):
        return value  # type: ignore[no-any-return]
    if not isinstance(value, Mapping) or "type" not in value:
        raise ConfigError(
            f"tokenizer must be a callable str -> int or a dict such as dict(type='HFTokenizer', path='tokenizer.json') (got {value!r})",
            key="tokenizer",
        )
    kind = value["type"]
    name = kind.__name__ if isinstance(kind, type) else str(kind).rsplit(".", 1)[-1]
    if name not in _TYPES:
        raise ConfigError(f"unknown tokenizer type {name!r}{did_you_mean(name, _TYPES)}; known: {', '.join(_TYPES)}", key="tokenizer.type")
    check_keys(value, _KEYS[name], f"tokenizer {name}", key_prefix="tokenizer.")
    try:
        return _TYPES[name](**{k: v for k, v in value.items() if k != "type"})  # type: ignore[no-any-return]
    except TypeError as error:
        raise ConfigError(f"tokenizer {name}: {error}", key="tokenizer") from None
