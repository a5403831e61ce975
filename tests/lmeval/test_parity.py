"""Every recorded lm-eval 0.4.13 case (``expected/``, recorded by tools/lmeval_reference/record.py): promptkit's
records of the same task files and rows carry lm-eval's requests — the documents, each request's context (for a
chat model: the rendered chat string, and the messages its template received), continuation or generation_kwargs,
idx and target.  No lm-eval is imported here."""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from promptkit import ChatTemplateModel, Controls, Renderer, load_datasets
from promptkit.frontends.opencompass.overrides import Overrides

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
TASKS = HERE / "tasks"
CASES = sorted((HERE / "expected").glob("*.json"))


@cache
def dataset_files() -> dict[tuple[str, str | None], dict[str, Path]]:
    """(dataset_path, dataset_name) -> {split: rows file}, from data/datasets.json."""
    listed = json.loads((HERE / "data" / "datasets.json").read_text(encoding="utf-8"))["datasets"]
    return {(d["dataset_path"], d["dataset_name"]): {split: HERE / "data" / file for split, file in d["splits"].items()} for d in listed}


@cache
def chat_model(folder: str) -> ChatTemplateModel:
    return ChatTemplateModel(abbr=Path(folder).name, path=str(ROOT / folder))


def rows_for(source: str, tmp_path: Path, samples: list[int] | None) -> list[str]:
    """``--rows TASK:SPLIT=FILE`` for every split each task of ``source`` reads (``samples``: the kept test rows only)."""
    lines = []
    for spec in load_datasets(source):
        config = spec.loader.task.config
        files = dataset_files()[(config.dataset_path, config.dataset_name)]
        for split in {config.training_split, config.validation_split, config.test_split, config.fewshot.split} - {None}:
            file = files[split]
            if samples is not None and split == config.eval_split:
                kept = [line for i, line in enumerate(file.read_text(encoding="utf-8").splitlines()) if i in samples]
                file = tmp_path / f"{config.task}.{split}.jsonl"
                file.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
            lines.append(f"{config.task}:{split}={file}")
    return lines


def render_case(case: dict[str, Any], tmp_path: Path) -> dict[str, list[tuple[dict[str, Any], dict[str, Any]]]]:
    """Each task's (record, row) pairs, as promptkit renders the case's setup."""
    setup = case["setup"]
    source = f"lmeval:{case['spec']}@{TASKS}"
    seed = setup["fewshot_random_seed"]
    specs = load_datasets(
        source,
        rows=rows_for(source, tmp_path, setup["samples"]),
        overrides=Overrides(num_fewshot=setup["num_fewshot"]),
        seed=seed if isinstance(seed, int) else None,
    )
    model = chat_model(setup["chat_model"]) if setup["apply_chat_template"] else None
    shots = ("as_turns" if setup["fewshot_as_multiturn"] else "in_user_turn") if model is not None else None
    controls = Controls(shots=shots, system_prompt=setup["system_instruction"])
    out = {}
    for spec in specs:
        renderer = Renderer(spec, model, controls=controls)
        limit = setup["limit"]
        indices = None if limit is None else range(limit if limit >= 1 else math.ceil(len(renderer) * limit))
        out[spec.abbr] = [(prompt.to_record(), prompt.row) for prompt in renderer.prompts(indices)]
    return out


def expected_request(instance: dict[str, Any]) -> dict[str, Any]:
    """What a record must say of an lm-eval instance."""
    context = instance["context"]
    if instance["request_type"] == "loglikelihood_rolling":
        context = instance.get("chat_context_unused")  # lm-eval sends none; a chat run builds one all the same
    request = {
        "doc_id": instance["doc_id"],
        "idx": instance["idx"],
        "request_type": instance["request_type"],
        "context": context,
        "target": instance["target"],
        "unconditional": instance.get("unconditional", False),
    }
    if "generation_kwargs" in instance:
        request["generation_kwargs"] = instance["generation_kwargs"]
    else:
        request["continuation"] = instance["continuation"]
    if "messages" in instance:
        dropped = instance["system_dropped_by_template_retry"]  # what the template received: without them
        request["messages"] = [m for m in instance["messages"] if not (dropped and m["role"] == "system")]
    return request


def promptkit_request(record: dict[str, Any], expected: dict[str, Any]) -> dict[str, Any]:
    """The same view of a promptkit record."""
    rolling = record["request_type"] == "loglikelihood_rolling"
    request = {
        "doc_id": record["index"],
        "idx": record["idx"],
        "request_type": record["request_type"],
        "context": record["prompt"] if not rolling or expected["context"] is not None else None,
        "target": record["target"],
        "unconditional": record.get("unconditional", False),
    }
    request["generation_kwargs" if "generation_kwargs" in record else "continuation"] = record.get("generation_kwargs", record.get("continuation"))
    if "messages" in expected:
        request["messages"] = record.get("messages")
    return request


@pytest.mark.parametrize("path", CASES, ids=[path.stem for path in CASES])
def test_records_carry_lm_evals_requests(path: Path, tmp_path: Path):
    """The case's documents and requests, request by request, as lm-eval 0.4.13 built them."""
    case = json.loads(path.read_text(encoding="utf-8"))
    rendered = render_case(case, tmp_path)
    assert list(rendered) == [task["task"] for task in case["tasks"]]
    for task in case["tasks"]:
        records = rendered[task["task"]]
        rows = {record["index"]: row for record, row in records}
        assert rows == {int(doc_id): doc for doc_id, doc in task["docs"].items()}, f"{task['task']}: the documents differ"
        assert len(records) == len(task["instances"]), f"{task['task']}: {len(records)} records for {len(task['instances'])} requests"
        for (record, _), instance in zip(records, task["instances"], strict=True):
            expected = expected_request(instance)
            assert promptkit_request(record, expected) == expected, f"{task['task']} doc {instance['doc_id']} idx {instance['idx']}"
