"""RandomRetriever and SlidingWindowRetriever: reproducible picks, per-row seeding, the leakage guard, bad input.

Equality with OpenCompass's indices (seeds 1, 43, 2026) and SlidingWindow's
documented example are parity cases: tests/parity/cases.json, recorded from
OpenCompass 0.5.4 itself.
"""

from __future__ import annotations

import logging

import pytest

from promptkit import RandomRetriever, ReaderConfig, RetrieverError, SlidingWindowRetriever

READER = ReaderConfig.from_config(dict(input_columns=["q"], output_column="a", train_split="dev"))
POOL = [{"q": f"pool question {i}", "a": str(i)} for i in range(50)]
QUERIES = [{"q": f"test question {i}", "a": str(i), "id": f"t{i}"} for i in range(20)]


def test_picks_distinct_pool_rows():
    """Each row gets ice_num distinct pool indices."""
    picked = RandomRetriever(ice_num=6, seed=7).retrieve(POOL, QUERIES, READER)
    assert len(picked) == len(QUERIES)
    for shots in picked:
        assert len(shots) == 6 == len(set(shots))
        assert all(0 <= i < len(POOL) for i in shots)


def test_default_stream_depends_on_position():
    """OpenCompass's stream: dropping the first test row changes the shots of the others."""
    full = RandomRetriever(ice_num=3).retrieve(POOL, QUERIES, READER)
    limited = RandomRetriever(ice_num=3).retrieve(POOL, QUERIES[1:], READER)
    assert limited != full[1:]


def test_per_row_seed_is_stable_under_limit_shard_and_reorder():
    """per_row_seed: a row's shots depend only on the seed and the row, not on which rows come before it."""
    retriever = RandomRetriever(ice_num=4, seed=11, per_row_seed=True)
    full = retriever.retrieve(POOL, QUERIES, READER)
    assert retriever.retrieve(POOL, QUERIES[5:12], READER) == full[5:12]
    assert retriever.retrieve(POOL, QUERIES[::-1], READER) == full[::-1]
    assert RandomRetriever(ice_num=4, seed=12, per_row_seed=True).retrieve(POOL, QUERIES, READER) != full


def test_per_row_seed_by_id_column_ignores_text():
    """With id_column, the id alone seeds the row: the same id with another text gets the same shots."""
    retriever = RandomRetriever(ice_num=4, per_row_seed=True, id_column="id")
    edited = [dict(row, q=row["q"] + " (edited)") for row in QUERIES]
    assert retriever.retrieve(POOL, edited, READER) == retriever.retrieve(POOL, QUERIES, READER)


def test_leakage_guard_skips_the_test_row_and_logs(caplog):
    """When test rows are pool rows, no row gets itself as a shot; the guard logs what it skipped."""
    rows = POOL[:8]
    with caplog.at_level(logging.WARNING, logger="promptkit.retrievers"):
        guarded = RandomRetriever(ice_num=7, seed=3).retrieve(rows, rows, READER)
    assert [sorted(shots) for shots in guarded] == [[i for i in range(8) if i != index] for index in range(8)]
    message = caplog.records[0].getMessage()
    assert message.startswith("RandomRetriever: leakage guard dropped ")
    assert message.endswith(
        "because their input text is equal or near-equal after normalisation to the test row's (7 exact, 0 differing only in case, "
        "width, whitespace or punctuation); pass leakage_guard=False to keep them"
    )


def test_leakage_guard_keeps_opencompass_order_elsewhere():
    """Rows whose draw holds no leak keep the unguarded indices; the others skip to the next row of the same order."""
    rows = POOL[:10]
    plain = RandomRetriever(ice_num=3, leakage_guard=False).retrieve(rows, rows, READER)
    guarded = RandomRetriever(ice_num=3).retrieve(rows, rows, READER)
    for index, (before, after) in enumerate(zip(plain, guarded, strict=True)):
        if index in before:
            assert index not in after and [i for i in before if i != index] == after[:2]
        else:
            assert after == before
    assert any(index in shots for index, shots in enumerate(plain)), "fixture must contain a leak"


def test_leakage_guard_with_per_row_seed():
    """The guard works with per-row seeding too: duplicates of the test text are skipped."""
    rows = POOL[:6]
    picked = RandomRetriever(ice_num=5, per_row_seed=True).retrieve(rows, rows, READER)
    assert [sorted(s) for s in picked] == [[i for i in range(6) if i != n] for n in range(6)]


def test_ice_num_larger_than_pool():
    """ice_num above the pool size names the split, its size and what to do."""
    with pytest.raises(RetrieverError, match=r"^key 'ice_num': ice_num=51 is larger than the train split 'dev', which has 50 rows; lower ice_num to at most 50$"):
        RandomRetriever(ice_num=51).retrieve(POOL, QUERIES, READER)


def test_empty_pool():
    """An empty pool says which split is empty."""
    with pytest.raises(RetrieverError, match=r"the train split 'dev' has no rows to pick shots from; check the data file"):
        RandomRetriever(ice_num=1).retrieve([], QUERIES, READER)


def test_bad_seed_and_id_column():
    """seed must fit NumPy's legacy seed; id_column needs per_row_seed; a missing id names the row."""
    with pytest.raises(RetrieverError, match=r"seed must be an int from 0 to 2\*\*32 - 1 \(got -1\)"):
        RandomRetriever(seed=-1)
    with pytest.raises(RetrieverError, match=r"id_column only matters with per_row_seed=True"):
        RandomRetriever(id_column="id")
    with pytest.raises(RetrieverError, match=r"^row 0, key 'id_column': id_column 'uid' is missing from test row 0; the row has \['a', 'id', 'q'\]$"):
        RandomRetriever(per_row_seed=True, id_column="uid").retrieve(POOL, QUERIES, READER)


def test_errors_name_the_dataset_in_a_renderer(make_renderer):
    """Through the pipeline, the error names the dataset and the parameter."""
    renderer = make_renderer(
        [{"question": "q1", "answer": "a"}],
        dict(
            ice_template=dict(type="PromptTemplate", template="{question} {answer}"),
            prompt_template=dict(type="PromptTemplate", template="</E>{question}", ice_token="</E>"),
            retriever=dict(type="RandomRetriever", ice_num=2),
            inferencer=dict(type="GenInferencer"),
        ),
        abbr="tiny",
    )
    with pytest.raises(RetrieverError, match=r"^dataset 'tiny', key 'ice_num': ice_num=2 is larger than the train split 'train', which has 1 rows"):
        renderer.render(0)


def test_sliding_window_pads_from_the_end():
    """k=3 over 5 aligned rows: the previous three, the first rows padded with the last pool rows."""
    rows = POOL[:5]
    assert SlidingWindowRetriever(k=3).retrieve(rows, rows, READER) == [[2, 3, 4], [3, 4, 0], [4, 0, 1], [0, 1, 2], [1, 2, 3]]


def test_sliding_window_bad_input():
    """k not below the pool size (the window would reach the row itself), and a test split longer than the pool, are errors."""
    for k in (5, 6):
        with pytest.raises(RetrieverError, match=rf"k={k} leaves no room in the train split 'dev', which has 5 rows: a window of k rows before each row wraps round to the row itself \(and its answer\); lower k to at most 4"):
            SlidingWindowRetriever(k=k).retrieve(POOL[:5], POOL[:5], READER)
    assert all(i not in shots for i, shots in enumerate(SlidingWindowRetriever(k=4).retrieve(POOL[:5], POOL[:5], READER)))
    with pytest.raises(RetrieverError, match=r"the test split has 7 rows but the train split 'dev' only 5: test row 6 would need pool row 5"):
        SlidingWindowRetriever(k=2).retrieve(POOL[:5], POOL[:7], READER)


def test_registered_by_opencompass_names():
    """Configs may name the retrievers by OpenCompass's dotted paths."""
    from promptkit.frontends.opencompass.registry import resolve_type

    assert resolve_type("opencompass.openicl.icl_retriever.RandomRetriever", "retriever", "type") is RandomRetriever
    assert resolve_type("SlidingWindowRetriever", "retriever", "type") is SlidingWindowRetriever
