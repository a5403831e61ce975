"""CoverageRetriever: shots chosen as a set covering the test row's words; ties, the guard, filters, configs, bad input."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promptkit import BM25Retriever, ConfigError, ReaderConfig, Renderer, RetrieverError, build_dataset
from promptkit.retrievers.coverage import CoverageRetriever, aspects

READER = ReaderConfig.from_config(dict(input_columns=["q"], output_column="a"))

POOL = [
    {"q": "what is the boiling point of water", "a": "100", "topic": "physics"},
    {"q": "what is the boiling point of water at sea level", "a": "100", "topic": "physics"},
    {"q": "how many moons does mars have", "a": "2", "topic": "space"},
    {"q": "what is the freezing point of water", "a": "0", "topic": "physics"},
    {"q": "the mass of mars in kilograms", "a": "6e23", "topic": "space"},
]
QUERY = {"q": "boiling point of water on mars", "a": "?", "topic": "space"}


def test_the_shots_cover_the_question_together():
    """BM25 takes two near-copies about water; coverage takes one of them and a row about Mars."""
    pytest.importorskip("bm25s")
    assert BM25Retriever(ice_num=2).retrieve(POOL, [QUERY], READER) == [[0, 1]]
    assert CoverageRetriever(ice_num=2).retrieve(POOL, [QUERY], READER) == [[0, 2]]


def test_after_the_words_are_covered_the_rest_follow_by_shared_weight():
    """With more shots than new aspects, the rows left follow by the weight of what they share, then pool order."""
    shots = CoverageRetriever(ice_num=5, ngram=1).retrieve(POOL, [QUERY], READER)[0]
    assert shots[:2] == [0, 2] and sorted(shots) == [0, 1, 2, 3, 4]
    assert shots[2:] == [1, 3, 4]  # 1 shares four words with the test row, 3 three, 4 two


def test_equal_gains_go_to_the_earlier_row():
    """Rows of the same text tie: the earliest is taken, so runs agree."""
    pool = [{"q": "red apple"}, {"q": "green pear"}, {"q": "red apple"}, {"q": "green pear"}]
    reader = ReaderConfig.from_config(dict(input_columns=["q"]))
    assert CoverageRetriever(ice_num=2, leakage_guard=False).retrieve(pool, [{"q": "green apple"}], reader) == [[0, 1]]


def test_a_copy_of_the_test_row_is_never_a_shot(caplog):
    """The test row's own copy (normalised) is dropped and counted; the others cover the row instead."""
    query = {"q": "How many moons does Mars have?", "a": "?"}
    with caplog.at_level(logging.WARNING, logger="promptkit.retrievers"):
        shots = CoverageRetriever(ice_num=2).retrieve(POOL, [query], READER)[0]
    assert 2 not in shots and shots == [4, 0]
    assert "CoverageRetriever: leakage guard dropped 1 candidate shot(s) for 1 test row(s)" in caplog.records[0].getMessage()
    assert CoverageRetriever(ice_num=1, leakage_guard=False).retrieve(POOL, [query], READER) == [[2]]


def test_filter_and_balance_compose():
    """filter=dict(same=...) keeps rows of the test row's topic; balance='label' alternates answers."""
    # Among the space rows, 4 covers "of" and "mars", 2 only "mars".
    assert CoverageRetriever(ice_num=2, filter=dict(same="topic")).retrieve(POOL, [QUERY], READER) == [[4, 2]]
    assert CoverageRetriever(ice_num=2, balance="label").retrieve(POOL, [QUERY], READER) == [[0, 2]]


def test_aspects_are_words_and_word_pairs():
    """ngram=2 counts each distinct word and pair of adjacent words once."""
    assert aspects(["a", "b", "a", "b"], 2) == {("a",), ("b",), ("a", "b"), ("b", "a")}
    assert aspects(["a", "b"], 1) == {("a",), ("b",)}


pools = st.lists(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=6).map(" ".join), min_size=1, max_size=12)


@settings(max_examples=100, deadline=None)
@given(pools, st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=6).map(" ".join), st.integers(1, 12))
def test_each_shot_covers_something_new_until_nothing_is_left(texts, query, ice_num):
    """Distinct shots; while a shot adds an uncovered aspect of the test row, every earlier one did too; deterministic."""
    pool = [{"q": text} for text in texts]
    reader = ReaderConfig.from_config(dict(input_columns=["q"]))
    ice_num = min(ice_num, len(pool))
    retriever = CoverageRetriever(ice_num=ice_num, leakage_guard=False)
    shots = retriever.retrieve(pool, [{"q": query}], reader)[0]
    assert len(shots) == len(set(shots)) == ice_num
    wanted, covered, adds = aspects(query.split(), 2), set(), []
    for index in shots:
        held = aspects(texts[index].split(), 2) & wanted
        adds.append(bool(held - covered))
        covered |= held
    assert adds == sorted(adds, reverse=True)
    assert CoverageRetriever(ice_num=ice_num, leakage_guard=False).retrieve(pool, [{"q": query}], reader) == [shots]


def test_type_in_a_dataset_config():
    """type='CoverageRetriever' works in a config: the registry finds the class in its module."""
    dataset = build_dataset(
        dict(
            abbr="cover",
            type="RowsDataset",
            rows=dict(train=POOL, test=[QUERY]),
            reader_cfg=dict(input_columns=["q"], output_column="a"),
            infer_cfg=dict(
                ice_template=dict(type="PromptTemplate", template="Q: {q}\nA: {a}\n"),
                prompt_template=dict(type="PromptTemplate", template="</E>Q: {q}\nA: {a}", ice_token="</E>"),
                retriever=dict(type="CoverageRetriever", ice_num=2),
                inferencer=dict(type="GenInferencer"),
            ),
        )
    )
    prompt = Renderer(dataset).render(0)[0]
    assert prompt.ice_idx == [0, 2]
    assert prompt.prompt == (
        "Q: what is the boiling point of water\nA: 100\n\nQ: how many moons does mars have\nA: 2\n\nQ: boiling point of water on mars\nA: "
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (dict(ngram=0), "key 'ngram': ngram must be a positive int, the longest word n-gram to cover (got 0)"),
        (dict(tokenizer="words"), "key 'tokenizer': tokenizer must be a function str -> list[str] (got 'words')"),
        (dict(ngrams=2), "key 'infer_cfg.retriever.ngrams': CoverageRetriever has no parameter 'ngrams' (did you mean 'ngram'?)"),
    ],
)
def test_bad_options_name_the_key(options, message):
    """A bad option is one ConfigError or RetrieverError naming the dataset, the key and what is expected."""
    cfg = dict(
        abbr="cover",
        type="RowsDataset",
        rows=POOL,
        reader_cfg=dict(input_columns=["q"], output_column="a"),
        infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="{q}"), retriever=dict(type="CoverageRetriever", **options), inferencer=dict(type="GenInferencer")),
    )
    with pytest.raises((ConfigError, RetrieverError)) as info:
        build_dataset(cfg)
    assert str(info.value).startswith(f"dataset 'cover', {message}")
