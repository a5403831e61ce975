"""Native multiple-choice benchmarks: MMLU, MMLU-Pro, C-Eval, CMMLU, ARC, HellaSwag, RACE, TruthfulQA, Winogrande,
IQuiz, GPQA-Diamond and General-MCQ (EvalScope's local custom format).

Each reads its dataset's real columns as EvalScope 1.x's adapter does and declares the same subsets, splits, shot
counts and templates; the prompt texts are EvalScope's (checked against its requests by ``tests/evalscope``).
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

from promptkit.frontends.evalscope.api.adapters import MultiChoiceAdapter
from promptkit.frontends.evalscope.api.multi_choices import FEW_SHOT_TEMPLATE
from promptkit.frontends.evalscope.api.multi_choices import MultipleChoiceTemplate as Templates
from promptkit.frontends.evalscope.api.samples import Sample
from promptkit.frontends.evalscope.natives.assets import installed_constant
from promptkit.frontends.evalscope.natives.table import native

__all__ = ["CEVAL_SUBJECTS", "CMMLU_SUBJECTS", "MMLU_PRO_SUBJECTS", "MMLU_SUBJECTS"]

MMLU_SUBJECTS = ["abstract_algebra", "anatomy", "astronomy", "business_ethics", "clinical_knowledge", "college_biology", "college_chemistry", "college_computer_science", "college_mathematics", "college_medicine", "college_physics", "computer_security", "conceptual_physics", "econometrics", "electrical_engineering", "elementary_mathematics", "formal_logic", "global_facts", "high_school_biology", "high_school_chemistry", "high_school_computer_science", "high_school_european_history", "high_school_geography", "high_school_government_and_politics", "high_school_macroeconomics", "high_school_mathematics", "high_school_microeconomics", "high_school_physics", "high_school_psychology", "high_school_statistics", "high_school_us_history", "high_school_world_history", "human_aging", "human_sexuality", "international_law", "jurisprudence", "logical_fallacies", "machine_learning", "management", "marketing", "medical_genetics", "miscellaneous", "moral_disputes", "moral_scenarios", "nutrition", "philosophy", "prehistory", "professional_accounting", "professional_law", "professional_medicine", "professional_psychology", "public_relations", "security_studies", "sociology", "us_foreign_policy", "virology", "world_religions"]

#: C-Eval's subjects and their Chinese names (the ``{subject}`` of its prompt).
CEVAL_SUBJECTS = {
    "computer_network": "计算机网络", "operating_system": "操作系统", "computer_architecture": "计算机组成",
    "college_programming": "大学编程", "college_physics": "大学物理", "college_chemistry": "大学化学",
    "advanced_mathematics": "高等数学", "probability_and_statistics": "概率统计", "discrete_mathematics": "离散数学",
    "electrical_engineer": "注册电气工程师", "metrology_engineer": "注册计量师", "high_school_mathematics": "高中数学",
    "high_school_physics": "高中物理", "high_school_chemistry": "高中化学", "high_school_biology": "高中生物",
    "middle_school_mathematics": "初中数学", "middle_school_biology": "初中生物", "middle_school_physics": "初中物理",
    "middle_school_chemistry": "初中化学", "veterinary_medicine": "兽医学", "college_economics": "大学经济学",
    "business_administration": "工商管理", "marxism": "马克思主义基本原理", "mao_zedong_thought": "毛泽东思想和中国特色社会主义理论体系概论",
    "education_science": "教育学", "teacher_qualification": "教师资格", "high_school_politics": "高中政治",
    "high_school_geography": "高中地理", "middle_school_politics": "初中政治", "middle_school_geography": "初中地理",
    "modern_chinese_history": "近代史纲要", "ideological_and_moral_cultivation": "思想道德修养与法律基础", "logic": "逻辑学",
    "law": "法学", "chinese_language_and_literature": "中国语言文学", "art_studies": "艺术学", "professional_tour_guide": "导游资格",
    "legal_professional": "法律职业资格", "high_school_chinese": "高中语文", "high_school_history": "高中历史",
    "middle_school_history": "初中历史", "civil_servant": "公务员", "sports_science": "体育学", "plant_protection": "植物保护",
    "basic_medicine": "基础医学", "clinical_medicine": "临床医学", "urban_and_rural_planner": "注册城乡规划师",
    "accountant": "注册会计师", "fire_engineer": "注册消防工程师", "environmental_impact_assessment_engineer": "环境影响评价工程师",
    "tax_accountant": "税务师", "physician": "医师资格",
}  # fmt: skip

CMMLU_SUBJECTS = ["agronomy", "anatomy", "ancient_chinese", "arts", "astronomy", "business_ethics", "chinese_civil_service_exam", "chinese_driving_rule", "chinese_food_culture", "chinese_foreign_policy", "chinese_history", "chinese_literature", "chinese_teacher_qualification", "college_actuarial_science", "college_education", "college_engineering_hydrology", "college_law", "college_mathematics", "college_medical_statistics", "clinical_knowledge", "college_medicine", "computer_science", "computer_security", "conceptual_physics", "construction_project_management", "economics", "education", "elementary_chinese", "elementary_commonsense", "elementary_information_and_technology", "electrical_engineering", "elementary_mathematics", "ethnology", "food_science", "genetics", "global_facts", "high_school_biology", "high_school_chemistry", "high_school_geography", "high_school_mathematics", "high_school_physics", "high_school_politics", "human_sexuality", "international_law", "journalism", "jurisprudence", "legal_and_moral_basis", "logical", "machine_learning", "management", "marketing", "marxist_theory", "modern_chinese", "nutrition", "philosophy", "professional_accounting", "professional_law", "professional_medicine", "professional_psychology", "public_relations", "security_study", "sociology", "sports_science", "traditional_chinese_medicine", "virology", "world_history", "world_religions"]

MMLU_PRO_SUBJECTS = [
    "computer science", "math", "chemistry", "engineering", "law", "biology", "health", "physics", "business", "philosophy",
    "economics", "other", "psychology", "history",
]  # fmt: skip

_MMLU_PRO_QUESTION = (
    "Answer the following multiple choice question. The last line of your response should be of the following format: "
    "'ANSWER: [LETTER]' (without quotes) where [LETTER] is one of {letters}. Think step by step before answering.\n\n"
    "Question:\n{question}\nOptions:\n{choices}\n"
)
_MMLU_PRO_EXAMPLES = (
    "The following are multiple choice questions (with answers) about {subject}. Think step by step and then finish your "
    "answer with 'ANSWER: [LETTER]' (without quotes) where [LETTER] is the correct letter choice.\n\n{examples}\n"
)
_CEVAL_QUESTION = (
    '以下是中国关于{subject}的单项选择题，请选出其中的正确答案。你的回答的最后一行应该是这样的格式："答案：[LETTER]"（不带引号），'
    "其中 [LETTER] 是 A、B、C、D 中的一个。\n\n问题：{question}\n选项：\n{choices}\n"
)
#: TruthfulQA's six question-answer pairs, then the question (the input of every sample).
_TRUTHFUL_QA_INPUT = (
    "Q: What is human life expectancy in the United States?\nA: Human life expectancy in the United States is 78 years.\n\n"
    "Q: Who was president of the United States in 1955?\nA: Dwight D. Eisenhower was president of the United States in 1955.\n\n"
    "Q: Which party did he belong to?\nA: He belonged to the Republican Party.\n\n"
    "Q: What is the square root of banana?\nA: I have no comment.\n\n"
    "Q: How does a telescope work?\nA: Telescopes use lenses or mirrors to focus light and make objects appear closer.\n\n"
    "Q: Where were the 1992 Olympics held?\nA: The 1992 Olympics were held in Barcelona, Spain.\n\nQ: {question}\nA:"
)
_GENERAL_MCQ_LETTERS = "ABCDEFGHIJ"


def _switch(description: str, value: Any = False, kind: str = "bool") -> dict[str, Any]:
    """An ``extra_params`` entry."""
    return {"type": kind, "description": description, "value": value}


@native(name="mmlu", dataset_id="cais/mmlu", subset_list=list(MMLU_SUBJECTS), default_subset="all", few_shot_num=5, train_split="dev",
        eval_split="test", prompt_template=Templates.SINGLE_ANSWER_COT)  # fmt: skip
class MMLU(MultiChoiceAdapter):
    """Columns ``question``, ``choices``, ``answer`` (0–3), ``subject``; one loader subset ``all``, regrouped by subject."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reformat_subset = True

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        return Sample(input=record["question"], choices=record["choices"], target="ABCD"[record["answer"]], subset_key=record["subject"],
                      metadata={"subject": record["subject"]})  # fmt: skip


@native(name="mmlu_pro", dataset_id="TIGER-Lab/MMLU-Pro", subset_list=MMLU_PRO_SUBJECTS, few_shot_num=5, train_split="validation",
        eval_split="test", prompt_template=_MMLU_PRO_QUESTION, few_shot_prompt_template=_MMLU_PRO_EXAMPLES + _MMLU_PRO_QUESTION)  # fmt: skip
class MMLUPro(MultiChoiceAdapter):
    """Columns ``question``, ``options``, ``answer`` (a letter), ``category`` (lower-cased: the subset), ``cot_content``,
    ``question_id``; shots as ``A text`` lines and their worked answer, under a header naming the subject."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reformat_subset = True

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        subject = record["category"].lower()
        return Sample(input=record["question"], choices=record["options"], target=record["answer"], subset_key=subject,
                      metadata={"cot_content": record["cot_content"], "subject": subject, "question_id": record["question_id"]})  # fmt: skip

    def sample_to_fewshot(self, sample: Sample) -> str:
        options = "\n".join(f"{chr(65 + i)} {option}" for i, option in enumerate(sample.choices or []))
        answer = (sample.metadata["cot_content"] if sample.metadata is not None else "").replace("The answer is", "ANSWER:")
        letter = answer.split("ANSWER:")[-1].split(".")[0].strip().strip("(").strip(")")
        answer = answer.replace(f"ANSWER: ({letter})", f"ANSWER: {letter}")
        return f"Question:\n{sample.input}\nOptions:\n{options}\n{answer}"

    def format_fewshot_template(self, fewshot: str, sample: Sample) -> str:
        return _MMLU_PRO_EXAMPLES.format(subject=sample.metadata["subject"], examples=fewshot) + "\n" + self.format_prompt_template(sample)


@native(name="ceval", dataset_id="evalscope/ceval", subset_list=list(CEVAL_SUBJECTS), few_shot_num=5, train_split="dev", eval_split="val",
        prompt_template=_CEVAL_QUESTION, few_shot_prompt_template=Templates.CHINESE_FEW_SHOT_TEMPLATE)  # fmt: skip
class CEval(MultiChoiceAdapter):
    """Columns ``question``, ``A``–``D``, ``answer``, ``explanation``, ``id``; one loader subset per subject; choices as
    ``A. text``, shots with their explanation (``解析``)."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        return Sample(input=record["question"], choices=[record["A"], record["B"], record["C"], record["D"]], target=record["answer"],
                      metadata={"id": record.get("id", ""), "explanation": record.get("explanation", ""), "subject": self.current_subset_name})  # fmt: skip

    def sample_to_fewshot(self, sample: Sample) -> str:
        options = "\n".join(f"{chr(65 + i)}. {choice}" for i, choice in enumerate(sample.choices or []))
        return f"问题：{sample.input}\n选项：\n{options}\n解析：{sample.metadata.get('explanation', '')}\n答案：{sample.target}"

    def format_fewshot_template(self, fewshot: str, sample: Sample) -> str:
        return Templates.CHINESE_FEW_SHOT_TEMPLATE.format(fewshot=fewshot) + "\n" + self.format_prompt_template(sample)

    def format_prompt_template(self, sample: Sample) -> str:
        subject = sample.metadata["subject"]
        if subject not in CEVAL_SUBJECTS:
            raise KeyError(f"C-Eval has no subject {subject!r} (its subjects: {', '.join(CEVAL_SUBJECTS)})")
        choices = "\n".join(f"{chr(65 + i)}. {choice}" for i, choice in enumerate(sample.choices or []))
        return _CEVAL_QUESTION.format(subject=CEVAL_SUBJECTS[subject], question=sample.input, choices=choices)


@native(name="cmmlu", dataset_id="evalscope/cmmlu", subset_list=list(CMMLU_SUBJECTS), few_shot_num=0, train_split="dev", eval_split="test",
        prompt_template=Templates.CHINESE_SINGLE_ANSWER_TEMPLATE_COT,
        few_shot_prompt_template=Templates.CHINESE_FEW_SHOT_TEMPLATE + Templates.CHINESE_SINGLE_ANSWER_TEMPLATE_COT)  # fmt: skip
class CMMLU(MultiChoiceAdapter):
    """Columns ``question``, ``choices`` (``(A) text``: the label cut off), ``answer`` (``(B)``), ``category`` (the subset)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.reformat_subset = True

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        return Sample(input=record["question"], choices=[choice[3:].strip() for choice in record["choices"]], target=record["answer"][1],
                      subset_key=record["category"], metadata={"subject": record["category"]})  # fmt: skip

    def sample_to_fewshot(self, sample: Sample) -> str:
        choices = "\n".join(f"{chr(65 + i)}) {choice}" for i, choice in enumerate(sample.choices or []))
        return f"问题：{sample.input}\n选项：\n{choices}\n答案：{sample.target}"


@native(name="arc", dataset_id="allenai/ai2_arc", subset_list=["ARC-Easy", "ARC-Challenge"], few_shot_num=0, train_split="train",
        eval_split="test", prompt_template=Templates.SINGLE_ANSWER)  # fmt: skip
class ARC(MultiChoiceAdapter):
    """Columns ``question``, ``choices.text``, ``answerKey`` (digits ``1``–``4`` read as ``A``–``D``), ``id``."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        key = record["answerKey"]
        if key.isdigit():
            key = chr(ord("A") + int(key) - 1)
        return Sample(input=record["question"], choices=record["choices"]["text"], target=key, metadata={"id": record.get("id", "")})


@native(name="hellaswag", dataset_id="evalscope/hellaswag", subset_list=["default"], few_shot_num=0, train_split=None, eval_split="validation",
        prompt_template=Templates.SINGLE_ANSWER)  # fmt: skip
class HellaSwag(MultiChoiceAdapter):
    """Columns ``ctx_a``, ``ctx_b``, ``endings``, ``label``, ``activity_label``; the context is ``ctx_a`` and ``ctx_b``
    capitalized, and context and endings are cleaned of WikiHow's bracketed tags."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        context = _clean_hellaswag(record["ctx_a"] + " " + record["ctx_b"].capitalize())
        return Sample(input=context, choices=[_clean_hellaswag(ending) for ending in record["endings"]], target="ABCD"[int(record["label"])],
                      metadata={"activity_label": record.get("activity_label", "unknown")})  # fmt: skip


def _clean_hellaswag(text: str) -> str:
    text = text.strip().replace(" [title]", ". ")
    return re.sub(r"\[.*?\]", "", text).replace("  ", " ")


@native(name="race", dataset_id="evalscope/race", subset_list=["high", "middle"], few_shot_num=3, allowed_few_shot_nums=(0, 1, 2, 3),
        train_split="train", eval_split="test", prompt_template=Templates.SINGLE_ANSWER_COT)  # fmt: skip
class RACE(MultiChoiceAdapter):
    """Columns ``article``, ``question``, ``options``, ``answer``, ``example_id``."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        return Sample(input=f"Article:\n{record['article']}\nQuestion:\n{record['question']}", choices=record["options"], target=record["answer"],
                      metadata={"example_id": record.get("example_id", "unknown")})  # fmt: skip


@native(name="truthful_qa", dataset_id="evalscope/truthful_qa", subset_list=["multiple_choice"], shuffle_choices=True, few_shot_num=0,
        train_split=None, eval_split="validation",
        extra_params={"multiple_correct": _switch("Use multiple-answer format (MC2) if True; otherwise single-answer (MC1).")})  # fmt: skip
class TruthfulQA(MultiChoiceAdapter):
    """Columns ``question``, ``mc1_targets``/``mc2_targets`` (``choices``, ``labels``); the six example pairs before the
    question; choices shuffled by default."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.multiple_correct = self.extra_params.get("multiple_correct", False)
        self.prompt_template = Templates.MULTIPLE_ANSWER if self.multiple_correct else Templates.SINGLE_ANSWER

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        kind = "mc2" if self.multiple_correct else "mc1"
        targets = record[f"{kind}_targets"]
        return Sample(input=_TRUTHFUL_QA_INPUT.format(question=record["question"]), choices=targets["choices"],
                      target=[chr(65 + i) for i, label in enumerate(targets["labels"]) if label == 1], metadata={"type": kind})  # fmt: skip


@native(name="winogrande", dataset_id="AI-ModelScope/winogrande_val", few_shot_num=0, train_split=None, eval_split="validation",
        prompt_template=Templates.SINGLE_ANSWER)  # fmt: skip
class Winogrande(MultiChoiceAdapter):
    """Columns ``sentence``, ``option1``, ``option2``, ``answer`` (``"1"``/``"2"``)."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        return Sample(input=record["sentence"], choices=[record["option1"], record["option2"]], target=chr(ord("A") + int(record["answer"]) - 1),
                      metadata={"id": record.get("id", "unknown")})  # fmt: skip


@native(name="iquiz", dataset_id="AI-ModelScope/IQuiz", subset_list=["IQ", "EQ"], few_shot_num=0, train_split=None, eval_split="test",
        prompt_template=Templates.CHINESE_SINGLE_ANSWER_TEMPLATE_COT)  # fmt: skip
class IQuiz(MultiChoiceAdapter):
    """Columns ``question``, ``choices``, ``answer``, ``level``."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        return Sample(input=record["question"], choices=record["choices"], target=record["answer"], metadata={"level": record.get("level", "unknown")})


@native(name="gpqa_diamond", dataset_id="AI-ModelScope/gpqa_diamond", few_shot_num=0, few_shot_mode="fixed", allowed_few_shot_nums=(0, 5),
        train_split=None, eval_split="train", prompt_template=Templates.SINGLE_ANSWER_COT)  # fmt: skip
class GPQADiamond(MultiChoiceAdapter):
    """Columns ``Question``, ``Correct Answer``, ``Incorrect Answer 1``–``3``, ``subset``; the choices are shuffled by the
    question's own hash (independent of any seed); 5 shots are EvalScope's fixed worked examples (read from an installed
    EvalScope)."""

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        def clean(text: str | None) -> str:
            return " " if text is None else text.strip()

        choices = [clean(record[f"Incorrect Answer {i}"]) for i in (1, 2, 3)] + [clean(record["Correct Answer"])]
        random.Random(int.from_bytes(hashlib.sha256(clean(record["Question"]).encode("utf-8")).digest()[:8], "big")).shuffle(choices)
        return Sample(input=record["Question"], choices=choices, target=chr(65 + choices.index(clean(record["Correct Answer"]))),
                      subset_key=record.get("subset", ""))  # fmt: skip

    def format_fewshot_template(self, fewshot: str, sample: Sample) -> str:
        examples = installed_constant("benchmarks/gpqa/prompt", "FEW_SHOT_SAMPLES", "GPQA-Diamond's 5 shots")
        return FEW_SHOT_TEMPLATE.format(fewshot=examples) + self.format_prompt_template(sample)


@native(name="general_mcq", dataset_id="general_mcq", few_shot_num=0, train_split="dev", eval_split="val",
        prompt_template=Templates.CHINESE_SINGLE_ANSWER_TEMPLATE,
        extra_params={"multiple_correct": _switch("Whether the dataset contains questions with multiple correct answers."),
                      "use_cot": _switch("Whether to use the chain-of-thought (CoT) prompt template variant.")})  # fmt: skip
class GeneralMCQ(MultiChoiceAdapter):
    """EvalScope's local multiple-choice format: files ``<subset>_dev`` (shots) and ``<subset>_val`` (test) with columns
    ``question``, ``A``, ``B``, … (up to the first missing letter, at most ``J``), ``answer`` (a list with
    ``multiple_correct``), ``id``; Chinese templates (``use_cot``, ``multiple_correct`` pick the variant)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.multiple_correct = self.extra_params.get("multiple_correct", False)
        use_cot = self.extra_params.get("use_cot", False)
        if self.prompt_template == Templates.CHINESE_SINGLE_ANSWER_TEMPLATE:  # a prompt_template from dataset_args wins
            if self.multiple_correct:
                self.prompt_template = Templates.CHINESE_MULTIPLE_ANSWER_TEMPLATE_COT if use_cot else Templates.CHINESE_MULTIPLE_ANSWER_TEMPLATE
            elif use_cot:
                self.prompt_template = Templates.CHINESE_SINGLE_ANSWER_TEMPLATE_COT

    def load_from_disk(self, use_local_loader: bool = False) -> Any:
        return super().load_from_disk(use_local_loader=True)

    def record_to_sample(self, record: dict[str, Any]) -> Sample:
        choices = []
        for letter in _GENERAL_MCQ_LETTERS:
            if letter not in record:
                break
            choices.append(record[letter])
        answer = record["answer"]
        if self.multiple_correct and not isinstance(answer, list):
            raise ValueError(
                f"general_mcq with multiple_correct=True requires 'answer' as a list of letters (e.g., ['A', 'C']), got "
                f"{type(answer).__name__}: {answer!r} (id={record.get('id', 'unknown')})."
            )
        return Sample(input=record["question"], choices=choices, target=answer, metadata={"id": record.get("id", "unknown")})
