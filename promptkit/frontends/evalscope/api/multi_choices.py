"""``evalscope.utils.multi_choices`` as adapter files use it: EvalScope's multiple-choice templates and how choices print.

* ``{choices}``: one line per choice, ``A) text``, lines joined by ``\\n``; ``{letters}``: the letters joined by
  commas (``A,B,C,D``); letters run ``A``…``Z``, then ``1``, ``2``, … (:func:`answer_character`);
* a shot (:func:`format_example`): the question, the choice lines, then ``ANSWER: `` and the target letters run
  together (``['A', 'C']`` → ``AC``), in English whatever the template's language;
* :func:`prompt` fills a template with ``question``, ``choices``, ``letters`` and — only when the shots text is not
  empty — ``fewshot``, in one ``str.format`` pass (row text is never formatted again).

The texts of the templates are EvalScope 1.x's (``MultipleChoiceTemplate``), which the benchmarks promptkit reads
natively use and adapter files name; the parity cases in ``tests/evalscope`` check them against EvalScope's requests.

>>> print(prompt('Which is largest?', ['Mars', 'Jupiter'], MultipleChoiceTemplate.SINGLE_ANSWER))
Answer the following multiple choice question. The entire content of your response should be of the following format: 'ANSWER: [LETTER]' (without quotes) where [LETTER] is one of A,B.
<BLANKLINE>
Which is largest?
<BLANKLINE>
A) Mars
B) Jupiter
>>> format_example('1+1?', ['2', '3'], 'A')
'1+1?\\nA) 2\\nB) 3\\nANSWER: A'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

__all__ = [
    "FEW_SHOT_TEMPLATE",
    "MultipleChoiceTemplate",
    "answer_character",
    "answer_index",
    "answer_options",
    "format_example",
    "format_letter_choices",
    "prompt",
    "target_letters",
    "valid_template",
]

_ENGLISH_FORMAT = "'ANSWER: [{what}]' (without quotes) where [{what}] is {which} {{letters}}."
_CHINESE_FORMAT = '"答案：[{what}]"（不带引号），其中 [{what}] 是 {{letters}} 中的{which}。'
_QUESTION = "\n\n{question}\n\n{choices}"
_CHINESE_QUESTION = "问题：{question}\n选项：\n{choices}\n"


def _english(task: str, where: str, what: str, which: str, reason: bool) -> str:
    think = " Think step by step before answering." if reason else ""
    return f"Answer the following multiple choice question{task}. The {where} of your response should be of the following format: {_ENGLISH_FORMAT.format(what=what, which=which)}{think}{_QUESTION}"


def _chinese(kind: str, task: str, where: str, what: str, which: str, reason: bool, gap: str) -> str:
    think = "请在回答前进行一步步思考。" if reason else ""
    return f"回答下面的{kind}，请选出其中的{task}。你的回答的{where}应该是这样的格式：{_CHINESE_FORMAT.format(what=what, which=which)}{think}{gap}{_CHINESE_QUESTION}"


#: The header before the shots when a multiple-choice benchmark sets no few-shot template.
FEW_SHOT_TEMPLATE = "Here are some examples of how to answer similar questions:\n\n{fewshot}\n\n"


class MultipleChoiceTemplate:
    """EvalScope's multiple-choice templates, by the names adapter files use."""

    SINGLE_ANSWER = _english("", "entire content", "LETTER", "one of", reason=False)
    SINGLE_ANSWER_COT = _english("", "last line", "LETTER", "one of", reason=True)
    MULTIPLE_ANSWER = _english(" where multiple answers may be correct", "entire content", "LETTERS", "one or more of", reason=False)
    MULTIPLE_ANSWER_COT = _english(" where multiple answers may be correct", "last line", "LETTERS", "one or more of", reason=True)
    CHINESE_FEW_SHOT_TEMPLATE = "以下是一些示例问题：\n\n{fewshot}\n\n"
    CHINESE_SINGLE_ANSWER_TEMPLATE = _chinese("单项选择题", "正确答案", "全部内容", "LETTER", "一个", reason=False, gap="\n\n")
    CHINESE_SINGLE_ANSWER_TEMPLATE_COT = _chinese("单项选择题", "正确答案", "最后一行", "LETTER", "一个", reason=True, gap="\n\n")
    CHINESE_MULTIPLE_ANSWER_TEMPLATE = _chinese("多项选择题", "所有正确答案", "全部内容", "LETTERS", "一个或多个", reason=False, gap="\n")
    CHINESE_MULTIPLE_ANSWER_TEMPLATE_COT = _chinese("多项选择题", "所有正确答案", "最后一行", "LETTERS", "一个或多个", reason=True, gap="\n\n")


def answer_character(index: int) -> str:
    """The label of choice ``index``: ``A``…``Z``, then ``1``, ``2``, …"""
    return chr(ord("A") + index) if index < 26 else str(index - 25)


def answer_index(label: str) -> int:
    """The choice index of a label (the inverse of :func:`answer_character`)."""
    if label.isalpha() or label in (",", " "):
        return ord(label.upper()) - ord("A")
    if label.isnumeric():
        return 25 + int(label)
    raise ValueError(f"Unepxected multiple choice answer: {label} (must be a letter or number)")


def answer_options(choices: Sequence[Any]) -> str:
    """The choice lines: ``A) text`` each, joined by newlines."""
    return "\n".join(f"{answer_character(i)}) {_text(choice)}" for i, choice in enumerate(choices))


def format_letter_choices(choices: Sequence[Any]) -> str:
    """The choices' letters joined by commas: ``A,B,C``."""
    return ",".join(answer_character(i) for i in range(len(choices)))


def target_letters(target: str | Sequence[str]) -> str:
    """The target's letters run together (each stripped, empty and repeated ones dropped): ``['A', 'C']`` → ``AC``."""
    values = [target] if isinstance(target, str) else list(target)
    return "".join(dict.fromkeys(value.strip() for value in values if value.strip()))


def prompt(question: str, choices: Sequence[Any], template: str, fewshot: str | None = None) -> str:
    """``template`` filled with the question, the choice lines, the letters and (when not empty) the shots."""
    values = {"choices": answer_options(choices), "letters": format_letter_choices(choices), "question": question}
    if fewshot:
        values["fewshot"] = fewshot
    return template.format(**values)


def format_example(question: str, choices: Sequence[Any], answer: str | Sequence[str]) -> str:
    """A multiple-choice shot: the question, its choice lines, ``ANSWER: `` and the target letters."""
    return f"{question}\n{answer_options(choices)}\nANSWER: {target_letters(answer)}"


def valid_template(template: str) -> bool:
    """Whether a multiple-choice template holds the ``{question}`` and ``{choices}`` placeholders."""
    return bool(re.search(r"\{question\}", template) and re.search(r"\{choices\}", template))


def _text(choice: Any) -> str:
    # EvalScope wraps choices in objects with a ``value``; a plain list holds the texts.
    return str(getattr(choice, "value", choice))
