"""Circular evaluation: options reordered per pattern, the gold remapped, the permutation in the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from promptkit import Renderer, load_datasets
from promptkit.data.circular import Circular
from promptkit.errors import ConfigError, DatasetError

ROW = {"q": "2+2?", "A": "3", "B": "4", "C": "5", "D": "6", "answer": "B"}


def _config(tmp_path: Path, circular: str, rows: str = "[dict(q='2+2?', A='3', B='4', C='5', D='6', answer='B')]", extra: str = "") -> Path:
    path = tmp_path / "mc.py"
    path.write_text(
        f"datasets = [dict(abbr='mc', type='RowsDataset', rows={rows}, circular={circular},{extra}\n"
        "    reader_cfg=dict(input_columns=['q', 'A', 'B', 'C', 'D'], output_column='answer'),\n"
        "    infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template='{q} A. {A} B. {B} C. {C} D. {D} Answer: {answer}'),\n"
        "                   retriever=dict(type='ZeroRetriever'), inferencer=dict(type='GenInferencer')))]\n",
        encoding="utf-8",
    )
    return path


def test_rotations_give_one_prompt_per_rotation_with_the_permutation_in_the_record(tmp_path: Path) -> None:
    """mode='rotations' (the default): ABCD, BCDA, CDAB, DABC; each record names its order."""
    renderer = Renderer(load_datasets(_config(tmp_path, "dict(options=['A', 'B', 'C', 'D'], answer='answer')"))[0])
    records = [p.to_record() for p in renderer]
    assert [(r["index"], r["permutation"], r["prompt"]) for r in records] == [
        (0, "ABCD", "2+2? A. 3 B. 4 C. 5 D. 6 Answer: "),
        (1, "BCDA", "2+2? A. 6 B. 3 C. 4 D. 5 Answer: "),
        (2, "CDAB", "2+2? A. 5 B. 6 C. 3 D. 4 Answer: "),
        (3, "DABC", "2+2? A. 4 B. 5 C. 6 D. 3 Answer: "),
    ]
    assert [row["answer"] for row in renderer.test_rows] == ["B", "C", "D", "A"]
    assert [row["qid"] for row in renderer.test_rows] == [0, 0, 0, 0]


def test_all_gives_every_permutation_in_itertools_order() -> None:
    """mode='all' gives n! rows, the first being the original order."""
    rows = Circular(options=("A", "B", "C"), mode="all").expand([{"A": "x", "B": "y", "C": "z", "answer": "C"}])
    assert ["".join(row["circular_pattern"]) for row in rows] == ["ABC", "ACB", "BAC", "BCA", "CAB", "CBA"]
    assert [row["answer"] for row in rows] == ["C", "B", "C", "A", "B", "A"]


def test_shuffle_is_seeded_per_row_and_draws_distinct_orders() -> None:
    """mode='shuffle': the same seed gives the same orders whatever the other rows; shuffles are distinct."""
    spec = Circular(options=("A", "B", "C", "D"), mode="shuffle", seed=7, shuffles=3)
    alone = spec.expand([ROW])
    among = spec.expand([{**ROW, "q": "other"}, ROW])[3:]
    assert [r["circular_pattern"] for r in alone] != [r["circular_pattern"] for r in among]  # qid differs: another row's draw
    assert spec.patterns(1) == [tuple(r["circular_pattern"]) for r in among]
    assert len({tuple(r["circular_pattern"]) for r in alone}) == 3
    assert Circular(options=("A", "B", "C", "D"), mode="shuffle", seed=8, shuffles=3).patterns(0) != spec.patterns(0)


def test_labels_name_options_whose_columns_are_not_the_answers() -> None:
    """ARC's textA..textD columns with answers A..D: the answer follows its text, the permutation reads in letters."""
    spec = Circular(options=("textA", "textB"), labels=("A", "B"), answer="key")
    rows = spec.expand([{"textA": "no", "textB": "yes", "key": "B"}])
    assert [(r["textA"], r["textB"], r["key"], spec.permutation(r)) for r in rows] == [("no", "yes", "B", "AB"), ("yes", "no", "A", "BA")]


def test_an_answer_that_is_no_label_stays_as_it_is() -> None:
    """OpenCompass's rule: an empty or unknown answer is left unchanged."""
    assert [r["answer"] for r in Circular(options=("A", "B")).expand([{"A": "x", "B": "y", "answer": ""}])] == ["", ""]


def test_shots_from_another_split_keep_their_order(tmp_path: Path) -> None:
    """Only the test split is permuted; a shot's row has no permutation."""
    rows = "dict(train=[dict(q='1+1?', A='2', B='1', C='0', D='3', answer='A')], test=[dict(q='2+2?', A='3', B='4', C='5', D='6', answer='B')])"
    path = _config(tmp_path, "dict(options=['A', 'B', 'C', 'D'])", rows)
    renderer = Renderer(load_datasets(path)[0])
    assert len(renderer.pool) == 1 and len(renderer.test_rows) == 4
    assert renderer.pool[0] == {"q": "1+1?", "A": "2", "B": "1", "C": "0", "D": "3", "answer": "A"}


def test_ppl_prompts_of_a_row_share_its_permutation(tmp_path: Path) -> None:
    """Every label's prompt of a permuted row carries the row's permutation."""
    path = tmp_path / "ppl.py"
    path.write_text(
        "datasets = [dict(abbr='mc', type='RowsDataset', rows=[dict(q='x', A='a', B='b', answer='A')],\n"
        "    circular=dict(options=['A', 'B']), reader_cfg=dict(input_columns=['q', 'A', 'B'], output_column='answer'),\n"
        "    infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template={'A': '{q} {A} {B} A', 'B': '{q} {A} {B} B'}),\n"
        "                   retriever=dict(type='ZeroRetriever'), inferencer=dict(type='PPLInferencer')))]\n",
        encoding="utf-8",
    )
    records = [p.to_record() for p in Renderer(load_datasets(path)[0])]
    assert [(r["index"], r["label"], r["permutation"], r["prompt"]) for r in records] == [
        (0, "A", "AB", "x a b A"),
        (0, "B", "AB", "x a b B"),
        (1, "A", "BA", "x b a A"),
        (1, "B", "BA", "x b a B"),
    ]


def test_render_writes_the_permutation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """promptkit render's JSON Lines carry "permutation"."""
    from promptkit.cli.main import main

    assert main(["render", str(_config(tmp_path, "dict(options=['A', 'B', 'C', 'D'], mode='shuffle', seed=1)"))]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 1 and sorted(lines[0]["permutation"]) == ["A", "B", "C", "D"]


@pytest.mark.parametrize(
    ("circular", "message"),
    [
        ("dict(options=['A'])", "circular.options must be two or more distinct column names (got ['A'])"),
        ("dict(options=['A', 'B'], mode='rotate')", "circular.mode must be one of ['rotations', 'all', 'shuffle'] (got 'rotate')"),
        ("dict(options=['A', 'B'], option=1)", "unknown key 'option' in circular (did you mean 'options'?); it takes ['options', 'answer', 'mode', 'labels', 'seed', 'shuffles', 'splits']"),
        ("dict(answer='answer')", "circular needs options: the option columns, e.g. options=['A', 'B', 'C', 'D']"),
        ("dict(options=['A', 'B'], shuffles=3)", "circular.shuffles is for mode='shuffle' (the mode is 'rotations')"),
        ("dict(options=['A', 'B'], mode='shuffle', shuffles=3)", "circular.shuffles=3 is more than the 2 orders of 2 options"),
        ("dict(options=['A', 'B'], labels=['A'])", "circular.labels must give one distinct label per option (2), got ['A']"),
        ("'ABCD'", "circular must be a dict, e.g. dict(options=['A', 'B', 'C', 'D'], answer='answer') (got 'ABCD')"),
    ],
)
def test_bad_circular_settings_are_config_errors_naming_the_key(tmp_path: Path, circular: str, message: str) -> None:
    """A bad circular= is a ConfigError whose message says what is wrong, with the config and dataset named."""
    with pytest.raises(ConfigError) as caught:
        load_datasets(_config(tmp_path, circular))
    assert caught.value.message == message
    assert caught.value.context["dataset"] == "mc"


def test_a_row_without_an_option_column_names_row_and_column(tmp_path: Path) -> None:
    """Expanding a row that lacks an option column is a DatasetError naming the row and the column."""
    renderer = Renderer(load_datasets(_config(tmp_path, "dict(options=['A', 'B', 'E'])"))[0])
    with pytest.raises(DatasetError) as caught:
        len(renderer)
    assert caught.value.message == (
        "circular: row 0 has no column 'E' (its columns: q, A, B, C, D, answer); "
        "set circular.options and circular.answer to the dataset's option and answer columns"
    )


_texts = st.lists(st.text(max_size=4), min_size=2, max_size=5, unique=True)


@given(_texts, st.integers(min_value=0), st.sampled_from(["rotations", "all", "shuffle"]))
def test_every_order_keeps_the_options_and_the_gold_text(texts: list[str], pick: int, mode: str) -> None:
    """Each expanded row holds the same option texts, and the gold label points at the original gold's text."""
    options = tuple("ABCDE"[: len(texts)])
    gold = options[pick % len(options)]
    row = {**dict(zip(options, texts, strict=True)), "answer": gold}
    expanded = Circular(options=options, mode=mode).expand([row])
    for item in expanded:
        assert sorted(item[o] for o in options) == sorted(texts)
        assert item[item["answer"]] == row[gold]
    assert len({tuple(item["circular_pattern"]) for item in expanded}) == len(expanded)
