"""The context of one document, laid out as lm-eval 0.4.x lays it out (``ConfigurableTask.fewshot_context``,
``build_qa_turn``, ``multiple_input_context``; ``lm_eval/api/utils.py``).

lm-eval builds a list of messages, each with a hidden suffix (its delimiter):

1. a **system** message, ``maybe_delimit(system_instruction, description, fewshot_delimiter)`` — both joined by the
   few-shot delimiter unless one has whitespace at the join; no suffix, so in plain text it is glued to what follows;
2. per **shot**: the user message ``doc_to_text`` (suffix: ``target_delimiter`` — with a ``gen_prefix``, only if
   neither side has whitespace at the join), the assistant message, the answer (``choices[target]`` for an int
   target with choices, the first of a list, else the target) after the shot's ``gen_prefix`` (joined by a space
   unless there is whitespace), suffix ``fewshot_delimiter``; a shot without an answer is its user message;
3. the **document**: the user message (suffix as a shot's with a ``gen_prefix``, else none), then the ``gen_prefix``
   as an assistant message.  With several inputs (winogrande), the user message is the choice the context is for.

Then, by :class:`~promptkit.plan.inferencers.Run`:

* **plain text** (a completion model without a meta template, lm-eval without ``--apply_chat_template``): every
  message's text and suffix, concatenated;
* **turns** (a chat model, or a meta template; lm-eval's ``--fewshot_as_multiturn``, its default with a chat
  template; ``--shots as_turns``): the messages as they are, without suffixes;
* **one user turn** (``--shots in_user_turn``, ``--fewshot_as_multiturn false``): the system message, then one user
  message with everything else as plain text (the last suffix dropped), then the ``gen_prefix`` message.

The run's system prompt (``--system-prompt``) is lm-eval's ``system_instruction``.  A chat model receives the
messages as built (:class:`~promptkit.meta_templates.chat_history.ChatHistoryOutput`); a final ``gen_prefix``
message is continued.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from promptkit.errors import TemplateError
from promptkit.frontends.lmeval.config import TaskConfig
from promptkit.frontends.lmeval.functions import FunctionRef
from promptkit.frontends.lmeval.task import Task
from promptkit.messages import Message
from promptkit.promptlist import Item, Marker, PromptList, RoleItem
from promptkit.templates.protocol import Prompt

__all__ = ["LAYOUTS", "UNCONDITIONAL", "TaskPrompt", "maybe_delimit", "requires_delimiter"]

#: How a context is laid out (see the module docstring).
LAYOUTS = ("plain", "turns", "one_turn")
#: The label of acc_mutual_info's unconditional requests: their context is empty.
UNCONDITIONAL = "unconditional"

_ROLES = {"system": "SYSTEM", "user": "HUMAN", "assistant": "BOT"}
_MESSAGE_ROLES = {role: name for name, role in _ROLES.items()}
#: A message as lm-eval builds it: role, content, the suffix plain text adds.
_Turn = tuple[str, str, str]


def maybe_delimit(prefix: str | None, suffix: str | None, delimiter: str = " ") -> str:
    """``prefix`` and ``suffix`` joined by ``delimiter`` unless one has whitespace at the join (lm-eval's).

    >>> maybe_delimit("Answer:", "B"), maybe_delimit("Answer: ", "B"), maybe_delimit(None, "B")
    ('Answer: B', 'Answer: B', 'B')
    """
    if not prefix:
        return suffix or ""
    if not suffix:
        return prefix
    return prefix + suffix if prefix[-1].isspace() or suffix[0].isspace() else prefix + delimiter + suffix


def requires_delimiter(prefix: str, suffix: str) -> bool:
    """Whether neither ``prefix`` ends nor ``suffix`` starts with whitespace (``prefix`` not empty)."""
    return prefix != "" and not (prefix[-1].isspace() or suffix[0].isspace())


class TaskPrompt:
    """A task's contexts in one layout (see the module docstring); implements
    :class:`~promptkit.templates.protocol.Template` and
    :class:`~promptkit.templates.protocol.ChatHistoryTemplate`.  ``instruction`` is the run's system prompt."""

    labels: ClassVar[None] = None
    ice_token: ClassVar[None] = None
    has_ice_slot: ClassVar[bool] = True
    sep_token: ClassVar[None] = None
    is_multimodal: ClassVar[bool] = False

    def __init__(self, task: Task, layout: str = "plain", instruction: str | None = None) -> None:
        assert layout in LAYOUTS
        self.task = task
        self.layout = layout
        self.instruction = instruction
        #: How rendered shots are joined: as turns (PromptLists) in the turns layout, else as text.
        self.kind = "chat" if layout == "turns" else "string"
        #: What the prompts are made of, for the records' provenance.
        self.template = _source(task.config, layout, instruction)

    def render_shot(self, row: Mapping[str, Any], label: Hashable | None = None) -> Prompt:
        """One shot: its messages as text (plain, one user turn) or as turns."""
        turns = self._shot(row)
        if self.layout != "turns":
            return "".join(content + suffix for _, content, suffix in turns)
        return PromptList._of((Marker("ice", "begin"), *(RoleItem(_ROLES[role], content) for role, content, _ in turns), Marker("ice", "end")))

    def render(self, row: Mapping[str, Any], ice: Prompt = "", *, label: Hashable | None = None, masked: str | None = None, mask_value: str = "") -> Prompt:
        """The context of document ``row`` with its shots ``ice`` (``label``: the input of a several-input task, or
        :data:`UNCONDITIONAL`)."""
        if label == UNCONDITIONAL:
            return ""
        config = self.task.config
        loaded = self.task.loaded
        fields = loaded.fields
        system = maybe_delimit(self.instruction, fields.description(row), config.fewshot_delimiter)
        gen_prefix = fields.gen_prefix(row)
        if loaded.multiple_input:
            assert isinstance(label, int)  # the inferencer asks for one context per input
            question, delimiter = fields.choices(row)[label], ""
        else:
            question, delimiter = fields.text(row), config.target_delimiter
        if not isinstance(question, str):
            raise TemplateError(f"doc_to_text must give a string for the document (got {question!r}); lm-eval fails the same way", key="doc_to_text")
        own = _qa(question, None, None, gen_prefix, delimiter, "")
        if self.layout == "plain":
            assert isinstance(ice, str)
            return system + ice + "".join(content + suffix for _, content, suffix in own)
        items: list[Item] = []
        if system:
            items += [Marker("begin", "begin"), RoleItem("SYSTEM", system), Marker("begin", "end")]
        items.append(Marker("round", "begin"))
        if self.layout == "turns":
            if isinstance(ice, PromptList):
                items += [item for item in ice.items if type(item) is not str]
            items += [RoleItem(_ROLES[role], content) for role, content, _ in own]
        else:
            assert isinstance(ice, str)
            items.append(RoleItem("HUMAN", ice + question))
            if gen_prefix:
                items.append(RoleItem("BOT", gen_prefix))
        if items[-1].role != "BOT":  # type: ignore[union-attr]  # the generation prompt: an empty assistant turn
            items.append(RoleItem("BOT", ""))
        items.append(Marker("round", "end"))
        return PromptList._of(tuple(items))

    def chat_history(self, prompt: PromptList) -> tuple[Message, ...]:
        """The messages lm-eval hands the chat template: one per role item."""
        return tuple(Message(_MESSAGE_ROLES[item.role], item.prompt or "") for item in prompt.items if type(item) is RoleItem)

    def _shot(self, doc: Mapping[str, Any]) -> list[_Turn]:
        config = self.task.config
        fewshot = config.fewshot
        loaded = self.task.loaded
        fields = loaded.fields
        question = fields.text(doc, fewshot.doc_to_text, "fewshot_config.doc_to_text")
        choices = fields.choices(doc, fewshot.doc_to_choice, "fewshot_config.doc_to_choice") if fewshot.doc_to_choice is not None else None
        answer = fields.target(doc, fewshot.doc_to_target, "fewshot_config.doc_to_target")
        gen_prefix = fields.shot_gen_prefix(doc)
        if loaded.multiple_input:
            if choices is None or not isinstance(question, int):
                raise TemplateError("a shot of a several-input task needs doc_to_choice and an int doc_to_text", key="doc_to_text")
            question, choices = choices[question], None
        if not isinstance(question, str):
            raise TemplateError(f"doc_to_text must give a string for a shot (got {question!r}); lm-eval fails the same way", key="doc_to_text")
        return _qa(question, choices, answer, gen_prefix, fewshot.target_delimiter, fewshot.fewshot_delimiter)

    def __repr__(self) -> str:
        return f"TaskPrompt({self.task.config.task!r}, layout={self.layout!r})"


def _qa(question: str, choices: list[Any] | None, answer: Any, gen_prefix: str | None, target_delimiter: str, fewshot_delimiter: str) -> list[_Turn]:
    """lm-eval's ``build_qa_turn``: the user message, then the answer or the ``gen_prefix`` (see the module docstring)."""
    has_answer = answer is not None and answer != ""
    if gen_prefix:
        suffix = target_delimiter if requires_delimiter(question, gen_prefix) else ""
    else:
        suffix = target_delimiter if has_answer else ""
    turns: list[_Turn] = [("user", question, suffix)]
    if has_answer:
        if choices and isinstance(answer, int):
            text = choices[answer]
        elif isinstance(answer, list):
            text = answer[0]
        else:
            text = answer
        if not isinstance(text, str):
            raise TemplateError(f"a shot's answer must be a string (got {text!r} from the target {answer!r}); lm-eval fails the same way", key="doc_to_target")
        turns.append(("assistant", maybe_delimit(gen_prefix, text, " "), fewshot_delimiter))
    elif gen_prefix:
        turns.append(("assistant", gen_prefix, ""))
    return turns


def _source(config: TaskConfig, layout: str, instruction: str | None) -> dict[str, Any]:
    """The keys that make a task's contexts, as JSON values."""

    def shown(value: Any) -> Any:
        return str(value) if isinstance(value, FunctionRef) else dict(value) if isinstance(value, Mapping) else value

    fewshot = config.fewshot
    return {
        "task": config.task,
        "doc_to_text": shown(config.doc_to_text),
        "doc_to_target": shown(config.doc_to_target),
        "doc_to_choice": shown(config.doc_to_choice),
        "description": config.description,
        "gen_prefix": config.gen_prefix,
        "target_delimiter": config.target_delimiter,
        "fewshot_delimiter": config.fewshot_delimiter,
        "fewshot_config": {
            "sampler": fewshot.sampler,
            "doc_to_text": shown(fewshot.doc_to_text),
            "doc_to_target": shown(fewshot.doc_to_target),
            "doc_to_choice": shown(fewshot.doc_to_choice),
            "gen_prefix": fewshot.gen_prefix,
            "target_delimiter": fewshot.target_delimiter,
            "fewshot_delimiter": fewshot.fewshot_delimiter,
        },
        "layout": layout,
        "system_instruction": instruction,
    }
