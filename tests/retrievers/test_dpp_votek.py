"""DPPRetriever and VotekRetriever: working, deterministic, diverse; OpenCompass's crash and unseeded fill fixed."""

from __future__ import annotations

import numpy as np
import pytest

from promptkit import DPPRetriever, ReaderConfig, RetrieverError, TopkRetriever, VotekRetriever
from promptkit.retrievers.votek import votek_order

pytest.importorskip("faiss")

READER = ReaderConfig.from_config(dict(input_columns=["q"], output_column="a"))


class TableEmbedder:
    name = "table"

    def __init__(self, table: dict[str, np.ndarray]) -> None:
        self.table = table

    def __call__(self, texts: list[str]) -> np.ndarray:
        return np.stack([self.table[t] for t in texts])


def clustered(seed: int = 0):
    """Three tight clusters of pool rows (copies of each other up to noise) and queries near cluster 0."""
    rng = np.random.default_rng(seed)
    centres = np.eye(8)[:3]
    table, pool = {}, []
    for n in range(30):
        text = f"pool {n}"
        table[text] = centres[n % 3] * (1.0 if n % 3 else 3.0) + rng.normal(scale=0.05, size=8)
        pool.append({"q": text, "a": "x"})
    queries = []
    for n in range(5):
        text = f"query {n}"
        table[text] = centres[0] * 2 + centres[1] * 0.8 + centres[2] * 0.6 + rng.normal(scale=0.05, size=8)
        queries.append({"q": text, "a": "x"})
    return TableEmbedder(table), pool, queries


def test_dpp_picks_diverse_shots_where_topk_picks_one_cluster():
    """Top-k takes three near-copies from the closest cluster; DPP takes one row from each cluster."""
    embedder, pool, queries = clustered()
    topk = TopkRetriever(ice_num=3, embedder=embedder).retrieve(pool, queries, READER)
    dpp = DPPRetriever(ice_num=3, candidate_num=30, embedder=embedder).retrieve(pool, queries, READER)
    for near, diverse in zip(topk, dpp, strict=True):
        assert {i % 3 for i in near} == {0}
        assert sorted(i % 3 for i in diverse) == [0, 1, 2]
        assert diverse[0] % 3 == 0  # ordered by relevance: the closest cluster first


def test_dpp_is_deterministic():
    """The same pool and queries give the same shots, run after run."""
    embedder, pool, queries = clustered()
    runs = [DPPRetriever(ice_num=4, candidate_num=12, embedder=embedder).retrieve(pool, queries, READER) for _ in range(3)]
    assert runs[0] == runs[1] == runs[2]
    assert all(len(set(shots)) == 4 for shots in runs[0])


def test_dpp_candidate_num_below_ice_num():
    """OpenCompass's default candidate_num=1 cannot give 3 shots: an error says why."""
    with pytest.raises(RetrieverError, match=r"candidate_num must be an int of at least ice_num=3: DPP picks ice_num shots among the candidate_num nearest rows \(got 1\)"):
        DPPRetriever(ice_num=3, embedder=lambda texts: texts)


def test_votek_same_representative_shots_for_every_row():
    """Every test row gets the same shots; with clusters, the most voted rows come from different clusters."""
    embedder, pool, queries = clustered()
    picked = VotekRetriever(ice_num=3, votek_k=3, embedder=embedder).retrieve(pool, queries, READER)
    assert all(shots == picked[0] for shots in picked)
    assert len(set(picked[0])) == 3


def test_votek_fill_is_seeded():
    """When voting yields too few rows, the fill is drawn with the seed: same seed, same shots."""
    neighbours = [[1], [0], [0], [0], [0], [0]]  # votes only for rows 0 and 1
    first = votek_order(neighbours, 5, np.random.default_rng(7))
    assert first[:2] == [0, 1]
    assert first == votek_order(neighbours, 5, np.random.default_rng(7))
    assert sorted(first) == sorted(set(first))
    embedder, pool, queries = clustered()
    runs = [VotekRetriever(ice_num=12, votek_k=1, seed=5, embedder=embedder).retrieve(pool, queries[:1], READER) for _ in range(2)]
    assert runs[0] == runs[1]


def test_votek_skips_rows_whose_voters_are_covered():
    """A row voted for only by voters of a higher-ranked row adds nothing new and is skipped."""
    # Rows 2, 3, 4 vote for 0 and 1; row 0 votes for 1; row 1 votes for 0; row 5 votes for 2.
    neighbours = [[1], [0], [0, 1], [0, 1], [0, 1], [2]]
    # Votes: 0 ← {1,2,3,4}; 1 ← {0,2,3,4}; 2 ← {5}. Neither 0's nor 1's voters contain the other's; 2 is new.
    assert votek_order(neighbours, 3, np.random.default_rng(0)) == [0, 1, 2]
    nested = [[2], [2], [0, 1], [2]]
    # 2 ← {0,1,3}; 0 ← {2}; 1 ← {2}: 1's voters {2} are covered by 0's, so the third pick is a seeded fill.
    order = votek_order(nested, 3, np.random.default_rng(0))
    assert order[:2] == [2, 0] and order[2] in (1, 3)


def test_votek_leakage_guard():
    """A test row that is a pool row does not get itself as a shot."""
    embedder, pool, _ = clustered()
    picked = VotekRetriever(ice_num=3, embedder=embedder).retrieve(pool, pool, READER)
    assert all(index not in shots and len(shots) == 3 for index, shots in enumerate(picked))
