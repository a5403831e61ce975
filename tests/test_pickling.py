"""Every bundled dataset config × model config pickles, and the loaded copy renders what the original renders.

A worker process (``--workers``, a Ray actor) receives the renderer pickled: compiled template functions, Jinja
templates and bound chat templates travel as their source and compile again on load.
"""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import cloudpickle
import pytest

from promptkit import BM25Retriever, PromptkitError, Renderer, load_datasets, load_models
from promptkit.integrations.ray import prepare

ROOT = Path(__file__).parents[1]
DATASET_CONFIGS = sorted(p for p in (ROOT / "configs" / "datasets").glob("*/*.py") if "common" not in p.name)
MODEL_CONFIGS = sorted((ROOT / "configs" / "models").glob("*.py")) + sorted((ROOT / "configs" / "models" / "chat_template").glob("*.py"))
#: Configs that define a function themselves (``record_to_row``): it pickles by value, as Ray's cloudpickle (a dependency
#: of promptkit) does, not by name.
DEFINE_FUNCTIONS = {"adapter_demo_gen"}
ROWS = 2
#: Configs whose retriever embeds every row (seconds per renderer): checked with one model of each kind, not all.
EMBEDS = {"trivia_demo_topk_gen": ("base_model.py", "llama3_8b_instruct.py", "chat_template/qwen2_5_7b_instruct.py")}


def records(renderer: Renderer) -> list[object]:
    out: list[object] = []
    for index in range(min(ROWS, len(renderer))):
        try:
            out.extend(prompt.to_record() for prompt in renderer.render(index))
        except PromptkitError as error:
            out.append(str(error))
    return out


@pytest.mark.parametrize("dataset_config", DATASET_CONFIGS, ids=lambda p: p.stem)
def test_a_pickled_renderer_renders_the_same(dataset_config: Path):
    """A renderer of the config with each bundled model, pickled after rendering, renders the same records (errors too)."""
    pickler = cloudpickle if dataset_config.stem in DEFINE_FUNCTIONS else pickle
    paths = [ROOT / "configs" / "models" / name for name in EMBEDS[dataset_config.stem]] if dataset_config.stem in EMBEDS else MODEL_CONFIGS
    models = [None] + [model for path in paths for model in load_models(path)]
    for model in models:
        for spec in load_datasets(dataset_config):
            renderer = Renderer(spec, model)
            try:
                expected = records(renderer)
            except PromptkitError:
                continue  # a dataset whose rows cannot load (tested with the CLI) has nothing to compare
            assert records(pickle.loads(pickler.dumps(renderer))) == expected, (spec.abbr, model and model.abbr)


@pytest.mark.parametrize("dataset_config", DATASET_CONFIGS, ids=lambda p: p.stem)
def test_a_renderer_pickled_before_loading_loads_and_renders_the_same(dataset_config: Path):
    """Pickled before any row is loaded, the copy loads the rows itself and renders the records the original renders."""
    pickler = cloudpickle if dataset_config.stem in DEFINE_FUNCTIONS else pickle
    for spec in load_datasets(dataset_config):
        copy = pickle.loads(pickler.dumps(Renderer(spec)))
        assert records(copy) == records(Renderer(spec)), spec.abbr


def test_a_dataset_spec_pickles_with_its_read_only_settings():
    """A DatasetSpec's infer_settings and eval_cfg come back read-only, equal to the original's."""
    spec = load_datasets(ROOT / "configs" / "datasets" / "mmlu_demo" / "mmlu_demo_gen.py")[0]
    copy = pickle.loads(pickle.dumps(spec))
    assert dict(copy.infer_settings) == dict(spec.infer_settings)
    assert copy.eval_cfg == spec.eval_cfg
    with pytest.raises(TypeError):
        copy.infer_settings["max_out_len"] = 1  # type: ignore[index]


class CountingBM25(BM25Retriever):
    """BM25 that counts its retrievals (class-wide, so copies count too)."""

    calls = 0

    def retrieve(self, pool, queries, reader):
        type(self).calls += 1
        return super().retrieve(pool, queries, reader)


def test_a_prepared_renderer_pickles_its_shots_and_does_not_retrieve_again():
    """After prepare(), a pickled copy renders every row with the shots picked once, without calling the retriever."""
    spec = load_datasets(ROOT / "configs" / "datasets" / "trivia_demo" / "trivia_demo_bm25_gen.py")[0]
    retriever = CountingBM25(ice_num=3, filter=dict(same="subject"))
    renderer = prepare(Renderer(dataclasses.replace(spec, retriever=retriever)))
    assert CountingBM25.calls == 1
    copy = pickle.loads(pickle.dumps(renderer))
    assert [p.to_record() for p in copy] == [p.to_record() for p in renderer]
    assert CountingBM25.calls == 1
