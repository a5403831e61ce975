"""Zero and FixK retrievers: which pool rows become shots, and their join settings."""

from __future__ import annotations

import pytest

from promptkit import FixKRetriever, ReaderConfig, RetrieverError, ZeroRetriever

READER = ReaderConfig.from_config(dict(input_columns=["q"], train_split="dev"))
POOL = [{"q": i} for i in range(5)]


def test_zero_picks_nothing_and_joins_with_nothing():
    """ZeroRetriever gives no shots for every query; separator '' and eos '' by default."""
    retriever = ZeroRetriever()
    assert retriever.retrieve(POOL, [{"q": 9}] * 3, READER) == [[], [], []]
    assert (retriever.ice_separator, retriever.ice_eos_token, retriever.ice_num) == ("", "", 0)


def test_fixk_gives_the_same_ids_in_order_to_every_query():
    """FixKRetriever returns fix_id_list, in the given order, for each query; defaults '\\n'."""
    retriever = FixKRetriever(fix_id_list=[3, 0, 2])
    assert retriever.retrieve(POOL, [{"q": 8}, {"q": 9}], READER) == [[3, 0, 2], [3, 0, 2]]
    assert (retriever.ice_separator, retriever.ice_eos_token) == ("\n", "\n")


def test_fixk_rejects_ids_past_the_pool():
    """An id past the pool names the id, the split and its size."""
    with pytest.raises(RetrieverError, match=r"fix_id_list id 5 is out of range: the train split 'dev' has 5 rows \(ids 0 to 4\)"):
        FixKRetriever(fix_id_list=[0, 5]).retrieve(POOL, [{"q": 1}], READER)


def test_fixk_rejects_non_integer_ids():
    """fix_id_list must be a list of integers."""
    with pytest.raises(RetrieverError, match=r"fix_id_list must be a list of row ids, in the order they are shown \(got '0,1'\)"):
        FixKRetriever(fix_id_list="0,1")  # type: ignore[arg-type]
    with pytest.raises(RetrieverError, match=r"fix_id_list must hold integers \(got '1' that is a str\)"):
        FixKRetriever(fix_id_list=[0, "1"])  # type: ignore[list-item]
    with pytest.raises(RetrieverError, match=r"in the order they are shown \(got \{0, 1\}\)"):
        FixKRetriever(fix_id_list={0, 1})


def test_join_settings_must_be_text():
    """ice_separator and ice_eos_token are strings; ice_num a count."""
    with pytest.raises(RetrieverError, match=r"ice_separator must be a str \(got 5 that is a int\)"):
        FixKRetriever(fix_id_list=[0], ice_separator=5)  # type: ignore[arg-type]
    with pytest.raises(RetrieverError, match=r"ice_eos_token must be a str \(got None that is a NoneType\)"):
        ZeroRetriever(ice_eos_token=None)  # type: ignore[arg-type]
