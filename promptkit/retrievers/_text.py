"""Tokens for lexical retrieval: words for alphabetic scripts, characters and character pairs for CJK.

Chinese and Japanese have no spaces between words, so a whitespace or
punctuation tokenizer sees a whole sentence as one token.  Without a
dictionary segmenter (and none is downloaded at run time), the usual remedy is
to index each CJK character and each pair of adjacent ones.  Everything is
lower-cased; punctuation separates tokens and is dropped.

>>> tokenize("What is BM25? 北京大学")
['what', 'is', 'bm25', '北', '京', '大', '学', '北京', '京大', '大学']
"""

from __future__ import annotations

import re

__all__ = ["tokenize"]

# CJK ideographs (with extension A, compatibility and the supplementary planes), kana and half-width katakana.
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u309f\u30a0-\u30ff\uff66-\uff9f\U00020000-\U0003134f"
_TOKEN = re.compile(f"([{_CJK}]+)|[^\\W_{_CJK}]+")
_HAS_CJK = re.compile(f"[{_CJK}]")
_WORD = re.compile(r"[^\W_]+")


def tokenize(text: str) -> list[str]:
    """Lower-cased words, then for each CJK run its characters followed by its adjacent pairs."""
    text = text.lower()
    if not _HAS_CJK.search(text):
        return _WORD.findall(text)
    tokens: list[str] = []
    for match in _TOKEN.finditer(text):
        run = match.group(1)
        if run is None:
            tokens.append(match.group())
        else:
            tokens.extend(run)
            tokens.extend(run[i : i + 2] for i in range(len(run) - 1))
    return tokens
