"""Native benchmarks whose samples are chat messages built in ``record_to_sample``: General-QA (EvalScope's local custom
format), IFEval, HumanEval and LiveCodeBench.

Their messages are sent as built; the system prompt is added when they hold no system message.  The prompt texts are
EvalScope's (checked against its requests by ``tests/evalscope``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from promptkit.frontends.evalscope.api.adapters import DefaultDataAdapter
from promptkit.frontends.evalscope.api.messages import ChatMessageSystem, ChatMessageUser, dict_to_chat_message
from promptkit.frontends.evalscope.api.samples import Sample
from promptkit.frontends.evalscope.natives.table import native

__all__ = ["LIVE_CODE_BENCH_VERSIONS"]

_HUMANEVAL = (
    "Read the following function signature and docstring, and fully implement the function described. Your response should "
    "only contain the code for this function.\n{question}"
)
_LIVE_CODE_BENCH = "### Question:\n{question_content}\n\n{format_prompt} ### Answer: (use the provided format with backticks)\n\n"
_LIVE_CODE_BENCH_SYSTEM = (
    "You are an expert Python programmer. You will be given a question (problem specification) and will generate a correct "
    "Python program that matches the specification and passes all tests. You will NOT return anything except for the program."
)
_WITH_STARTER_CODE = "You will use the following starter code to write the solution to the problem and enclose your code within delimiters."
_WITHOUT_STARTER_CODE = (
    "Read the inputs from stdin solve the problem and write the answer to stdout (do not directly test on the sample inputs). "
    "Enclose your code within delimiters as follows."
)
LIVE_CODE_BENCH_VERSIONS = [
    "release_latest", *(f"release_v{n}" for n in range(1, 7)),
    *(f"v{a}" if a == b else f"v{a}_v{b}" for a in range(1, 7) for b in range(a, 7)),
]  # fmt: skip


@native(name="general_qa", dataset_id="general_qa", few_shot_num=0, train_split=None, eval_split="test", prompt_template="请回答问题\n{question}")
class GeneralQA(DefaultDataAdapter):
    """EvalScope's local question-answer format: files ``<subset>_test`` or ``<subset>`` with ``question`` (or ``query``),
    ``answer`` (or ``response``), an optional ``system``, or a whole ``messages`` list; always sent as messages (its
    ``prompt_template`` is never applied)."""

    def load_from_disk(self, use_local_loader: bool = False) -> Any:
        return super().load_from_disk(use_local_loader=True)

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        query = record.get("question") or record.get("query")
        answer = record.get("answer") or record.get("response")
        messages: list[Any] = []
        if record.get("messages"):
            messages = [dict_to_chat_message(message) for message in record["messages"]]
        else:
            if query is None:
                raise ValueError("a general_qa row holds 'question' (or 'query'), or 'messages'")
            if record.get("system"):
                messages.append(ChatMessageSystem(content=record["system"]))
            messages.append(ChatMessageUser(content=query))
        return Sample(input=messages, target=answer or "")


@native(name="ifeval", dataset_id="opencompass/ifeval", few_shot_num=0, train_split=None, eval_split="train", prompt_template="")
class IFEval(DefaultDataAdapter):
    """Column ``prompt`` (the whole row kept for the instruction checks)."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        return Sample(input=[ChatMessageUser(content=record.get("prompt", ""))], target="", metadata=dict(record))


@native(name="humaneval", dataset_id="opencompass/humaneval", subset_list=["openai_humaneval"], eval_split="test", prompt_template=_HUMANEVAL)
class HumanEval(DefaultDataAdapter):
    """Columns ``prompt``, ``canonical_solution``, ``task_id``, ``entry_point``, ``test``."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        return Sample(
            input=[ChatMessageUser(content=self.prompt_template.format(question=record["prompt"]))],  # type: ignore[union-attr]
            target=record["canonical_solution"],
            metadata={key: record[key] for key in ("task_id", "entry_point", "prompt", "test")},
        )


@native(name="live_code_bench", dataset_id="evalscope/livecodebench_code_generation_lite_parquet", subset_list=LIVE_CODE_BENCH_VERSIONS,
        eval_split="test", system_prompt=_LIVE_CODE_BENCH_SYSTEM, prompt_template=_LIVE_CODE_BENCH,
        extra_params={"start_date": {"type": "str | null", "description": "Keep problems from this date (YYYY-MM-DD).", "value": None},
                      "end_date": {"type": "str | null", "description": "Keep problems up to this date (YYYY-MM-DD).", "value": None},
                      "debug": {"type": "bool", "description": "Verbose scoring (not used by prompts).", "value": False}})  # fmt: skip
class LiveCodeBench(DefaultDataAdapter):
    """Columns ``question_content``, ``starter_code``, ``contest_date`` (filtered by ``extra_params`` ``start_date`` and
    ``end_date``); the test cases and ``metadata`` columns are the scorer's and are not read."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        if record["starter_code"]:
            format_prompt = f"### Format: {_WITH_STARTER_CODE}\n```python\n{record['starter_code']}\n```\n\n"
        else:
            format_prompt = f"### Format: {_WITHOUT_STARTER_CODE}\n```python\n# YOUR CODE HERE\n```\n\n"
        content = self.prompt_template.format(question_content=record["question_content"], format_prompt=format_prompt)  # type: ignore[union-attr]
        return Sample(input=[ChatMessageUser(content=content)], target="", metadata={"contest_date": record["contest_date"]})

    def sample_filter(self, sample: Sample) -> bool:
        date = datetime.fromisoformat(sample.metadata["contest_date"])
        start, end = self.extra_params.get("start_date"), self.extra_params.get("end_date")
        if start is not None and datetime.strptime(start, "%Y-%m-%d") > date:
            return False
        return not (end is not None and datetime.strptime(end, "%Y-%m-%d") < date)
