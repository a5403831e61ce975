"""BM25Retriever: rank_bm25's ranking on the same tokens, CJK tokens, deterministic ties, the guard, bad input."""

from __future__ import annotations

import logging

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promptkit import BM25Retriever, ConfigError, MissingDependencyError, ReaderConfig, RetrieverError
from promptkit.retrievers._text import tokenize
from promptkit.retrievers.bm25 import BM25Index

rank_bm25 = pytest.importorskip("rank_bm25")

READER = ReaderConfig.from_config(dict(input_columns=["q"], output_column="a"))
K1 = 1.5

documents = st.lists(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=12), min_size=2, max_size=40)


def ranking(scores: np.ndarray) -> list[int]:
    """Best first, equal scores (to 9 decimals, so float noise cannot reorder them) in pool order."""
    rounded = np.round(scores, 9)
    return np.lexsort((np.arange(len(scores)), -rounded)).tolist()


@settings(max_examples=200, deadline=None)
@given(corpus=documents, query=st.lists(st.sampled_from("abcdefghij"), min_size=1, max_size=6))
def test_ranking_equals_rank_bm25_okapi(corpus, query):
    """On the same tokens, the scores are BM25Okapi's over (k1 + 1) and the ranking is identical — common terms included."""
    reference = rank_bm25.BM25Okapi(corpus).get_scores(query)
    ours = BM25Index(corpus).scores(query)
    np.testing.assert_allclose(ours * (K1 + 1), reference, rtol=1e-9, atol=1e-12)
    assert ranking(ours * (K1 + 1)) == ranking(reference)


def test_picks_the_best_matches_best_first():
    """The row sharing the most rare words comes first."""
    pool = [{"q": t} for t in ("the cat sat on the mat", "dogs chase the cat", "quantum physics lecture", "the cat and the hat sat")]
    picked = BM25Retriever(ice_num=2).retrieve(pool, [{"q": "where the cat sat"}], READER)
    assert picked == [[0, 3]]


def test_chinese_text_matches_by_characters():
    """CJK text without spaces still matches: characters and adjacent pairs are tokens."""
    assert tokenize("北京大学的学生") == ["北", "京", "大", "学", "的", "学", "生", "北京", "京大", "大学", "学的", "的学", "学生"]
    pool = [{"q": "上海是一个城市"}, {"q": "北京大学在北京"}, {"q": "今天天气很好"}]
    assert BM25Retriever(ice_num=1).retrieve(pool, [{"q": "北京大学的学生"}], READER) == [[1]]


def test_mixed_scripts_and_punctuation():
    """Latin words are lower-cased and split at punctuation; kana and CJK runs split from Latin words."""
    assert tokenize("GPT-4o：日本語テスト, ok_go") == ["gpt", "4o", "日", "本", "語", "テ", "ス", "ト", "日本", "本語", "語テ", "テス", "スト", "ok", "go"]


def test_ties_are_broken_by_pool_order():
    """Rows with equal scores come in pool order, every time."""
    pool = [{"q": "alpha"}, {"q": "beta"}, {"q": "alpha"}, {"q": "gamma"}, {"q": "alpha"}]
    for _ in range(3):
        assert BM25Retriever(ice_num=3).retrieve(pool, [{"q": "alpha please"}], READER) == [[0, 2, 4]]


def test_custom_tokenizer():
    """tokenizer= replaces the default (here: one token per whitespace word, case kept)."""
    pool = [{"q": "Apple pie"}, {"q": "apple tart"}, {"q": "cherry pie"}, {"q": "plum cake"}]
    assert BM25Retriever(ice_num=1, tokenizer=str.split).retrieve(pool, [{"q": "apple"}], READER) == [[1]]
    assert BM25Retriever(ice_num=1).retrieve(pool, [{"q": "apple"}], READER) == [[0]]
    with pytest.raises(RetrieverError, match=r"tokenizer must be a function str -> list\[str\] \(got 'split'\)"):
        BM25Retriever(tokenizer="split")  # type: ignore[arg-type]


def test_leakage_guard_skips_the_test_row(caplog):
    """When the test rows are the pool, a row's own text (its best match) is skipped, and the skip is logged."""
    pool = [{"q": t} for t in ("red apple pie", "green apple pie", "red fast car", "blue fast car", "yellow banana", "purple grape")]
    with caplog.at_level(logging.WARNING, logger="promptkit.retrievers"):
        picked = BM25Retriever(ice_num=1).retrieve(pool, pool[:4], READER)
    assert picked == [[1], [0], [3], [2]]
    assert "BM25Retriever: leakage guard dropped 4 candidate shot(s) for 4 test row(s)" in caplog.records[0].getMessage()
    assert BM25Retriever(ice_num=1, leakage_guard=False).retrieve(pool, pool[:4], READER) == [[0], [1], [2], [3]]


def test_ice_num_larger_than_pool():
    """ice_num above the pool size is an error naming the split."""
    with pytest.raises(RetrieverError, match=r"ice_num=3 is larger than the train split 'train', which has 2 rows"):
        BM25Retriever(ice_num=3).retrieve([{"q": "a"}, {"q": "b"}], [{"q": "a"}], READER)


def test_missing_bm25s_names_the_extra(monkeypatch):
    """Without bm25s installed, the error gives the pip command."""
    import sys

    monkeypatch.setitem(sys.modules, "bm25s", None)
    with pytest.raises(MissingDependencyError, match=r"BM25Retriever needs the optional package 'bm25s', which is not installed; install it with pip install 'promptkit\[bm25\]'"):
        BM25Retriever(ice_num=1).retrieve([{"q": "a"}], [{"q": "a"}], READER)


def test_input_template_is_the_indexed_text():
    """reader_cfg.input_template (as in OpenCompass) decides the text compared: here the topic, not the question."""
    reader = ReaderConfig.from_config(
        dict(input_columns=["q"], output_column="a", input_template=dict(type="PromptTemplate", template="topic {topic}"))
    )
    pool = [{"q": "boats and sails", "topic": "cooking", "a": "1"}, {"q": "soup recipes", "topic": "sailing", "a": "2"}, {"q": "x", "topic": "art", "a": "3"}]
    query = [{"q": "soup recipes", "topic": "sailing", "a": "?"}]
    assert reader.input_text(pool[0]) == "topic cooking"
    assert BM25Retriever(ice_num=1, leakage_guard=False).retrieve(pool, query, reader) == [[1]]
    assert BM25Retriever(ice_num=1, leakage_guard=False).retrieve(pool, [{"q": "boats", "topic": "cooking", "a": "?"}], reader) == [[0]]
    with pytest.raises(ConfigError, match=r"input_template must be dict\(type=PromptTemplate, template=...\), the text retrievers compare \(got 'topic'\)"):
        ReaderConfig.from_config(dict(input_columns=["q"], input_template="topic"))


def test_a_pool_without_any_word_is_an_error():
    """Punctuation-only input columns leave BM25 nothing to index: a RetrieverError naming reader_cfg.input_columns."""
    reader = ReaderConfig.from_config(dict(input_columns=["q"], output_column="a"))
    pool = [{"q": "???", "a": "1"}, {"q": "!!!", "a": "2"}, {"q": "...", "a": "3"}]
    with pytest.raises(RetrieverError, match=r"key 'reader_cfg.input_columns': no row of the train split 'train' has a word to index"):
        BM25Retriever(ice_num=2).retrieve(pool, [{"q": "what?", "a": "x"}], reader)
