"""Token counters: counts are the text's own length, whatever the tokenizer file says about padding."""

from __future__ import annotations

from pathlib import Path

import pytest

from promptkit.tokens.counters import HFTokenizer

tokenizers = pytest.importorskip("tokenizers")


@pytest.fixture()
def padded_tokenizer_json(tmp_path: Path) -> Path:
    """A word-level tokenizer.json saved with padding to 128 and truncation at 4, as embedding models ship theirs."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"[PAD]": 0, "[UNK]": 1, "hi": 2, "there": 3}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.enable_padding(length=128, pad_id=0, pad_token="[PAD]")
    tokenizer.enable_truncation(max_length=4)
    path = tmp_path / "tokenizer.json"
    tokenizer.save(str(path))
    assert len(Tokenizer.from_file(str(path)).encode("hi").ids) == 128  # the file really pads
    return path


def test_saved_padding_does_not_inflate_counts(padded_tokenizer_json: Path):
    """'hi' counts 1 token, not the 128 the file's padding would make."""
    assert HFTokenizer(padded_tokenizer_json)("hi") == 1


def test_saved_truncation_does_not_cap_counts(padded_tokenizer_json: Path):
    """A ten-word text counts 10 tokens, not the 4 the file's truncation would keep."""
    assert HFTokenizer(padded_tokenizer_json)(" ".join(["hi", "there"] * 5)) == 10
