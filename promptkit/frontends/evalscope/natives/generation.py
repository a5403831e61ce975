"""Native generation benchmarks: GSM8K, Competition-MATH, MATH-500, AIME 2024–2026, BBH and Chinese-SimpleQA.

Each reads its dataset's real columns as EvalScope 1.x's adapter does and declares the same subsets, splits, shot
counts and templates; the prompt texts are EvalScope's (checked against its requests by ``tests/evalscope``).
"""

from __future__ import annotations

import re
from typing import Any

from promptkit.frontends.evalscope.api.adapters import DefaultDataAdapter
from promptkit.frontends.evalscope.api.samples import Sample
from promptkit.frontends.evalscope.natives.assets import installed_constant
from promptkit.frontends.evalscope.natives.table import native

__all__ = ["BBH_CHOICE_TASKS", "BBH_FREE_TASKS", "boxed_answer"]

_REASON = "Please reason step by step, and put your final answer within \\boxed{{}}."
_SOLVE_LIKE = "Here are some examples of how to solve similar problems:\n\n{fewshot}\n\n"
_GSM8K = "{question}\n" + _REASON
_COMPETITION_MATH = "Problem:\n{question}\n\n" + _REASON + "\n"
_AIME = "\nSolve the following math problem step by step. Put your answer inside \\boxed{{}}.\n\n{question}\n\nRemember to put your answer inside \\boxed{{}}."
_BBH = (
    "Q: {question}\nA: Let's think step by step. Put your final answer in the format of \"So the answer is [ANSWER]\" "
    "(without quotes and markdown) where [ANSWER] is the answer to the problem.\n"
)

#: BBH's multiple-choice tasks (their targets lose the parentheses: ``(A)`` → ``A``), then its free-form tasks.
BBH_CHOICE_TASKS = ["temporal_sequences", "disambiguation_qa", "date_understanding", "tracking_shuffled_objects_three_objects", "penguins_in_a_table", "geometric_shapes", "snarks", "ruin_names", "tracking_shuffled_objects_seven_objects", "tracking_shuffled_objects_five_objects", "logical_deduction_three_objects", "hyperbaton", "logical_deduction_five_objects", "logical_deduction_seven_objects", "movie_recommendation", "salient_translation_error_detection", "reasoning_about_colored_objects"]
BBH_FREE_TASKS = ["multistep_arithmetic_two", "navigate", "dyck_languages", "word_sorting", "sports_understanding", "boolean_expressions", "object_counting", "formal_fallacies", "causal_judgement", "web_of_lies"]
_LEVELS = ["Level 1", "Level 2", "Level 3", "Level 4", "Level 5"]
_CHINESE_SIMPLEQA_SUBSETS = ["中华文化", "人文与社会科学", "工程、技术与应用科学", "生活、艺术与文化", "社会", "自然与自然科学"]


@native(name="gsm8k", dataset_id="AI-ModelScope/gsm8k", subset_list=["main"], few_shot_num=4, train_split="train", eval_split="test",
        prompt_template=_GSM8K, few_shot_prompt_template=_SOLVE_LIKE + _GSM8K)  # fmt: skip
class GSM8K(DefaultDataAdapter):
    """Columns ``question``, ``answer`` (the reasoning, ``####``, the final answer); shots show both."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        *reasoning, target = record["answer"].split("####")
        return Sample(input=record["question"], target=target.strip(), metadata={"reasoning": "####".join(reasoning).strip()})

    def sample_to_fewshot(self, sample: Sample) -> str:
        if not sample.metadata:
            return ""
        return f"{sample.input}\n\nReasoning:\n{sample.metadata['reasoning']}\n\nANSWER: \\boxed{{{sample.target}}}"


@native(name="competition_math", dataset_id="evalscope/competition_math", subset_list=_LEVELS, few_shot_num=4, train_split="train",
        eval_split="test", prompt_template=_COMPETITION_MATH, few_shot_prompt_template=_SOLVE_LIKE.rstrip("\n") + "\n" + _COMPETITION_MATH)  # fmt: skip
class CompetitionMath(DefaultDataAdapter):
    """Columns ``problem``, ``solution``, ``level`` (the subset), ``type``; the target is the solution's boxed answer
    (:func:`boxed_answer`), which the shots show."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reformat_subset = True

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        return Sample(input=record["problem"], target=boxed_answer(record["solution"]), subset_key=record["level"],
                      metadata={"reasoning": record.get("solution", ""), "type": record.get("type", "")})  # fmt: skip

    def sample_to_fewshot(self, sample: Sample) -> str:
        return f"Problem:\n{sample.input}\nSolution:\n{sample.target}"


def boxed_answer(solution: str) -> str:
    """A solution's final answer as EvalScope's math parser (Math-Verify) displays it, for the forms solutions use: the
    contents of its ``\\boxed{...}`` (several joined by commas; ``\\dfrac``/``\\tfrac`` written ``\\frac``), else its last
    number.  Math-Verify normalizes some rarer forms further.

    >>> boxed_answer('$\\\\frac{18}{12}=\\\\boxed{\\\\dfrac{3}{2}}$.'), boxed_answer('so the answer is 42.')
    ('\\\\frac{3}{2}', '42')
    """
    found = []
    for match in re.finditer(r"\\boxed\{", solution):
        depth, start = 1, match.end()
        for end in range(start, len(solution)):
            depth += {"{": 1, "}": -1}.get(solution[end], 0)
            if depth == 0:
                found.append(re.sub(r"\\[dt]frac", r"\\frac", solution[start:end].strip()))
                break
    if found:
        return ",".join(found)
    numbers = re.findall(r"-?\d+(?:\.\d+)?", solution)
    return numbers[-1] if numbers else ""


@native(name="math_500", dataset_id="AI-ModelScope/MATH-500", subset_list=_LEVELS, few_shot_num=0, train_split=None, eval_split="test",
        prompt_template=_GSM8K)  # fmt: skip
class Math500(DefaultDataAdapter):
    """Columns ``problem``, ``answer``, ``level`` (``3`` → subset ``Level 3``), ``unique_id``, ``solution``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reformat_subset = True

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        return Sample(input=record["problem"], target=record["answer"], subset_key=f"Level {record['level']}",
                      metadata={"question_id": record["unique_id"], "solution": record["solution"]})  # fmt: skip


@native(name="aime24", dataset_id="evalscope/aime24", few_shot_num=0, train_split=None, eval_split="test", prompt_template=_AIME)
@native(name="aime25", dataset_id="evalscope/aime25", few_shot_num=0, train_split=None, eval_split="test", prompt_template=_AIME)
@native(name="aime26", dataset_id="evalscope/aime26", few_shot_num=0, train_split=None, eval_split="test", prompt_template=_AIME)
class AIME(DefaultDataAdapter):
    """Columns ``problem``, ``answer`` (else ``solution``)."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        return Sample(input=record["problem"], target=record.get("answer", "") or record.get("solution", ""))


@native(name="bbh", dataset_id="evalscope/bbh", subset_list=BBH_CHOICE_TASKS + BBH_FREE_TASKS, few_shot_num=3, few_shot_mode="fixed",
        allowed_few_shot_nums=(0, 3), train_split=None, eval_split="test", prompt_template=_BBH, few_shot_prompt_template="{fewshot}\n\n" + _BBH)  # fmt: skip
class BBH(DefaultDataAdapter):
    """Columns ``input``, ``target``; one loader subset per task; 3 shots are the task's chain-of-thought prompt, EvalScope's
    own (read from an installed EvalScope)."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        target = record["target"].strip()
        task = self.current_subset_name
        if task in BBH_CHOICE_TASKS:
            target = target.replace("(", "").replace(")", "").strip()
        kind = "multiple_choice" if task in BBH_CHOICE_TASKS else "free_form" if task in BBH_FREE_TASKS else None
        return Sample(input=record["input"], target=target, metadata={"task_type": kind}, subset_key=task)

    def format_fewshot_template(self, fewshot: str, sample: Sample) -> str:
        if sample.subset_key:
            prompts = installed_constant("benchmarks/bbh/cot_prompts", "COT_PROMPTS", "BBH's chain-of-thought shots")
            fewshot = prompts.get(sample.subset_key, fewshot).strip()
        return self.few_shot_prompt_template.format(fewshot=fewshot, question=sample.input)  # type: ignore[union-attr]


@native(name="chinese_simpleqa", dataset_id="AI-ModelScope/Chinese-SimpleQA", subset_list=_CHINESE_SIMPLEQA_SUBSETS, few_shot_num=0,
        train_split=None, eval_split="train", prompt_template="请回答问题：\n\n{question}")  # fmt: skip
class ChineseSimpleQA(DefaultDataAdapter):
    """Columns ``question``, ``answer``, ``primary_category`` (the subset), ``id``, ``secondary_category`` (scored by an LLM
    judge in EvalScope; the prompt does not depend on it)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reformat_subset = True

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        subset = record.get("primary_category", "default")
        metadata = {"id": record.get("id", "unknown"), "primary_category": subset, "secondary_category": record.get("secondary_category", "")}
        return Sample(input=record["question"], target=record["answer"], subset_key=subset, metadata=metadata)
