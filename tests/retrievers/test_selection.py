"""Selection parameters shared by Random and BM25: filter=dict(same=...), balance='label', and their errors."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promptkit import BM25Retriever, RandomRetriever, ReaderConfig, RetrieverError

READER = ReaderConfig.from_config(dict(input_columns=["q"], output_column="a", train_split="dev"))
# Labels: 'yes' ×6, 'no' ×3, 'maybe' ×2 (so the order of labels is yes, no, maybe); subjects alternate.
LABELS = ["yes", "no", "yes", "maybe", "yes", "no", "yes", "yes", "maybe", "no", "yes"]
POOL = [{"q": f"apple question number {i}", "a": label, "subject": ["fruit", "math"][i % 2]} for i, label in enumerate(LABELS)]
QUERY = {"q": "apple question", "a": "?", "subject": "math"}


def test_balance_round_robins_over_labels_most_frequent_first():
    """balance='label': yes, no, maybe, yes, no, … — each label's best-ranked rows first."""
    ranked = BM25Retriever(ice_num=11).retrieve(POOL, [QUERY], READER)[0]
    balanced = BM25Retriever(ice_num=5, balance="label").retrieve(POOL, [QUERY], READER)[0]
    assert [LABELS[i] for i in balanced] == ["yes", "no", "maybe", "yes", "no"]
    for label in ("yes", "no", "maybe"):
        assert [i for i in balanced if LABELS[i] == label] == [i for i in ranked if LABELS[i] == label][: sum(LABELS[i] == label for i in balanced)]


def test_balance_with_random_is_deterministic_and_balanced():
    """Random draws, balanced: the same shots for the same seed; label counts differ by at most one."""
    picked = RandomRetriever(ice_num=6, seed=5, balance="label").retrieve(POOL, [QUERY] * 4, READER)
    assert picked == RandomRetriever(ice_num=6, seed=5, balance="label").retrieve(POOL, [QUERY] * 4, READER)
    for shots in picked:
        assert Counter(LABELS[i] for i in shots) == {"yes": 2, "no": 2, "maybe": 2}


def test_filter_keeps_rows_with_the_same_value():
    """filter=dict(same='subject'): only pool rows of the test row's subject, for Random and BM25."""
    for retriever in (RandomRetriever(ice_num=3, filter=dict(same="subject")), BM25Retriever(ice_num=3, filter=dict(same="subject"))):
        for shots in retriever.retrieve(POOL, [QUERY, dict(QUERY, subject="fruit")], READER):
            assert len(shots) == 3
        math, fruit = retriever.retrieve(POOL, [QUERY, dict(QUERY, subject="fruit")], READER)
        assert all(POOL[i]["subject"] == "math" for i in math) and all(POOL[i]["subject"] == "fruit" for i in fruit)


def test_filter_and_balance_compose():
    """Both at once: same subject, then round-robin over labels."""
    shots = BM25Retriever(ice_num=3, filter=dict(same="subject"), balance="label").retrieve(POOL, [QUERY], READER)[0]
    assert all(POOL[i]["subject"] == "math" for i in shots)
    assert [LABELS[i] for i in shots] == ["yes", "no", "maybe"]


def test_too_few_candidates_is_logged(caplog):
    """A filter that leaves fewer rows than ice_num gives fewer shots and says so."""
    shots = BM25Retriever(ice_num=3, filter=dict(same="subject")).retrieve(POOL, [dict(QUERY, subject="art")], READER)
    assert shots == [[]]
    assert "BM25Retriever: 1 test row(s) got fewer than ice_num=3 shots" in caplog.text


def test_unknown_filter_column():
    """A filter column missing from the pool or from a test row is an error naming the column and the row."""
    with pytest.raises(RetrieverError, match=r"^key 'filter': filter=dict\(same='topic'\) but row 0 of the train split 'dev' has no column 'topic'; the row has \['a', 'q', 'subject'\]$"):
        BM25Retriever(ice_num=1, filter=dict(same="topic")).retrieve(POOL, [QUERY], READER)
    with pytest.raises(RetrieverError, match=r"^row 0, key 'filter': filter=dict\(same='subject'\) but test row 0 has no column 'subject'"):
        RandomRetriever(ice_num=1, filter=dict(same="subject")).retrieve(POOL, [{"q": "x", "a": "y"}], READER)


def test_bad_selection_parameters():
    """filter and balance take one documented form each."""
    with pytest.raises(RetrieverError, match=r"filter must be dict\(same='<column>'\): only pool rows whose column equals the test row's \(got 'subject'\)"):
        BM25Retriever(filter="subject")  # type: ignore[arg-type]
    with pytest.raises(RetrieverError, match=r"balance must be 'label' \(round-robin over the answer column's labels\) or None \(got 'labels'\)"):
        RandomRetriever(balance="labels")


def test_balance_needs_the_label_column():
    """balance='label' without an output column, or a pool row without it, is an error."""
    no_output = ReaderConfig.from_config(dict(input_columns=["q"]))
    with pytest.raises(RetrieverError, match=r"balance='label' balances the answer column's labels, but reader_cfg has no output_column"):
        BM25Retriever(ice_num=1, balance="label").retrieve(POOL, [QUERY], no_output)
    with pytest.raises(RetrieverError, match=r"balance='label' needs the answer column 'a', which row 1 of the train split 'dev' lacks"):
        RandomRetriever(ice_num=1, balance="label").retrieve([POOL[0], {"q": "no label"}], [QUERY], READER)


def test_filter_compares_single_values():
    """A list in the filter column cannot be compared: the error names the test row or the pool row."""
    with pytest.raises(RetrieverError, match=r"^row 0, key 'filter': filter=dict\(same='subject'\) compares single values, but test row 0 has \['math'\]$"):
        BM25Retriever(ice_num=1, filter=dict(same="subject")).retrieve(POOL, [dict(QUERY, subject=["math"])], READER)
    with pytest.raises(RetrieverError, match=r"but row 1 of the train split 'dev' has \['x'\]$"):
        RandomRetriever(ice_num=1, filter=dict(same="subject")).retrieve([POOL[0], dict(POOL[1], subject=["x"])], [QUERY], READER)


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.sampled_from(["red apple", "green apple", "blue car", "red car", "old tree"]), min_size=3, max_size=12),
    picks=st.lists(st.integers(0, 11), min_size=1, max_size=5),
    ice_num=st.integers(1, 3),
)
def test_no_shot_has_the_test_rows_text(texts, picks, ice_num):
    """Property: with the guard on, no retriever returns a shot whose text is the test row's — even with duplicates in the pool."""
    pool = [{"q": t, "a": str(i)} for i, t in enumerate(texts)]
    queries = [pool[i % len(pool)] for i in picks]
    retrievers = [RandomRetriever(ice_num=ice_num), RandomRetriever(ice_num=ice_num, per_row_seed=True), BM25Retriever(ice_num=ice_num)]
    for retriever in retrievers:
        if ice_num > len(pool):
            continue
        for query, shots in zip(queries, retriever.retrieve(pool, queries, READER), strict=True):
            assert all(pool[i]["q"] != query["q"] for i in shots)
            assert len(shots) == min(ice_num, sum(row["q"] != query["q"] for row in pool))
