"""Front ends: config sources read into dataset specs; a third party's own, registered by entry point, renders through
the unchanged stages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

import promptkit
from promptkit import ConfigError, Renderer, load_datasets
from promptkit.frontends import BUILT_IN, FrontEnd, SourceOptions, _registered

#: The third-party front end of docs/plugins.md, as its package would ship it.
FRONT_END_SOURCE = textwrap.dedent(
    '''
    import json
    from pathlib import Path

    from promptkit import DatasetSpec, GenInferencer, PromptTemplate, ReaderConfig, RowsDataset, ZeroRetriever


    class QuizFiles:
        """A .quiz.json file: {"name": "capitals", "prompt": "Q: {question}\\nA:", "rows": [{"question": ..., "answer": ...}]}."""

        name = "quiz"

        def reads(self, source):
            return source.endswith(".quiz.json")

        def load(self, source, options):
            quiz = json.loads(Path(source).read_text(encoding="utf-8"))
            reader = ReaderConfig(input_columns=["question"], output_column="answer")
            rows = RowsDataset(rows=quiz["rows"])
            return [DatasetSpec(quiz["name"], rows, reader, None, PromptTemplate(quiz["prompt"]), ZeroRetriever(), GenInferencer())]
    '''
)
QUIZ = {"name": "capitals", "prompt": "Q: {question}\nA:", "rows": [{"question": "Capital of France?", "answer": "Paris"}, {"question": "Capital of Peru?", "answer": "Lima"}]}


def _wheel(folder: Path) -> Path:
    """A wheel of the package, with its front end in the ``promptkit.frontends`` entry-point group."""
    wheel = folder / "quiz_frontend-1.0-py3-none-any.whl"
    info = "quiz_frontend-1.0.dist-info"
    files = {
        "quiz_frontend.py": FRONT_END_SOURCE,
        f"{info}/METADATA": "Metadata-Version: 2.1\nName: quiz-frontend\nVersion: 1.0\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/entry_points.txt": "[promptkit.frontends]\nquiz = quiz_frontend:QuizFiles\n",
        f"{info}/RECORD": "",
    }
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return wheel


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The front end's package pip-installed into a folder on sys.path (and PYTHONPATH, for the CLI)."""
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", str(site), str(_wheel(tmp_path))], check=True)
    monkeypatch.syspath_prepend(str(site))
    _registered.cache_clear()
    yield site
    _registered.cache_clear()
    sys.modules.pop("quiz_frontend", None)


def test_a_registered_front_end_reads_its_files(installed: Path, tmp_path: Path):
    """A package's front end, registered by entry point, reads its own format into specs the Renderer renders."""
    path = tmp_path / "capitals.quiz.json"
    path.write_text(json.dumps(QUIZ), encoding="utf-8")
    (spec,) = load_datasets(path)
    assert [p.prompt for p in Renderer(spec)] == ["Q: Capital of France?\nA:", "Q: Capital of Peru?\nA:"]
    assert [p.gold for p in Renderer(spec)] == ["Paris", "Lima"]


def test_the_cli_renders_a_registered_front_ends_file(installed: Path, tmp_path: Path):
    """`promptkit render` takes the file as it takes a dataset config: records with ids, gold and request blocks."""
    path = tmp_path / "capitals.quiz.json"
    path.write_text(json.dumps(QUIZ), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(installed), str(Path(promptkit.__file__).parents[1])])}
    done = subprocess.run([sys.executable, "-m", "promptkit", "render", str(path)], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["id"], r["prompt"], r["gold"]) for r in records] == [("capitals/0", "Q: Capital of France?\nA:", "Paris"), ("capitals/1", "Q: Capital of Peru?\nA:", "Lima")]


def test_a_source_no_front_end_reads_is_one_line(tmp_path: Path):
    """A file no front end reads is refused with the front ends named."""
    path = tmp_path / "capitals.toml"
    path.write_text("", encoding="utf-8")
    with pytest.raises(ConfigError) as error:
        load_datasets(path)
    assert str(error.value) == (
        f"config {path}: no front end reads this config source (the front ends: evalscope, opencompass, lmeval); a dataset config is "
        "a .py file, an lm-eval task a .yaml file or lmeval:NAME, an EvalScope benchmark evalscope:NAME"
    )


def test_the_built_in_front_ends_implement_the_protocol():
    """Every built-in front end is a FrontEnd; EvalScope's, asked first, reads evalscope:NAME and adapter files, and leaves
    other .py files to the OpenCompass one."""
    assert all(isinstance(front_end, FrontEnd) for front_end in BUILT_IN)
    assert [front_end.name for front_end in BUILT_IN] == ["evalscope", "opencompass", "lmeval"]
    assert BUILT_IN[0].reads("evalscope:gsm8k") and BUILT_IN[0].reads("tests/evalscope/adapters/gsm8k_adapter.py")
    assert not BUILT_IN[0].reads("configs/datasets/mmlu_demo/mmlu_demo_gen.py")
    assert BUILT_IN[1].reads("configs/datasets/mmlu_demo/mmlu_demo_gen.py")
    assert SourceOptions().rows == ()
