"""Unmodified OpenCompass and AISBench dataset configs: their import lines, read_base chains, loops and literals, their data layout."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from promptkit import ConfigError, DatasetError, Renderer, load_datasets
from promptkit.cli.main import main

MMLU = """
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.datasets import MMLUDataset
from opencompass.utils.text_postprocessors import first_capital_postprocess

mmlu_reader_cfg = dict(input_columns=['input', 'A', 'B', 'C', 'D'], output_column='target', train_split='dev')

mmlu_all_sets = ['anatomy', 'virology']

mmlu_datasets = []
for _name in mmlu_all_sets:
    _hint = f'The following are multiple choice questions about {_name}.\\n\\n'
    mmlu_infer_cfg = dict(
        ice_template=dict(type=PromptTemplate, template=dict(round=[
            dict(role='HUMAN', prompt=f'{_hint}{{input}}\\nA. {{A}}\\nB. {{B}}\\nC. {{C}}\\nD. {{D}}\\nAnswer: '),
            dict(role='BOT', prompt='{target}\\n')])),
        prompt_template=dict(type=PromptTemplate, template=dict(begin='</E>', round=[
            dict(role='HUMAN', prompt=f'{_hint}{{input}}\\nA. {{A}}\\nB. {{B}}\\nC. {{C}}\\nD. {{D}}\\nAnswer: ')]), ice_token='</E>'),
        retriever=dict(type=FixKRetriever, fix_id_list=[0, 1]),
        inferencer=dict(type=GenInferencer, max_out_len=50))
    mmlu_eval_cfg = dict(evaluator=dict(type=AccEvaluator), pred_postprocessor=dict(type=first_capital_postprocess))
    mmlu_datasets.append(
        dict(abbr=f'lukaemon_mmlu_{_name}', type=MMLUDataset, path='opencompass/mmlu', name=_name,
             reader_cfg=mmlu_reader_cfg, infer_cfg=mmlu_infer_cfg, eval_cfg=mmlu_eval_cfg))

del _name, _hint
"""

GSM8K_BASE = """
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.datasets import GSM8KDataset, gsm8k_postprocess, gsm8k_dataset_postprocess, Gsm8kEvaluator

gsm8k_reader_cfg = dict(input_columns=['question'], output_column='answer')

gsm8k_infer_cfg = dict(
    prompt_template=dict(type=PromptTemplate, template=dict(round=[
        dict(role='HUMAN', prompt="Question: {question}\\nLet's think step by step\\nAnswer:")])),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer, max_out_len=512),
    max_out_len=512)

gsm8k_eval_cfg = dict(evaluator=dict(type=Gsm8kEvaluator), pred_postprocessor=dict(type=gsm8k_postprocess),
                      dataset_postprocessor=dict(type=gsm8k_dataset_postprocess))

gsm8k_datasets = [
    dict(abbr='gsm8k', type=GSM8KDataset, path='opencompass/gsm8k', reader_cfg=gsm8k_reader_cfg,
         infer_cfg=gsm8k_infer_cfg, eval_cfg=gsm8k_eval_cfg)
]
"""

GSM8K = """
from mmengine.config import read_base

with read_base():
    from .gsm8k_gen_0a1b2c import gsm8k_datasets  # noqa: F401, F403
"""

HELLASWAG = """
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.datasets import HellaswagDataset

hellaswag_reader_cfg = {'input_columns': ['ctx', 'A', 'B', 'C', 'D'], 'output_column': 'label'}

hellaswag_infer_cfg = {
    'prompt_template': {'type': PromptTemplate, 'template': {i: f'{{ctx}} {{{chr(ord("A") + i)}}}' for i in range(4)}},
    'retriever': {'type': ZeroRetriever},
    'inferencer': {'type': PPLInferencer},
}

hellaswag_datasets = [
    {'abbr': 'hellaswag', 'type': HellaswagDataset, 'path': 'opencompass/hellaswag',
     'reader_cfg': hellaswag_reader_cfg, 'infer_cfg': hellaswag_infer_cfg, 'eval_cfg': {'evaluator': {'type': AccEvaluator}}}
]
"""

AISBENCH_GSM8K = """
from ais_bench.benchmark.openicl.icl_prompt_template import PromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.datasets import GSM8KDataset, gsm8k_postprocess, gsm8k_dataset_postprocess, Gsm8kEvaluator
from ais_bench.benchmark.utils.postprocess.text_postprocessors import first_capital_postprocess

gsm8k_reader_cfg = dict(input_columns=['question'], output_column='answer')

gsm8k_infer_cfg = dict(
    prompt_template=dict(type=PromptTemplate, template=dict(round=[
        dict(role='HUMAN', prompt='Answer the question step by step.\\n\\nQuestion: {question}')])),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer, stopping_criteria=['Question']))

gsm8k_datasets = [
    dict(abbr='gsm8k', type=GSM8KDataset, path='ais_bench/datasets/gsm8k', reader_cfg=gsm8k_reader_cfg,
         infer_cfg=gsm8k_infer_cfg, eval_cfg=dict(evaluator=dict(type=Gsm8kEvaluator), pred_postprocessor=dict(type=gsm8k_postprocess)))
]
"""

#: A config whose first dataset class promptkit does not read; the second renders from the data folder.
MIXED = """
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.datasets import GSM8KDataset, TheoremQADataset

_infer = dict(prompt_template=dict(type=PromptTemplate, template='Q: {question}\\nA:'),
              retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer))
datasets = [
    dict(abbr='theoremqa', type=TheoremQADataset, path='./data/TheoremQA/test.csv',
         reader_cfg=dict(input_columns=['question'], output_column='answer'), infer_cfg=_infer),
    dict(abbr='gsm8k', type=GSM8KDataset, path='opencompass/gsm8k',
         reader_cfg=dict(input_columns=['question'], output_column='answer'), infer_cfg=_infer),
]
"""

MMLU_CSV = {
    "dev": "What is 2+2?,3,4,5,6,B\nWhich is a prime?,4,6,7,8,C\n",
    "test": "What is 1+1?,1,2,3,4,B\n",
}


@pytest.fixture
def data_root(tmp_path: Path) -> Path:
    """A data folder in OpenCompass's layout (and AISBench's ais_bench/datasets/), a few rows each."""
    root = tmp_path / "compass"
    for name in ("anatomy", "virology"):
        for split, text in MMLU_CSV.items():
            folder = root / "data" / "mmlu" / split
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{name}_{split}.csv").write_text(text.replace("2+2", f"2+2 in {name}"), encoding="utf-8")
    gsm8k = [{"question": "Tom has 3 apples and eats 1. How many are left?", "answer": "3-1=2\n#### 2"}]
    for folder in (root / "data" / "gsm8k", root / "ais_bench" / "datasets" / "gsm8k"):
        folder.mkdir(parents=True)
        for split in ("train", "test"):
            (folder / f"{split}.jsonl").write_text("".join(json.dumps(row) + "\n" for row in gsm8k), encoding="utf-8")
    (root / "data" / "hellaswag").mkdir(parents=True)
    hellaswag = {"query": "Baking: A man mixes flour and water. Then he", "choices": ["kneads it.", "sings.", "flies.", "sleeps."], "gold": 0}
    (root / "data" / "hellaswag" / "hellaswag.jsonl").write_text(json.dumps(hellaswag) + "\n", encoding="utf-8")
    return root


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def records(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_mmlu_config_renders_with_its_own_imports(tmp_path, data_root, capsys):
    """An MMLU config as OpenCompass writes it (a loop, evaluator and postprocessor imports) renders from the data folder."""
    config = write(tmp_path, "mmlu_gen_1a2b3c.py", MMLU)
    assert main(["render", str(config), "--data-root", str(data_root), "--dataset", "lukaemon_mmlu_virology"]) == 0
    [record] = records(capsys)
    hint = "The following are multiple choice questions about virology.\n\n"
    assert record["prompt"] == (
        f"{hint}What is 2+2 in virology?\nA. 3\nB. 4\nC. 5\nD. 6\nAnswer: \nB\n\n"
        f"{hint}Which is a prime?\nA. 4\nB. 6\nC. 7\nD. 8\nAnswer: \nC\n\n"
        f"{hint}What is 1+1?\nA. 1\nB. 2\nC. 3\nD. 4\nAnswer: "
    )
    assert record["ice_idx"] == [0, 1]


def test_eval_cfg_and_extra_infer_cfg_keys_are_kept(tmp_path, data_root):
    """eval_cfg is kept as given (placeholders named) and infer_cfg's max_out_len as a runtime setting."""
    write(tmp_path, "gsm8k_gen_0a1b2c.py", GSM8K_BASE)
    [dataset] = load_datasets(write(tmp_path, "gsm8k_gen.py", GSM8K), data_root=data_root)
    assert dict(dataset.infer_settings) == {"max_out_len": 512}
    assert repr(dataset.eval_cfg["evaluator"]["type"]) == "<opencompass.datasets.Gsm8kEvaluator: not used by promptkit>"


def test_read_base_chain_renders_and_preview_works(tmp_path, data_root, capsys):
    """`promptkit preview` of a config that only read_base()-imports another, with --data-root."""
    write(tmp_path, "gsm8k_gen_0a1b2c.py", GSM8K_BASE)
    config = write(tmp_path, "gsm8k_gen.py", GSM8K)
    assert main(["preview", str(config), "--data-root", str(data_root), "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "Question: Tom has 3 apples and eats 1. How many are left?" in out
    assert "Let's think step by step" in out


def test_data_root_defaults_to_compass_data_cache(tmp_path, data_root, monkeypatch, capsys):
    """Without --data-root, OpenCompass's COMPASS_DATA_CACHE names the data folder."""
    write(tmp_path, "gsm8k_gen_0a1b2c.py", GSM8K_BASE)
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(data_root))
    assert main(["render", str(write(tmp_path, "gsm8k_gen.py", GSM8K))]) == 0
    assert records(capsys)[0]["prompt"] == "Question: Tom has 3 apples and eats 1. How many are left?\nLet's think step by step\nAnswer:"


def test_dict_literals_render_like_dict_calls(tmp_path, data_root, capsys):
    """A config written with {...} literals and a dict comprehension renders (ppl: one prompt per label)."""
    config = write(tmp_path, "hellaswag_ppl_0a1b2c.py", HELLASWAG)
    assert main(["render", str(config), "--data-root", str(data_root)]) == 0
    assert [(r["label"], r["prompt"]) for r in records(capsys)] == [
        (0, "A man mixes flour and water. Then he kneads it."),
        (1, "A man mixes flour and water. Then he sings."),
        (2, "A man mixes flour and water. Then he flies."),
        (3, "A man mixes flour and water. Then he sleeps."),
    ]


def test_aisbench_config_renders(tmp_path, data_root, capsys):
    """An AISBench config (ais_bench.benchmark imports, its ais_bench/datasets/ path) renders from the data folder."""
    config = write(tmp_path, "gsm8k_gen_0_shot_cot_chat_prompt.py", AISBENCH_GSM8K)
    assert main(["render", str(config), "--data-root", str(data_root)]) == 0
    assert records(capsys)[0]["prompt"] == "Answer the question step by step.\n\nQuestion: Tom has 3 apples and eats 1. How many are left?"


def test_os_environ_at_top_level(tmp_path, monkeypatch):
    """A config that calls os.environ.get(...) while it loads (with third-party imports: mmengine's lazy mode) loads."""
    monkeypatch.setenv("PK_TEST_ROOT", str(tmp_path))
    write(tmp_path, "rows.jsonl", '{"q": "hi"}\n')
    config = write(
        tmp_path,
        "env.py",
        "import os\nfrom opencompass.openicl.icl_prompt_template import PromptTemplate\n"
        "root = os.environ.get('PK_TEST_ROOT', '.')\n"
        "datasets = [dict(abbr='env', type='JsonlDataset', path=os.path.join(root, 'rows.jsonl'), reader_cfg=dict(input_columns=['q']),\n"
        "    infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='{q}!'), retriever=dict(type='ZeroRetriever'),\n"
        "                   inferencer=dict(type='GenInferencer')))]\n",
    )
    [dataset] = load_datasets(config)
    assert Renderer(dataset).render(0)[0].prompt == "hi!"


def test_datasets_built_by_list_comprehension(tmp_path):
    """Dataset dicts built by a list comprehension over {...} literals load like dict(...) calls."""
    write(tmp_path, "rows.jsonl", '{"q": "hi"}\n')
    config = write(
        tmp_path,
        "comp.py",
        "from opencompass.openicl.icl_prompt_template import PromptTemplate\n"
        "datasets = [{'abbr': f'demo_{n}', 'type': 'JsonlDataset', 'path': 'rows.jsonl', 'reader_cfg': {'input_columns': ['q']},\n"
        "             'infer_cfg': {'prompt_template': {'type': PromptTemplate, 'template': n + ' {q}'},\n"
        "                           'retriever': {'type': 'ZeroRetriever'}, 'inferencer': {'type': 'GenInferencer'}}} for n in ('a', 'b')]\n",
    )
    assert [Renderer(d).render(0)[0].prompt for d in load_datasets(config)] == ["a hi", "b hi"]


def test_n_repeats_every_split(tmp_path, data_root):
    """n=3 repeats the split three times, rows numbered 0 to 3N-1, as OpenCompass's BaseDataset does."""
    config = write(tmp_path, "gsm8k_n.py", GSM8K_BASE.replace("path='opencompass/gsm8k',", "path='opencompass/gsm8k', n=3, k=[1, 2],"))
    [dataset] = load_datasets(config, data_root=data_root)
    renderer = Renderer(dataset)
    assert len(renderer) == 3
    assert len({renderer.render(i)[0].prompt for i in range(3)}) == 1


def test_k_over_n_is_refused(tmp_path, data_root):
    """k larger than n is an error naming both, as OpenCompass asserts."""
    config = write(tmp_path, "gsm8k_k.py", GSM8K_BASE.replace("path='opencompass/gsm8k',", "path='opencompass/gsm8k', n=2, k=4,"))
    with pytest.raises(ConfigError, match=r"dataset 'gsm8k', key 'k': k=4 must not exceed n=2"):
        load_datasets(config, data_root=data_root)


def test_unknown_dataset_class_is_one_line_and_the_rest_renders(tmp_path, data_root, capsys):
    """A dataset class promptkit does not read (no OpenCompass installed): one line; the config's other dataset still renders."""
    config = write(tmp_path, "mixed.py", MIXED)
    assert main(["render", str(config), "--data-root", str(data_root)]) == 1
    out, err = capsys.readouterr()
    assert [json.loads(line)["dataset"] for line in out.splitlines()] == ["gsm8k"]
    assert err == (
        f"promptkit: error: config {config}, dataset 'theoremqa': dataset class TheoremQADataset (from opencompass.datasets) is not "
        "one promptkit reads, and OpenCompass is not installed to read it: pass --rows FILE.jsonl (rows for every dataset of the "
        "config), or set type='JsonlDataset', path='FILE.jsonl' in the config (the classes promptkit reads: docs/compat.md#dataset-classes)\n"
    )


def test_rows_feed_every_dataset(tmp_path, capsys):
    """--rows FILE gives every dataset its rows, unknown classes included; each keeps its templates."""
    config = write(tmp_path, "mixed.py", MIXED)
    rows = write(tmp_path, "mine.jsonl", '{"question": "Why?", "answer": "Because."}\n')
    assert main(["render", str(config), "--rows", str(rows)]) == 0
    assert [(r["dataset"], r["prompt"]) for r in records(capsys)] == [("theoremqa", "Q: Why?\nA:"), ("gsm8k", "Q: Why?\nA:")]


def test_rows_and_data_root_in_the_library(tmp_path, data_root):
    """load_datasets(rows=...) and (data_root=...) do what the CLI flags do."""
    config = write(tmp_path, "mixed.py", MIXED)
    rows = write(tmp_path, "mine.jsonl", '{"question": "Why?", "answer": "Because."}\n')
    assert Renderer(load_datasets(config, rows=rows)[0]).render(0)[0].prompt == "Q: Why?\nA:"
    gsm8k = load_datasets(config, data_root=data_root)[1]
    assert Renderer(gsm8k).render(0)[0].prompt == "Q: Tom has 3 apples and eats 1. How many are left?\nA:"


def test_missing_data_under_data_root_names_the_file(tmp_path, capsys):
    """Data missing under --data-root: one line naming the config, the dataset and the file looked for."""
    write(tmp_path, "gsm8k_gen_0a1b2c.py", GSM8K_BASE)
    config = write(tmp_path, "gsm8k_gen.py", GSM8K)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["render", str(config), "--data-root", str(empty)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"promptkit: error: config {config}, dataset 'gsm8k', file {empty}/data/gsm8k/train.jsonl: GSM8KDataset: data file not found")
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", ["preview", "render"])
def test_missing_data_of_many_datasets_is_one_line_per_config(command, tmp_path, capsys):
    """Two MMLU subjects missing under --data-root: one line naming the folder once, the first file, both ways on."""
    config = write(tmp_path, "mmlu_gen.py", MMLU)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main([command, str(config), "--data-root", str(empty)]) == 1
    assert capsys.readouterr().err == (
        f"promptkit: error: config {config}: 2 datasets miss their data files under {empty}/data/mmlu/dev (the first: "
        f"{empty}/data/mmlu/dev/anatomy_dev.csv, dataset 'lukaemon_mmlu_anatomy'); the data root is {empty} (--data-root): "
        "pass as --data-root the folder that holds OpenCompass's data/ folder, or give the rows with --rows FILE.jsonl "
        "(rows for every dataset of the config)\n"
    )


def test_missing_data_without_a_data_root_names_both_flags(tmp_path, capsys, monkeypatch):
    """No --data-root and no $COMPASS_DATA_CACHE: the line says to pass --data-root or set it, or --rows."""
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    config = write(tmp_path, "mmlu_gen.py", MMLU)
    assert main(["render", str(config), "--dataset", "lukaemon_mmlu_anatomy"]) == 1
    assert capsys.readouterr().err == (
        f"promptkit: error: config {config}, dataset 'lukaemon_mmlu_anatomy', file data/mmlu/dev/anatomy_dev.csv: MMLUDataset: data "
        "file not found: data/mmlu/dev/anatomy_dev.csv; pass --data-root DIR (the folder that holds OpenCompass's data/ folder) "
        "or set COMPASS_DATA_CACHE, or give the rows with --rows FILE.jsonl (rows for every dataset of the config)\n"
    )


def test_import_no_one_serves_is_one_line(tmp_path, capsys):
    """A config importing a module that is neither installed nor an engine's: one line with the file, line and what to do."""
    config = write(tmp_path, "bad.py", "from promptkit_no_such_package.prompts import PROMPT\ndatasets = [dict(abbr='x', prompt=PROMPT)]\n")
    assert main(["render", str(config)]) == 1
    assert capsys.readouterr().err == (
        f"promptkit: error: config {config}: {config}, line 1: the config imports 'PROMPT' from 'promptkit_no_such_package.prompts', "
        "which cannot be imported (Failed to import promptkit_no_such_package.prompts in "
        f"{config}, line 1 for No module named 'promptkit_no_such_package'); promptkit serves only opencompass.* and ais_bench.* "
        "imports: install 'promptkit_no_such_package' or remove the import\n"
    )


def test_absolute_base_config_without_the_package_is_one_line(tmp_path, capsys):
    """read_base() from the installed opencompass package, which is not installed: one line naming the line and the way on."""
    config = write(
        tmp_path,
        "eval.py",
        "from mmengine.config import read_base\n\nwith read_base():\n    from opencompass.configs.datasets.gsm8k.gsm8k_gen import gsm8k_datasets\n",
    )
    assert main(["render", str(config)]) == 1
    assert capsys.readouterr().err == (
        f"promptkit: error: config {config}: line 4 reads a base config from the installed 'opencompass' package (from "
        "opencompass.configs.datasets.gsm8k.gsm8k_gen import ...), and opencompass is not installed: install it, or copy that "
        "config file beside this one and import it relatively (from .gsm8k_gen import ...)\n"
    )


def test_calling_an_import_while_loading_names_it(tmp_path, capsys):
    """A config that calls an imported name at load time (mmengine imports lazily) is told which name and where."""
    config = write(
        tmp_path, "call.py", "from opencompass.utils import get_prompt\n\nPROMPT = get_prompt('x')\ndatasets = []\n"
    )
    assert main(["render", str(config)]) == 1
    assert capsys.readouterr().err == (
        f"promptkit: error: config {config}: cannot load config: {config}, line 1: the config calls 'get_prompt', an imported "
        "name, while it loads; mmengine imports a config's names only after it has run (OpenCompass too), so compute that value "
        "without calling an import\n"
    )


def test_custom_template_class_is_one_line(tmp_path):
    """A config's own template class (from opencompass.datasets.xyz) is named, with what to do."""
    config = write(
        tmp_path,
        "custom.py",
        "from opencompass.datasets.olympiadbench import OlympiadBenchTemplate\n"
        "datasets = [dict(abbr='ob', type='JsonlDataset', path='rows.jsonl', reader_cfg=dict(input_columns=['q']),\n"
        "    infer_cfg=dict(prompt_template=dict(type=OlympiadBenchTemplate), retriever=dict(type='ZeroRetriever'),\n"
        "                   inferencer=dict(type='GenInferencer')))]\n",
    )
    with pytest.raises(ConfigError) as caught:
        load_datasets(config)
    assert str(caught.value) == (
        f"config {config}, dataset 'ob', key 'infer_cfg.prompt_template.type': OlympiadBenchTemplate (from "
        "opencompass.datasets.olympiadbench) is not a template class promptkit implements: write the prompt with PromptTemplate "
        "(or give type= a class that implements promptkit.templates.protocol.Template)"
    )


def test_unread_train_split_is_not_checked_for_columns(tmp_path):
    """Under ZeroRetriever the train split is read by nothing, so its missing columns are not an error; with shots they are."""
    write(tmp_path, "train.jsonl", '{"other": 1}\n')
    write(tmp_path, "test.jsonl", '{"q": "hi", "a": "yo"}\n')
    zero = dict(abbr='d', type='JsonlDataset', path=dict(train='train.jsonl', test='test.jsonl'), reader_cfg=dict(input_columns=['q'], output_column='a'),
                infer_cfg=dict(ice_template=dict(type='PromptTemplate', template='{q} {a}'), retriever=dict(type='ZeroRetriever'), inferencer=dict(type='GenInferencer')))
    config = write(tmp_path, "zero.py", f"datasets = [{zero!r}]\n")
    assert Renderer(load_datasets(config)[0]).render(0)[0].prompt == "hi "
    fixk = write(tmp_path, "fixk.py", f"datasets = [{zero!r}]\n".replace("'ZeroRetriever'", "'FixKRetriever', 'fix_id_list': [0]"))
    with pytest.raises(DatasetError, match=r"column 'q' \(reader_cfg.input_columns\) is missing from row 0 of split 'train'"):
        Renderer(load_datasets(fixk)[0]).render(0)


FAKE_OPENCOMPASS = {
    "opencompass/__init__.py": "__version__ = 'fake'\n",
    "opencompass/openicl/__init__.py": "PromptTemplate = 'the real one'\n",
    "opencompass/datasets/__init__.py": "raise RuntimeError('the package __init__ must not run')\n",
    "opencompass/datasets/fakeqa.py": (
        "class FakeQADataset:\n"
        "    @staticmethod\n"
        "    def load(path, name):\n"
        "        return {'train': [], 'test': [{'question': f'{name} from {path}'}]}\n"
    ),
}


@pytest.fixture
def fake_opencompass(tmp_path, monkeypatch):
    """An installed `opencompass` (a fake, on sys.path) whose datasets package cannot be imported whole."""
    site = tmp_path / "site"
    for name, text in FAKE_OPENCOMPASS.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    for name in [name for name in sys.modules if name.split(".")[0] == "opencompass"]:
        monkeypatch.delitem(sys.modules, name)
    yield site
    for name in [name for name in sys.modules if name.split(".")[0] == "opencompass"]:
        del sys.modules[name]


FAKE_CONFIG = """
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.datasets import FakeQADataset
datasets = [dict(abbr='fake', type=FakeQADataset, path='qa', name='demo', reader_cfg=dict(input_columns=['question']),
                 infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='Q: {question}'),
                                retriever=dict(type='ZeroRetriever'), inferencer=dict(type='GenInferencer')))]
"""


def test_installed_opencompass_is_untouched_outside_loading(tmp_path, fake_opencompass):
    """While promptkit loads a config its classes serve the imports; afterwards `opencompass` is the installed package again."""
    import opencompass.openicl  # the installed one, imported before loading

    before = sys.modules["opencompass.openicl"]
    [dataset] = load_datasets(write(tmp_path, "fake.py", FAKE_CONFIG))
    assert type(dataset.prompt_template).__module__ == "promptkit.templates.prompt_template"
    assert sys.modules["opencompass.openicl"] is before
    assert opencompass.openicl.PromptTemplate == "the real one"


def test_installed_opencompass_reads_rows_of_classes_promptkit_does_not(tmp_path, fake_opencompass):
    """With OpenCompass installed, an unknown class's rows come from the real class, its module imported alone."""
    [dataset] = load_datasets(write(tmp_path, "fake.py", FAKE_CONFIG))
    assert Renderer(dataset).render(0)[0].prompt == "Q: demo from qa"
    assert "opencompass.datasets" not in sys.modules  # its __init__ (every dataset) never ran


def test_from_promptkit_configs_keep_working(tmp_path):
    """A config importing promptkit's classes next to OpenCompass's loads as before."""
    write(tmp_path, "rows.jsonl", '{"q": "hi"}\n')
    config = write(
        tmp_path,
        "both.py",
        "from promptkit import PromptTemplate, JsonlDataset\nfrom opencompass.openicl.icl_retriever import ZeroRetriever\n"
        "datasets = [dict(abbr='x', type=JsonlDataset, path='rows.jsonl', reader_cfg=dict(input_columns=['q']),\n"
        "    infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='<{q}>'), retriever=dict(type=ZeroRetriever),\n"
        "                   inferencer=dict(type='GenInferencer')))]\n",
    )
    assert Renderer(load_datasets(config)[0]).render(0)[0].prompt == "<hi>"



def test_rows_serve_every_split_the_config_reads(tmp_path, capsys):
    """--rows feeds a config whose reader_cfg names other splits (MMLU's train_split='dev'): shots and test rows alike."""
    config = write(tmp_path, "mmlu_gen_1a2b3c.py", MMLU)
    rows = write(tmp_path, "mine.jsonl", "".join(json.dumps({"input": f"q{i}", "A": "a", "B": "b", "C": "c", "D": "d", "target": "A"}) + "\n" for i in range(3)))
    assert main(["render", str(config), "--rows", str(rows), "--dataset", "lukaemon_mmlu_anatomy", "--indices", "2"]) == 0
    [record] = records(capsys)
    assert (record["index"], record["ice_idx"]) == (2, [0, 1])
    assert record["prompt"].endswith("q2\nA. a\nB. b\nC. c\nD. d\nAnswer: ")


def test_absolute_base_configs_inside_an_opencompass_checkout_are_read_from_it(tmp_path):
    """In OpenCompass's own repository, `from opencompass.configs.datasets... import` reads the checkout's file (as
    mmengine does for an installed package), though opencompass is not installed."""
    package = tmp_path / "repo" / "opencompass"
    for folder in ("configs/datasets/qa", "configs/datasets/suite"):
        (package / folder).mkdir(parents=True)
    write(package, "__init__.py", "")
    write(
        package / "configs" / "datasets" / "qa",
        "qa_gen.py",
        "from opencompass.openicl.icl_prompt_template import PromptTemplate\n"
        "from opencompass.openicl.icl_retriever import ZeroRetriever\n"
        "from opencompass.openicl.icl_inferencer import GenInferencer\n"
        "qa_datasets = [dict(abbr='qa', type='JsonlDataset', path='rows.jsonl', reader_cfg=dict(input_columns=['q']),\n"
        "    infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template='Q: {q}'), retriever=dict(type=ZeroRetriever),\n"
        "                   inferencer=dict(type=GenInferencer)))]\n",
    )
    top = write(
        package / "configs" / "datasets" / "suite",
        "suite.py",
        "from mmengine.config import read_base\n\nwith read_base():\n    from opencompass.configs.datasets.qa.qa_gen import qa_datasets\n\n"
        "datasets = [*qa_datasets]\n",
    )
    rows = write(tmp_path, "rows.jsonl", '{"q": "two?"}\n')
    (datasets,) = load_datasets(top, rows=rows)
    assert [p.prompt for p in Renderer(datasets)] == ["Q: two?"]
