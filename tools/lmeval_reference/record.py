"""Record lm-eval's requests for promptkit's lm-eval parity cases.

Run with the scratch venv's python (see setup_venv.sh)::

    /work/scratch/lmeval-venv/bin/python tools/lmeval_reference/record.py            # every case
    /work/scratch/lmeval-venv/bin/python tools/lmeval_reference/record.py pk_arc_easy  # cases whose spec matches

For every case (a task, group or tag name from ``tests/lmeval/tasks/`` and a
setup from ``SETUPS``) this calls the real ``lm_eval.evaluator.simple_evaluate``
with the setup's arguments and an LM object that only builds: lm-eval loads the
task, applies its num_fewshot/seed rules, and calls ``build_all_requests`` on
every task exactly as in a real run; when ``evaluate`` then hands the first
batch of requests to the model, the LM stops the run and the recorder reads
each task's ``instances``.  Nothing of lm-eval is patched except the download:
``datasets.load_dataset`` returns the rows of ``tests/lmeval/data`` (listed in
``datasets.json``) as in-memory ``datasets.Dataset`` objects.

Each case runs in a forked child, so module-level state in a task's
``utils.py`` starts fresh, as in a new lm-eval process.

The chat setups use an LM whose ``apply_chat_template`` does what lm-eval's
``HFLM.apply_chat_template`` does (0.4.13): ``tokenizer.apply_chat_template(
chat_history, tokenize=False, add_generation_prompt=..., continue_final_message=
not add_generation_prompt)``, and on a Jinja ``TemplateError`` the same call
again without the system messages.  The tokenizer is transformers' own, loaded
from a model folder in ``configs/models/hf`` (chat template + special tokens;
a one-word tokenizer.json is added, as tokenize=False never uses it).
"""

from __future__ import annotations

import argparse
import copy
import importlib.metadata as md
import json
import logging
import os
import shutil
import sys
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("TQDM_DISABLE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import datasets  # noqa: E402
import jinja2  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
LMEVAL_TESTS = REPO / "tests" / "lmeval"
TASKS_DIR = LMEVAL_TESTS / "tasks"
DATA_DIR = LMEVAL_TESTS / "data"
EXPECTED_DIR = LMEVAL_TESTS / "expected"
MODELS_DIR = REPO / "configs" / "models" / "hf"
SYSTEM = "You are a careful grader."

CHAT_MODELS = {
    "qwen": "qwen2_5_7b_instruct",
    "llama": "llama3_1_8b_instruct",
    "gemma": "gemma2_2b_it",  # its template rejects a system turn: HFLM's retry without it
}


@dataclass(frozen=True)
class Setup:
    """The simple_evaluate arguments of one recorded setup (None: not passed, lm-eval's default applies)."""

    name: str
    num_fewshot: int | None = None
    system_instruction: str | None = None
    chat_model: str | None = None
    fewshot_as_multiturn: bool = False
    limit: int | float | None = None
    samples: list[int] | None = None
    fewshot_random_seed: int | None = None
    note: str = ""

    def kwargs(self, spec: str) -> dict[str, Any]:
        args: dict[str, Any] = {
            "num_fewshot": self.num_fewshot,
            "system_instruction": self.system_instruction,
            "apply_chat_template": self.chat_model is not None,
            # simple_evaluate's own default is True; the CLI sets it to True when
            # --apply_chat_template is given; we always pass it explicitly.
            "fewshot_as_multiturn": self.fewshot_as_multiturn,
            "limit": self.limit,
        }
        if self.samples is not None:
            args["samples"] = {spec: self.samples}
        if self.fewshot_random_seed is not None:
            args["fewshot_random_seed"] = self.fewshot_random_seed
        return args

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        for key in ("num_fewshot", "system_instruction", "limit", "samples", "fewshot_random_seed"):
            out[key] = getattr(self, key)
        out["apply_chat_template"] = self.chat_model is not None
        out["fewshot_as_multiturn"] = self.fewshot_as_multiturn
        out["chat_model"] = f"configs/models/hf/{CHAT_MODELS[self.chat_model]}" if self.chat_model else None
        if self.fewshot_random_seed is None:
            out["fewshot_random_seed"] = "default (simple_evaluate: 1234)"
        if self.note:
            out["note"] = self.note
        return out


BASE_SETUPS = [
    Setup("zero", num_fewshot=0),
    Setup("three", num_fewshot=3),
    Setup("yaml", note="num_fewshot not passed: the YAML's num_fewshot, else 0"),
    Setup("plain_system", num_fewshot=3, system_instruction=SYSTEM),
    Setup("chat_zero_qwen", num_fewshot=0, chat_model="qwen", fewshot_as_multiturn=True),
    Setup("chat_system_qwen", num_fewshot=3, system_instruction=SYSTEM, chat_model="qwen"),
    Setup("chat_multiturn_qwen", num_fewshot=3, system_instruction=SYSTEM, chat_model="qwen", fewshot_as_multiturn=True),
    Setup("chat_system_llama", num_fewshot=3, system_instruction=SYSTEM, chat_model="llama"),
    Setup("chat_multiturn_llama", num_fewshot=3, system_instruction=SYSTEM, chat_model="llama", fewshot_as_multiturn=True),
]
EXTRA_SETUPS = {
    "chat_system_gemma": Setup("chat_system_gemma", num_fewshot=3, system_instruction=SYSTEM, chat_model="gemma",
                               note="the template raises on a system turn; HFLM retries without system messages"),
    "chat_multiturn_gemma": Setup("chat_multiturn_gemma", num_fewshot=3, system_instruction=SYSTEM, chat_model="gemma",
                                  fewshot_as_multiturn=True),
    "three_limit3": Setup("three_limit3", num_fewshot=3, limit=3),
    "three_limit_half": Setup("three_limit_half", num_fewshot=3, limit=0.5, note="a fractional limit: ceil(len(eval_docs) * limit)"),
    "three_samples": Setup("three_samples", num_fewshot=3, samples=[5, 1, 3], note="--samples picks documents; doc_id counts the picked ones"),
    "three_seed42": Setup("three_seed42", num_fewshot=3, fewshot_random_seed=42),
    "three_seed6": Setup("three_seed6", num_fewshot=3, fewshot_random_seed=6,
                         note="seed 6 draws both copies of a duplicated row for doc 2: the sampler draws again"),
}

TASKS = [
    "pk_arc_easy", "pk_arc_easy_indices", "pk_arc_challenge", "pk_mmlu_astronomy", "pk_mmlu_anatomy", "pk_mmlu_continuation", "pk_mmlu_generative",
    "pk_hellaswag", "pk_winogrande", "pk_winogrande_jinja", "pk_gsm8k", "pk_gsm8k_cot", "pk_gsm8k_chat", "pk_gsm8k_defaults",
    "pk_boolq", "pk_piqa", "pk_sciq", "pk_openbookqa", "pk_csqa_shuffled", "pk_csqa_random_module", "pk_lambada", "pk_lambada_cloze", "pk_wikitext",
    "pk_wikitext_jinja", "pk_triviaqa", "pk_nq_open", "pk_truthfulqa_mc2", "pk_truthfulqa_mc1", "pk_logiqa", "pk_logiqa_space",
    "pk_humaneval_instruct", "pk_bbh_boolean_expressions", "pk_quirks_description_column",
]
#: Specs that are groups or tags (several tasks in one run), with the setups recorded for them.
MULTI = {
    "pk_arc": ["zero", "three", "yaml", "chat_multiturn_qwen"],
    "pk_mmlu": ["zero", "three", "yaml", "chat_multiturn_qwen"],
    "pk_science": ["three", "yaml"],
    "pk_multiple_choice": ["yaml"],
}
EXTRAS = {
    "pk_arc_easy": ["chat_system_gemma", "chat_multiturn_gemma", "three_limit3", "three_limit_half", "three_samples", "three_seed42"],
    "pk_mmlu_anatomy": ["chat_system_gemma"],
    "pk_gsm8k_chat": ["chat_system_gemma", "chat_multiturn_gemma"],
    "pk_csqa_shuffled": ["three_limit3"],
    "pk_truthfulqa_mc1": ["three_limit3", "three_seed42", "three_seed6"],
    "pk_winogrande": ["chat_system_gemma"],
}


def cases() -> list[tuple[str, Setup]]:
    out = [(task, setup) for task in TASKS for setup in BASE_SETUPS]
    out += [(task, EXTRA_SETUPS[name]) for task, names in EXTRAS.items() for name in names]
    by_name = {s.name: s for s in BASE_SETUPS}
    out += [(spec, by_name[name]) for spec, names in MULTI.items() for name in names]
    return out


# ---------------------------------------------------------------- data: the only thing replaced
def install_rows() -> None:
    """Make datasets.load_dataset(path, name, ...) return our rows for the datasets in datasets.json."""
    manifest = json.loads((DATA_DIR / "datasets.json").read_text(encoding="utf-8"))["datasets"]
    table = {(d["dataset_path"], d["dataset_name"]): d["splits"] for d in manifest}

    def load_dataset(path: str, name: str | None = None, **kwargs: Any) -> datasets.DatasetDict:
        splits = table.get((path, name))
        if splits is None:
            raise FileNotFoundError(f"no rows for dataset_path={path!r} dataset_name={name!r} in {DATA_DIR / 'datasets.json'}")
        out = {}
        for split, file in splits.items():
            rows = [json.loads(line) for line in (DATA_DIR / file).read_text(encoding="utf-8").splitlines() if line.strip()]
            out[split] = datasets.Dataset.from_list(rows)
        return datasets.DatasetDict(out)

    datasets.load_dataset = load_dataset


# ---------------------------------------------------------------- the LM
class RequestsBuilt(Exception):
    """Raised by the recording LM when evaluate() hands it the first batch: every task has built its requests."""


def load_tokenizer(folder: Path, scratch: Path) -> Any:
    import tokenizers
    import transformers

    copy_dir = scratch / folder.name
    shutil.copytree(folder, copy_dir)
    tokenizers.Tokenizer(tokenizers.models.WordLevel({"<unk>": 0}, unk_token="<unk>")).save(str(copy_dir / "tokenizer.json"))
    return transformers.PreTrainedTokenizerFast.from_pretrained(str(copy_dir))


def make_lm(tokenizer: Any | None, model_name: str | None) -> Any:
    from lm_eval.api.model import LM

    @dataclass
    class ChatCall:
        chat_history: list[dict[str, str]]
        add_generation_prompt: bool
        system_dropped: bool
        result: str

    class RecordingLM(LM):
        """Builds nothing itself; lets lm-eval build requests, stops at the first model call."""

        def __init__(self) -> None:
            super().__init__()
            self.tokenizer = tokenizer
            self.calls: list[ChatCall] = []

        @property
        def tokenizer_name(self) -> str:
            return model_name or ""

        def apply_chat_template(self, chat_history: list[dict[str, str]], add_generation_prompt: bool = True) -> str:
            # What lm_eval.models.huggingface.HFLM.apply_chat_template does (chat_template_args empty).
            given = copy.deepcopy(chat_history)
            dropped = False
            try:
                text = self.tokenizer.apply_chat_template(
                    chat_history, tokenize=False, add_generation_prompt=add_generation_prompt,
                    continue_final_message=not add_generation_prompt,
                )
            except jinja2.exceptions.TemplateError:
                dropped = True
                chat_history = [m for m in chat_history if m["role"] != "system"]
                text = self.tokenizer.apply_chat_template(
                    chat_history, tokenize=False, add_generation_prompt=add_generation_prompt,
                    continue_final_message=not add_generation_prompt,
                )
            self.calls.append(ChatCall(given, add_generation_prompt, dropped, text))
            return text

        def loglikelihood(self, requests: list[Any]) -> list[Any]:
            raise RequestsBuilt

        def loglikelihood_rolling(self, requests: list[Any]) -> list[Any]:
            raise RequestsBuilt

        def generate_until(self, requests: list[Any]) -> list[Any]:
            raise RequestsBuilt

    return RecordingLM()


# ---------------------------------------------------------------- one case
def jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str, ensure_ascii=False))


def record_case(spec: str, setup: Setup, tokenizers: dict[str, Any]) -> dict[str, Any]:
    from lm_eval import evaluator
    from lm_eval.tasks import TaskManager

    lm = make_lm(tokenizers.get(setup.chat_model) if setup.chat_model else None,
                 CHAT_MODELS.get(setup.chat_model or ""))
    manager = TaskManager(include_path=str(TASKS_DIR), include_defaults=False)
    loaded_box: list[Any] = []
    original_load = manager.load

    def load(task_list: Any) -> Any:
        loaded = original_load(task_list)
        loaded_box.append(loaded)
        return loaded

    manager.load = load  # type: ignore[method-assign]
    try:
        evaluator.simple_evaluate(model=lm, tasks=[spec], task_manager=manager, bootstrap_iters=0,
                                  confirm_run_unsafe_code=True, **setup.kwargs(spec))
    except RequestsBuilt:
        pass
    else:
        raise RuntimeError("simple_evaluate returned without asking the model anything")
    loaded = loaded_box[0]

    calls = list(lm.calls)
    cursor = 0
    tasks_out = []
    for name, task in loaded["tasks"].items():
        instances = task.instances
        docs: dict[int, Any] = {}
        records = []
        by_doc: dict[int, list[Any]] = {}
        for inst in instances:
            by_doc.setdefault(inst.doc_id, []).append(inst)
        for doc_id, group in by_doc.items():
            doc = group[0].doc
            docs[doc_id] = doc
            target = task.doc_to_target(doc)
            if setup.chat_model:
                n_calls = len(group) if task.multiple_input else 1
                doc_calls = calls[cursor:cursor + n_calls]
                cursor += n_calls
            for inst in group:
                rec: dict[str, Any] = {"doc_id": doc_id, "idx": inst.idx, "request_type": inst.request_type}
                args = inst.arguments
                if inst.request_type == "loglikelihood":
                    rec["context"], rec["continuation"] = args[0], args[1]
                elif inst.request_type == "loglikelihood_rolling":  # arguments = (text,): no context is sent
                    rec["context"], rec["continuation"] = None, args[0]
                else:
                    rec["context"], rec["generation_kwargs"] = args[0], args[1]
                rec["target"] = target
                rec["repeats"] = inst.repeats
                # acc_mutual_info: after the choices come ("", choice) requests without any context.
                unconditional = task.OUTPUT_TYPE == "multiple_choice" and inst.idx >= len(task.doc_to_choice(doc))
                if unconditional:
                    rec["unconditional"] = True
                if setup.chat_model and not unconditional:
                    call = doc_calls[inst.idx] if task.multiple_input else doc_calls[0]
                    if inst.request_type != "loglikelihood_rolling":
                        assert call.result == args[0], (spec, setup.name, doc_id, inst.idx)
                    if inst.request_type == "loglikelihood_rolling":
                        rec["chat_context_unused"] = call.result
                    rec["messages"] = call.chat_history
                    rec["add_generation_prompt"] = call.add_generation_prompt
                    rec["system_dropped_by_template_retry"] = call.system_dropped
                records.append(rec)
        cfg = task.config
        tasks_out.append({
            "task": name,
            "task_alias": cfg.task_alias,
            "output_type": task.OUTPUT_TYPE,
            "num_fewshot": cfg.num_fewshot,
            "eval_split": cfg.test_split if cfg.test_split is not None else cfg.validation_split,
            "multiple_input": task.multiple_input,
            "multiple_target": task.multiple_target,
            "docs": {str(k): v for k, v in docs.items()},
            "instances": records,
        })
    if setup.chat_model:
        assert cursor == len(calls), (spec, setup.name, cursor, len(calls))
    return jsonable({
        "lm_eval_version": md.version("lm_eval"),
        "transformers_version": md.version("transformers") if setup.chat_model else None,
        "recorded_by": "tools/lmeval_reference/record.py",
        "spec": spec,
        "setup": setup.describe(),
        "tasks": tasks_out,
    })


def run_forked(spec: str, setup: Setup, tokenizers: dict[str, Any], out: Path) -> bool:
    pid = os.fork()
    if pid == 0:  # child: fresh task modules, one case
        code = 0
        try:
            result = record_case(spec, setup, tokenizers)
            out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="*", help="record only these specs (task, group or tag names)")
    parser.add_argument("--setup", action="append", help="record only these setups")
    parser.add_argument("--out", type=Path, default=EXPECTED_DIR)
    parser.add_argument("--list", action="store_true", help="list the cases and stop")
    ns = parser.parse_args()

    todo = [(s, st) for s, st in cases() if (not ns.specs or s in ns.specs) and (not ns.setup or st.name in ns.setup)]
    if ns.list:
        for spec, setup in todo:
            print(f"{spec}__{setup.name}")
        return 0
    logging.disable(logging.WARNING)  # lm-eval logs a lot at INFO/WARNING; errors still show
    datasets.disable_progress_bars()
    install_rows()
    import lm_eval.evaluator  # noqa: F401  (imported once, before forking)

    ns.out.mkdir(parents=True, exist_ok=True)
    failed = []
    with tempfile.TemporaryDirectory() as scratch:
        needed = {st.chat_model for _, st in todo if st.chat_model}
        tokenizers = {key: load_tokenizer(MODELS_DIR / CHAT_MODELS[key], Path(scratch)) for key in sorted(needed)}
        for spec, setup in todo:
            out = ns.out / f"{spec}__{setup.name}.json"
            if not run_forked(spec, setup, tokenizers, out):
                failed.append(out.name)
    print(f"recorded {len(todo) - len(failed)} of {len(todo)} cases into {ns.out}")
    for name in failed:
        print(f"FAILED: {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
