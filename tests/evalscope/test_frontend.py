"""The EvalScope front end as a user meets it: sources, options, data, records, the CLI commands, and bad input.

The messages EvalScope sends are checked case by case in test_parity.py; here, what surrounds them.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from promptkit import Overrides, PromptkitError, Renderer, load_datasets, load_models
from promptkit.cli.main import main
from promptkit.frontends.evalscope.files import evalscope_installed, read_adapter_file

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
DATA = HERE / "data"
DEMO = ROOT / "configs" / "datasets" / "evalscope_demo" / "evalscope_demo_gen.py"
LLAMA3 = ROOT / "configs" / "models" / "llama3_8b_instruct.py"


def expected(name: str) -> list[dict[str, Any]]:
    recorded = json.loads((HERE / "expected" / f"{name}.json").read_text(encoding="utf-8"))
    return [{key: sample[key] for key in ("subset", "index", "messages")} for sample in recorded["samples"]]


def records(source: str | Path, *, overrides: list[str] | None = None, rows: list[str] | None = None, model: Any = None) -> list[dict[str, Any]]:
    out = []
    for spec in load_datasets(source, overrides=overrides, rows=rows):
        out.extend(prompt.to_record() for prompt in Renderer(spec, model))
    return out


def sent(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"subset": r["subset"], "index": r["index"], "messages": r["messages"]} for r in found]


def message(source: str | Path, **kwargs: Any) -> str:
    with pytest.raises(PromptkitError) as error:
        records(source, **kwargs)
    return str(error.value)


def adapter_file(tmp_path: Path, body: str, rows: list[dict[str, Any]] | None = None, imports: str = "") -> Path:
    """An adapter file registering 'quiz' over ``tmp_path/data/test.jsonl`` (``rows``); ``body`` is the class body."""
    (tmp_path / "data").mkdir(exist_ok=True)
    rows = rows if rows is not None else [{"question": "1+1?", "answer": "2"}, {"question": "2+2?", "answer": "4"}]
    (tmp_path / "data" / "test.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    path = tmp_path / "quiz_adapter.py"
    header = (
        "from evalscope.api.benchmark import BenchmarkMeta, DefaultDataAdapter\n"
        "from evalscope.api.dataset import Sample\n"
        "from evalscope.api.registry import register_benchmark\n"
        f"{imports}\n\n"
        "@register_benchmark(BenchmarkMeta(name='quiz', dataset_id='data', eval_split='test', prompt_template='Q: {question}'))\n"
        "class QuizAdapter(DefaultDataAdapter):\n"
    )
    path.write_text(header + textwrap.indent(textwrap.dedent(body), "    "), encoding="utf-8")
    return path


RECORD_TO_SAMPLE = """
def record_to_sample(self, record):
    return Sample(input=record['question'], target=record['answer'])
"""


# -- sources ----------------------------------------------------------------------------------------------------


def test_an_adapter_file_renders_with_its_own_class(tmp_path):
    """A file's benchmark renders with its class; its data folder is found beside it."""
    found = records(adapter_file(tmp_path, RECORD_TO_SAMPLE))
    assert [(r["id"], r["messages"], r["target"]) for r in found] == [
        ("quiz/default/0", [{"role": "user", "content": "Q: 1+1?"}], "2"),
        ("quiz/default/1", [{"role": "user", "content": "Q: 2+2?"}], "4"),
    ]


def test_a_file_registering_a_built_in_name_renders_with_the_files_class():
    """The guide's GSM8K file registers gsm8k, and its prompt is the file's (its own template), not the native one."""
    overrides = [f"local_path={str(DATA / 'gsm8k')!r}", "few_shot_num=0"]
    guide = records(HERE / "adapters" / "gsm8k_adapter.py", overrides=overrides)
    native = records("evalscope:gsm8k", overrides=overrides)
    assert guide[0]["messages"][0]["content"].startswith("Solve the following math problem step by step.")
    assert native[0]["messages"][0]["content"].endswith("Please reason step by step, and put your final answer within \\boxed{}.")


@pytest.mark.skipif(evalscope_installed(), reason="EvalScope is installed: the file imports it")
def test_served_imports_leave_no_evalscope_module_behind(tmp_path):
    """After an adapter file loads, no evalscope module is left in sys.modules (EvalScope is not installed here)."""
    records(adapter_file(tmp_path, RECORD_TO_SAMPLE))
    assert not [name for name in sys.modules if name == "evalscope" or name.startswith("evalscope.")]


def test_an_unimplemented_base_class_adds_nothing(tmp_path):
    """A scoring mixin imported from EvalScope (not implemented here) may be listed as a base class."""
    path = adapter_file(tmp_path, RECORD_TO_SAMPLE, imports="from evalscope.api.mixin import CodeExecutionSandboxMixin")
    path.write_text(path.read_text(encoding="utf-8").replace("QuizAdapter(DefaultDataAdapter)", "QuizAdapter(CodeExecutionSandboxMixin, DefaultDataAdapter)"), encoding="utf-8")
    assert len(records(path)) == 2


@pytest.mark.skipif(evalscope_installed(), reason="EvalScope is installed: its index names the benchmarks")
def test_an_unknown_benchmark_name_is_one_line():
    """A name promptkit does not read (EvalScope not installed) says which it reads and the ways on."""
    assert message("evalscope:gsm8").startswith(
        "config evalscope:gsm8: 'gsm8' is not among the benchmarks promptkit reads natively (did you mean 'gsm8k'?) (aime24, aime25,"
    )
    assert message("evalscope:gsm8").endswith(
        "install evalscope to render its other registered benchmarks with EvalScope's own adapter, or write an adapter file for it (docs/evalscope.md)"
    )


# -- data -------------------------------------------------------------------------------------------------------


def test_without_data_the_ways_on_are_named():
    """A registered benchmark with no data folder says what EvalScope would download and the three ways to give rows."""
    assert message("evalscope:mmlu") == (
        "config evalscope:mmlu, dataset 'mmlu': no data: EvalScope would download 'cais/mmlu', and promptkit downloads nothing; give "
        "the local folder with --set local_path=DIR (read as EvalScope reads it), --data-root DIR (for DIR/mmlu), or the rows with "
        "--rows SUBSET:SPLIT=FILE (it reads all:test, all:dev)"
    )


def test_data_root_holds_a_folder_per_benchmark():
    """--data-root DIR reads DIR/<name>."""
    found = [r for spec in load_datasets("evalscope:gsm8k", data_root=DATA) for r in (p.to_record() for p in Renderer(spec))]
    assert sent(found) == expected("gsm8k__default")


def test_rows_feed_a_split_of_a_loader_subset():
    """--rows SUBSET:SPLIT=FILE names the loader subset (all for MMLU), and renders what the folder renders."""
    subjects = "subset_list=['high_school_geography', 'college_computer_science']"
    rows = [f"all:test={DATA / 'mmlu' / 'all' / 'test.jsonl'}", f"all:dev={DATA / 'mmlu' / 'all' / 'dev.jsonl'}"]
    assert sent(records("evalscope:mmlu", overrides=[subjects], rows=rows)) == expected("mmlu__default")


def test_rows_split_file_for_a_benchmark_with_one_loader_subset():
    """--rows SPLIT=FILE when the benchmark reads one loader subset (main for GSM8K)."""
    rows = [f"test={DATA / 'gsm8k' / 'main' / 'test.jsonl'}", f"train={DATA / 'gsm8k' / 'main' / 'train.jsonl'}"]
    assert sent(records("evalscope:gsm8k", rows=rows)) == expected("gsm8k__default")


def test_rows_naming_a_regrouped_subset_say_the_loader_subset():
    """A subset_list entry is not a loader subset: the message names the one to use."""
    rows = f"high_school_geography:test={DATA / 'mmlu' / 'all' / 'test.jsonl'}"
    assert message("evalscope:mmlu", rows=[rows]) == (
        f"--rows {rows}: the benchmark reads the loader subsets ['all'], not 'high_school_geography'; 'high_school_geography' is a subset "
        "regrouped from the loader subset by Sample.subset_key, so give its rows with the others' (--rows all:test=FILE)"
    )


def test_rows_of_a_split_not_read_are_refused():
    """A split the benchmark does not read is named, with the splits it does read."""
    rows = f"main:validation={DATA / 'gsm8k' / 'main' / 'test.jsonl'}"
    assert message("evalscope:gsm8k", rows=[rows]) == f"--rows {rows}: the loader subset 'main' is read for the splits ['test', 'train'], not 'validation'"


def test_rows_for_some_splits_need_the_others():
    """With no folder, a split --rows does not give is named with the --rows that would give it."""
    rows = f"test={DATA / 'gsm8k' / 'main' / 'test.jsonl'}"
    assert message("evalscope:gsm8k", rows=[rows]) == (
        "config evalscope:gsm8k, dataset 'gsm8k': no rows for subset 'main', split 'train': --rows gives main:test; add --rows main:train=FILE"
    )


def test_a_folder_without_configs_holds_only_the_default_subset(tmp_path):
    """A bare folder read for a named loader subset says how to declare it."""
    (tmp_path / "test.jsonl").write_text('{"question": "q", "answer": "1 #### 1"}\n', encoding="utf-8")
    assert message("evalscope:gsm8k", overrides=[f"local_path={str(tmp_path)!r}", "few_shot_num=0"]) == (
        f"config evalscope:gsm8k, dataset 'gsm8k', file {tmp_path}: {tmp_path} has no README.md declaring configs, so it holds only the "
        "subset 'default', not 'main'; declare the configs in README.md as datasets reads them, or give the rows with --rows main:test=FILE"
    )


def test_the_local_loader_lists_the_files_it_looked_for(tmp_path):
    """general_qa reads <subset>_<split>.<ext> or <subset>.<ext>; a missing one lists the names and the files there."""
    (tmp_path / "other.jsonl").write_text('{"question": "q"}\n', encoding="utf-8")
    assert message("evalscope:general_qa", overrides=[f"local_path={str(tmp_path)!r}"]) == (
        f"config evalscope:general_qa, dataset 'general_qa', file {tmp_path}: no file for subset 'default', split 'test' in {tmp_path}: "
        "expected one of default_test.jsonl, default_test.csv, default_test.parquet (or default.jsonl …); data files there: other.jsonl"
    )


# -- options ----------------------------------------------------------------------------------------------------


def test_num_fewshot_sets_few_shot_num():
    """--num-fewshot K is dataset_args few_shot_num=K."""
    found = [p.to_record() for spec in load_datasets("evalscope:gsm8k", data_root=DATA, overrides=Overrides((), 0)) for p in Renderer(spec)]
    assert sent(found) == expected("gsm8k__zero_shot")
    assert found[0]["provenance"]["overrides"] == ["few_shot_num=0"]


def test_limit_cuts_the_test_rows_of_each_subset():
    """--set limit=N is TaskConfig.limit: the first N test samples of each subset (after regrouping, for MMLU)."""
    subjects = "subset_list=['high_school_geography', 'college_computer_science']"
    found = records("evalscope:mmlu", overrides=[f"local_path={str(DATA / 'mmlu')!r}", subjects, "limit=1"])
    assert sent(found) == [sample for sample in expected("mmlu__default") if sample["index"] == 0]
    assert message("evalscope:mmlu", overrides=["limit=-1"]) == "--set limit=-1: the limit is a number of rows (0 or more) or a fraction from 0 to 1"


def test_an_undeclared_extra_param_is_refused():
    """extra_params may only set the benchmark's declared switches (EvalScope's KeyError, in one line)."""
    assert message("evalscope:gsm8k", overrides=[f"local_path={str(DATA / 'gsm8k')!r}", "extra_params.use_cot=True"]) == (
        "config evalscope:gsm8k, dataset 'gsm8k': dataset_args: Extra param use_cot not found in benchmark gsm8k extra_params."
    )


def test_a_declared_field_is_refused_as_evalscope_refuses_it():
    """few_shot_mode and the other declared-only fields cannot be set."""
    assert message("evalscope:bbh", overrides=["few_shot_mode='auto'"]) == (
        "config evalscope:bbh, dataset 'bbh': dataset_args: few_shot_mode must be declared by BenchmarkMeta, not overridden through dataset_args."
    )


def test_the_guides_gsm8k_renders_once_a_few_shot_template_is_given():
    """The one-line refusal of the guide's GSM8K names few_shot_prompt_template; given one, it renders 4 shots."""
    template = "few_shot_prompt_template='{fewshot}\\n\\n{question}\\n\\nReasoning:\\n'"
    found = records(HERE / "adapters" / "gsm8k_adapter.py", overrides=[f"local_path={str(DATA / 'gsm8k')!r}", template])
    assert found[0]["messages"][0]["content"].count("ANSWER: ") == 4


# -- records and models -----------------------------------------------------------------------------------------


def test_records_carry_the_sample_and_what_evalscope_sends():
    """Each record has the subset, the sample's index and id, the messages, the target and the choices."""
    (first, *_) = records("evalscope:arc", overrides=[f"local_path={str(DATA / 'arc')!r}", "shuffle_choices=True"])
    assert {key: first[key] for key in ("dataset", "index", "id", "subset", "target", "choices", "gold")} == {
        "dataset": "arc/ARC-Easy",
        "index": 0,
        "id": "arc/ARC-Easy/0",
        "subset": "ARC-Easy",
        "target": "B",
        "choices": ["volcanoes", "the Sun", "wind", "the Moon"],
        "gold": "B",
    }


def test_with_a_model_the_messages_go_through_its_chat_template():
    """--model: the prompt is the messages through Llama 3's template; the record's messages stay what EvalScope sends."""
    (model,) = load_models(LLAMA3)
    found = records("evalscope:general_qa", overrides=[f"local_path={str(DATA / 'general_qa')!r}", "subset_list=['chat']"], model=model)
    assert found[0]["prompt"] == (
        "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are a geography tutor.<|eot_id|><|start_header_id|>user"
        "<|end_header_id|>\n\nWhich river flows through Cairo?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nThe Nile.<|eot_id|>"
        "<|start_header_id|>user<|end_header_id|>\n\nAnd which sea does it empty into?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
    )
    assert found[0]["messages"] == next(s["messages"] for s in expected("general_qa__default") if s["subset"] == "chat")


# -- bad input --------------------------------------------------------------------------------------------------


def test_an_inference_hook_is_refused_in_one_line(tmp_path):
    """An adapter overriding _on_inference is refused, naming the hook and why it is not part of building prompts."""
    path = adapter_file(tmp_path, RECORD_TO_SAMPLE + "\ndef _on_inference(self, model, sample):\n    return model.generate(input=sample.input)\n")
    assert message(path) == (
        f"config {path}, dataset 'quiz': QuizAdapter overrides _on_inference, which builds the request when the model is called (an agent "
        "loop, a multi-turn exchange, a decision API); promptkit renders what the loaded samples send and calls no model, so it cannot run it"
    )


def test_a_loading_hook_is_refused_in_one_line(tmp_path):
    """An adapter loading its own rows is refused, naming the hook."""
    path = adapter_file(tmp_path, RECORD_TO_SAMPLE + "\ndef load_subset(self, subset, data_loader):\n    return []\n")
    assert message(path) == (
        f"config {path}, dataset 'quiz': QuizAdapter overrides load_subset, which loads rows its own way; promptkit reads the rows itself "
        "(the local layouts EvalScope's loaders read, or --rows), so it cannot run it"
    )


def test_record_to_sample_raising_names_file_subset_and_row(tmp_path):
    """A record_to_sample that raises: the file, the record's index, the subset and the exception."""
    path = adapter_file(tmp_path, "def record_to_sample(self, record):\n    return Sample(input=record['prompt'], target='')\n")
    assert message(path) == (
        f"config {path}, dataset 'quiz', file {tmp_path / 'data' / 'test.jsonl'}, row 0: record_to_sample raised KeyError: 'prompt' "
        "(loader subset 'default', split 'test')"
    )


def test_a_sample_with_media_is_refused(tmp_path):
    """A sample whose messages carry an image is one line: media benchmarks are out of scope."""
    body = (
        "def record_to_sample(self, record):\n"
        "    content = [ContentText(text=record['question']), ContentImage(image='cat.png')]\n"
        "    return Sample(input=[ChatMessageUser(content=content)], target=record['answer'])\n"
    )
    path = adapter_file(tmp_path, body, imports="from evalscope.api.messages import ChatMessageUser, ContentImage, ContentText")
    assert message(path) == (
        f"config {path}, dataset 'quiz': sample 0 of subset 'default': a user message carries image content; promptkit's EvalScope front "
        "end renders text benchmarks (image, audio and video benchmarks are out of scope)"
    )


@pytest.mark.skipif(evalscope_installed(), reason="EvalScope is installed: the helper is its own")
def test_a_hook_calling_an_unimplemented_helper_is_refused(tmp_path):
    """A helper of EvalScope's that promptkit does not implement may be imported, but calling it while building prompts is one line."""
    body = "def record_to_sample(self, record):\n    return Sample(input=record['question'], target=extract_answer(record['answer']))\n"
    path = adapter_file(tmp_path, body, imports="from evalscope.metrics.math.parser import extract_answer")
    assert message(path) == (
        f"config {path}, dataset 'quiz', file {tmp_path / 'data' / 'test.jsonl'}, row 0: the adapter calls "
        "evalscope.metrics.math.parser.extract_answer, which promptkit does not implement (it reads EvalScope's prompt-building API: "
        "BenchmarkMeta, the adapters, Sample, chat messages, multi_choices); install evalscope to render it"
    )


def test_a_file_that_registers_nothing_is_refused(tmp_path):
    """A file importing evalscope but registering no benchmark says how to register one."""
    path = tmp_path / "empty_adapter.py"
    path.write_text("from evalscope.api.benchmark import DefaultDataAdapter\n", encoding="utf-8")
    assert message(path) == (
        f"config {path}: the file registers no benchmark: decorate an adapter class with @register_benchmark(BenchmarkMeta(...)) "
        "(from evalscope.api.registry import register_benchmark)"
    )


def test_a_file_that_fails_to_load_names_the_line(tmp_path):
    """An exception while the file runs is reported with the file's line."""
    path = tmp_path / "broken_adapter.py"
    path.write_text("import evalscope\n\nPROMPT = TEMPLATE + '{question}'\n", encoding="utf-8")
    assert message(path) == f"config {path}: cannot load the adapter file: line 3: NameError: name 'TEMPLATE' is not defined"


# -- the CLI commands -------------------------------------------------------------------------------------------


def test_render_and_preview_on_the_command_line(capsys):
    """render writes the records; preview shows a sample; both with EvalScope's options."""
    args = ["evalscope:race", "--data-root", str(DATA), "--num-fewshot", "1", "--set", "subset_list=['middle']"]
    assert main(["render", *args]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["id"] for line in lines] == ["race/middle/0", "race/middle/1", "race/middle/2"]
    assert main(["preview", *args, "--index", "1", "--color", "never"]) == 0
    assert "race/middle · row 1" in capsys.readouterr().out


def test_view_lint_diff_and_snapshot_take_the_bundled_adapter_file(tmp_path, capsys):
    """view, lint, diff and snapshot read an adapter file as any config."""
    assert main(["view", str(DEMO), "--out", str(tmp_path / "view.html")]) == 0
    assert main(["lint", str(DEMO)]) == 0
    assert main(["diff", str(DEMO), str(DEMO)]) == 0
    assert main(["snapshot", "write", str(tmp_path / "pinned"), str(DEMO)]) == 0
    assert main(["snapshot", "check", str(tmp_path / "pinned")]) == 0
    out = capsys.readouterr().out
    assert "7 prompts compared: 7 identical" in out and "no findings in 2 datasets" in out


def test_the_extra_installs_nothing_heavy():
    """pip install 'promptkit[evalscope]' brings no torch, transformers, modelscope or EvalScope."""
    (line,) = re.findall(r"^evalscope = \[(.*)\]$", (ROOT / "pyproject.toml").read_text(encoding="utf-8"), flags=re.M)
    names = [re.split(r"[<>=\[]", requirement.strip().strip('"'))[0].lower() for requirement in line.split(",")]
    assert names and not {"torch", "transformers", "modelscope", "evalscope"} & set(names)


@pytest.mark.skipif(not evalscope_installed(), reason="EvalScope is not installed (CI): the served imports are checked everywhere else")
def test_with_evalscope_installed_an_unknown_name_points_at_its_index():
    """With EvalScope installed, a name neither promptkit nor EvalScope knows points at EvalScope's index of names."""
    assert message("evalscope:gsm8").startswith("config evalscope:gsm8: EvalScope registers no benchmark 'gsm8' (did you mean 'gsm8k'?); its ")
    assert message("evalscope:gsm8").endswith("benchmarks/_index.json")


@pytest.mark.skipif(not evalscope_installed(), reason="EvalScope is not installed (CI): the served imports are checked everywhere else")
def test_with_evalscope_installed_a_files_imports_are_evalscopes_own():
    """With EvalScope installed, an adapter file's classes derive from EvalScope's own, and render the same messages."""
    (meta,) = read_adapter_file(HERE / "adapters" / "topic_quiz_adapter.py")
    assert [klass.__module__ for klass in meta.data_adapter.__mro__][1] == "evalscope.api.benchmark.adapters.multi_choice_adapter"
    found = records(HERE / "adapters" / "topic_quiz_adapter.py", overrides=[f"local_path={str(DATA / 'topic_quiz')!r}"])
    assert sent(found) == expected("topic_quiz__default")


@pytest.mark.skipif(not evalscope_installed(), reason="EvalScope is not installed (CI): without it, such a name is one line")
def test_with_evalscope_installed_other_benchmarks_render_with_its_adapter(tmp_path):
    """A registered benchmark promptkit does not read natively renders with EvalScope's own adapter class (PIQA here)."""
    rows = tmp_path / "piqa.jsonl"
    rows.write_text(json.dumps({"question": "To open a jar, you should", "choices": ["twist the lid", "freeze it"], "answer": "A"}) + "\n", encoding="utf-8")
    (record,) = records("evalscope:piqa", rows=[f"validation={rows}"])
    assert record["messages"][0]["content"].endswith("To open a jar, you should\n\nA) twist the lid\nB) freeze it")
    assert "evalscope.benchmarks.piqa.piqa_adapter" in sys.modules


def test_seed_is_evalscopes_seed(capsys):
    """`--seed N` is EvalScope's TaskConfig.seed, as `--set seed=N` sets it: the shuffled choices follow it."""
    args = ["render", "evalscope:arc", "--set", f"local_path={str(DATA / 'arc')!r}", "--set", "shuffle_choices=True"]
    prompts = {}
    for extra in (["--seed", "7"], ["--set", "seed=7"], []):
        assert main([*args, *extra]) == 0
        prompts[" ".join(extra)] = [json.loads(line)["messages"] for line in capsys.readouterr().out.splitlines()]
    assert prompts["--seed 7"] == prompts["--set seed=7"]
    assert prompts["--seed 7"] != prompts[""]


@pytest.mark.skipif(evalscope_installed(), reason="EvalScope is installed: the file's base class is EvalScope's own")
def test_an_adapter_without_record_to_sample_is_one_line_naming_the_hook(tmp_path, capsys):
    """A file whose class defines no record_to_sample: one line naming the class and what to define."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "test.jsonl").write_text('{"question": "q", "answer": "a"}\n', encoding="utf-8")
    path = tmp_path / "noimpl_adapter.py"
    path.write_text(
        textwrap.dedent(
            """\
            from evalscope.api.benchmark import BenchmarkMeta, DefaultDataAdapter
            from evalscope.api.registry import register_benchmark

            @register_benchmark(BenchmarkMeta(name='noimpl', dataset_id='data', prompt_template='{question}', eval_split='test'))
            class NoImpl(DefaultDataAdapter):
                pass
            """
        ),
        encoding="utf-8",
    )
    assert main(["render", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("promptkit: error: ")
    assert "NoImpl defines no record_to_sample(record): define it in the adapter file, returning a Sample" in err
