"""MDLRetriever with a language model built here: a character bigram model in numpy (nothing downloaded)."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from promptkit import MDLRetriever, ReaderConfig, Renderer, RetrieverError, TopkRetriever, build_dataset

pytest.importorskip("faiss")

READER = ReaderConfig.from_config(dict(input_columns=["q"], output_column="a"))
TEMPLATE = dict(type="PromptTemplate", template="Q: {q}\nA: {a}")


class BigramLM:
    """A character bigram model with add-one smoothing that also learns from its context (a cache model).

    ``loss(context, continuation)`` is the mean negative log-probability of the
    continuation's characters, each given the one before, with bigram counts
    from a fixed corpus plus those of the context — so shots that contain a
    label's text make that label more likely.
    """

    def __init__(self, corpus: list[str]) -> None:
        self.alphabet = sorted({c for text in corpus for c in text} | set("abcdefghijklmnopqrstuvwxyz ?:.\nQA"))
        self.index = {c: i for i, c in enumerate(self.alphabet)}
        self.base = np.ones((len(self.alphabet), len(self.alphabet)))
        for text in corpus:
            self._count(self.base, text)

    def _count(self, counts: np.ndarray, text: str) -> None:
        ids = [self.index[c] for c in text if c in self.index]
        np.add.at(counts, (ids[:-1], ids[1:]), 1)

    def __call__(self, context: str, continuations: list[str]) -> list[float]:
        counts = self.base.copy()
        self._count(counts, context)
        probabilities = counts / counts.sum(axis=1, keepdims=True)
        losses = []
        for text in continuations:
            ids = [self.index[c] for c in (context[-1:] + text) if c in self.index]
            losses.append(float(-np.mean(np.log(probabilities[ids[:-1], ids[1:]]))))
        return losses


def hashed_embedder(texts: list[str]) -> np.ndarray:
    """Bag of character trigrams hashed (CRC-32) into 64 dimensions: similar texts get similar vectors."""
    vectors = np.zeros((len(texts), 64))
    for n, text in enumerate(texts):
        for i in range(len(text) - 2):
            vectors[n, zlib.crc32(text[i : i + 3].encode()) % 64] += 1
    return vectors + 1e-3


POOL = [
    {"q": "is water wet", "a": "zzz"},
    {"q": "is ice cold", "a": "zzz"},
    {"q": "is fire hot", "a": "zzz"},
    {"q": "is the sun bright", "a": "zzz"},
    {"q": "is snow white", "a": "yes"},
    {"q": "is grass green", "a": "zzz"},
]
QUERY = {"q": "is the sky blue", "a": "?"}


def test_picks_the_shots_under_which_the_model_is_sure():
    """Only the 'yes' shot makes the bigram model confident about 'yes' vs 'no': MDL finds a set containing it."""
    lm = BigramLM(["q: is it? a: no", "q: is it? a: yes"])
    retriever = MDLRetriever(
        ice_num=2, candidate_num=6, select_time=15, seed=3, ice_template=TEMPLATE, labels=["yes", "no"], scorer=lm, embedder=hashed_embedder
    )
    nearest_two = TopkRetriever(ice_num=2, embedder=hashed_embedder).retrieve(POOL, [QUERY], READER)[0]
    assert 4 not in nearest_two  # so MDL's first candidate set (the nearest rows) is not the answer
    shots = retriever.retrieve(POOL, [QUERY], READER)[0]
    assert 4 in shots and len(shots) == 2


def test_deterministic_under_the_seed():
    """The same seed gives the same shots; the draws start afresh for every retrieval."""
    lm = BigramLM(["q: is it? a: no"])
    make = lambda seed: MDLRetriever(  # noqa: E731
        ice_num=2, candidate_num=5, select_time=6, seed=seed, ice_template=TEMPLATE, labels=["yes", "no"], scorer=lm, embedder=hashed_embedder
    )
    retriever = make(7)
    first = retriever.retrieve(POOL, [QUERY, POOL[0]], READER)
    assert retriever.retrieve(POOL, [QUERY, POOL[0]], READER) == first == make(7).retrieve(POOL, [QUERY, POOL[0]], READER)


def test_in_a_dataset_config():
    """MDLRetriever built from a config dict with OpenCompass's parameters renders prompts with its shots."""
    lm = BigramLM(["q: is it? a: no", "q: is it? a: yes"])
    dataset = build_dataset(
        dict(
            abbr="mdl",
            type="RowsDataset",
            rows=dict(train=POOL, test=[dict(QUERY, a="yes")]),
            reader_cfg=dict(input_columns=["q"], output_column="a"),
            infer_cfg=dict(
                ice_template=dict(type="PromptTemplate", template="Q: {q}\nA: {a}"),
                prompt_template=dict(type="PromptTemplate", template="</E>Q: {q}\nA: {a}", ice_token="</E>"),
                retriever=dict(
                    type="MDLRetriever", ice_num=2, candidate_num=6, select_time=15, seed=3, ce_model_name="gpt2-xl",
                    ice_template=dict(type="PromptTemplate", template="Q: {q}\nA: {a}"), labels=["yes", "no"], scorer=lm, embedder=hashed_embedder,
                ),
                inferencer=dict(type="GenInferencer"),
            ),
        )
    )
    prompt = Renderer(dataset).render(0)[0]
    assert 4 in prompt.ice_idx and "Q: is snow white\nA: yes\n" in prompt.prompt and prompt.prompt.endswith("Q: is the sky blue\nA: ")


def test_scorer_is_required_and_checked():
    """Without a scorer, and with a scorer returning the wrong number of losses, the error says what is expected."""
    with pytest.raises(RetrieverError, match=r"MDLRetriever needs scorer=, a callable \(context, continuations\) -> one loss per continuation \(got None\); promptkit loads no language model itself"):
        MDLRetriever(ice_template=TEMPLATE, embedder=hashed_embedder)
    bad = MDLRetriever(ice_num=1, candidate_num=3, ice_template=TEMPLATE, labels=["yes", "no"], scorer=lambda c, p: [0.5], embedder=hashed_embedder)
    with pytest.raises(RetrieverError, match=r"the scorer returned \[0.5\] for 2 label prompts; it must return one finite loss per prompt"):
        bad.retrieve(POOL, [QUERY], READER)
