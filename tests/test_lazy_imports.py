"""What importing promptkit and rendering a plain dataset load: none of the heavy libraries those runs do not use."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import promptkit

#: Libraries only some configs need: numpy (retrievers that rank), Pillow and filetype (media), Jinja (Jinja and chat
#: templates), rich (progress bars on a terminal, preview), mmengine (config files that are not plain data).
HEAVY = ("numpy", "PIL", "filetype", "jinja2", "rich", "mmengine")
ENV = {**os.environ, "PYTHONPATH": str(Path(promptkit.__file__).parents[1])}

#: Runs the code given in argv[1], then prints which of argv[2:] it imported, as JSON.
PROBE = "import json, sys; code, names = sys.argv[1], sys.argv[2:]; exec(code); print(json.dumps(sorted(n for n in names if n in sys.modules)))"

DATASET = """
datasets = [dict(abbr='qa', type='JsonlDataset', path={path!r},
                 reader_cfg=dict(input_columns=['question'], output_column='answer'),
                 infer_cfg=dict({infer}))]
"""
ZERO_SHOT = "prompt_template=dict(type='PromptTemplate', template='Q: {question}\\nA: {answer}'), retriever=dict(type='ZeroRetriever'), inferencer=dict(type='GenInferencer')"
FIVE_SHOT_CHAT = (
    "ice_template=dict(type='PromptTemplate', template=dict(round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')])), "
    "prompt_template=dict(type='PromptTemplate', template=dict(begin='</E>', round=[dict(role='HUMAN', prompt='{question}')]), ice_token='</E>'), "
    "retriever=dict(type='FixKRetriever', fix_id_list=[0, 1, 2, 3, 4]), inferencer=dict(type='GenInferencer')"
)
MODEL = """
models = [dict(abbr='llama3', type='CompletionModel', meta_template=dict(
    begin='<|begin_of_text|>',
    round=[dict(role='HUMAN', begin='<|start_header_id|>user<|end_header_id|>\\n\\n', end='<|eot_id|>'),
           dict(role='BOT', begin='<|start_header_id|>assistant<|end_header_id|>\\n\\n', end='<|eot_id|>', generate=True)]))]
"""


def imported(code: str, names: tuple[str, ...] = HEAVY) -> list[str]:
    """Which of ``names`` a fresh interpreter has imported after running ``code``."""
    result = subprocess.run([sys.executable, "-c", PROBE, code, *names], capture_output=True, text=True, env=ENV, timeout=120, check=True)
    return json.loads(result.stdout)


def test_import_promptkit_loads_no_heavy_library():
    """`import promptkit` imports none of numpy, Pillow, filetype, Jinja, rich and mmengine."""
    assert imported("import promptkit") == []


@pytest.mark.parametrize("infer, model", [(ZERO_SHOT, None), (FIVE_SHOT_CHAT, MODEL)], ids=["zero-shot string", "5-shot chat, meta template"])
def test_plain_render_loads_no_heavy_library(tmp_path, infer, model):
    """`promptkit render` of a plain config (string types, placeholder templates, a meta template) imports none of them."""
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps({"question": f"q{i}", "answer": "a"}) + "\n" for i in range(6)), encoding="utf-8")
    (tmp_path / "ds.py").write_text(DATASET.format(path=str(tmp_path / "rows.jsonl"), infer=infer), encoding="utf-8")
    args = ["render", str(tmp_path / "ds.py"), "--out", str(tmp_path / "out.jsonl")]
    if model is not None:
        (tmp_path / "model.py").write_text(MODEL, encoding="utf-8")
        args += ["--model", str(tmp_path / "model.py")]
    assert imported(f"from promptkit.cli.main import main; main({args!r})") == []
    assert len((tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()) == 6


def test_jinja_is_imported_when_a_jinja_template_is_built():
    """The probe sees an import when there is one: building a JinjaPromptTemplate imports Jinja, not numpy."""
    assert imported("import promptkit; promptkit.JinjaPromptTemplate('{{ q }}')", ("jinja2", "numpy")) == ["jinja2"]


def test_evalscope_render_loads_no_heavy_library(tmp_path):
    """`promptkit render evalscope:gsm8k` imports none of them (nor EvalScope, which is not installed here)."""
    data = Path(__file__).parent / "evalscope" / "data" / "gsm8k"
    args = ["render", "evalscope:gsm8k", "--set", f"local_path={str(data)!r}", "--out", str(tmp_path / "out.jsonl")]
    assert imported(f"from promptkit.cli.main import main; main({args!r})", (*HEAVY, "evalscope")) == []
    assert len((tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()) == 5


def test_front_ends_load_only_the_evalscope_package_init():
    """Asking the front ends which reads a source imports the EvalScope front end's package, not its loader."""
    front_end = ("promptkit.frontends.evalscope.loader", "promptkit.frontends.evalscope.natives", "promptkit.frontends.evalscope.api")
    assert imported("import promptkit.frontends as f; f.BUILT_IN[0].reads('configs/datasets/mmlu_demo/mmlu_demo_gen.py')", front_end) == []


#: What reading lm-eval task files brings in: PyYAML, and datasets for process_docs and the datasets cache.
LMEVAL = ("yaml", "datasets", "pyarrow")


def test_import_and_help_load_nothing_lm_eval_tasks_need():
    """`import promptkit` and `promptkit --help` import neither PyYAML nor datasets (nor the heavy libraries above)."""
    assert imported("import promptkit", (*HEAVY, *LMEVAL)) == []
    help_code = (
        "import contextlib, io\nfrom promptkit.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    try:\n        main(['--help'])\n    except SystemExit:\n        pass"
    )
    assert imported(help_code, (*HEAVY, *LMEVAL)) == []


def test_an_lm_eval_task_without_process_docs_renders_without_datasets(tmp_path):
    """A task whose rows come from local JSON files and that has no process_docs reads them without datasets or numpy."""
    task = Path(promptkit.__file__).parents[1] / "configs" / "lmeval" / "mmlu_demo.yaml"
    code = f"from promptkit.cli.main import main; main(['render', {str(task)!r}, '--out', {str(tmp_path / 'out.jsonl')!r}])"
    assert imported(code, ("datasets", "pyarrow", "numpy", "yaml")) == ["yaml"]
