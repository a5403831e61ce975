"""The plan's hooks for front ends whose requests are not OpenCompass's: an inferencer that decides a row's prompt specs
(:meth:`Inferencer.row_specs`) and adapts to the run (:meth:`Inferencer.for_run`, ``lays_out_shots``), and a template
whose prompts are a chat history as built (:class:`ChatHistoryTemplate`).  None of these tests uses lm-eval."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from promptkit import ChatModel, ChatTemplateModel, CompletionModel, Controls, DatasetSpec, ReaderConfig, Renderer, RowsDataset
from promptkit.messages import Message
from promptkit.plan.inferencers import GenInferencer, Run
from promptkit.plan.spec import PromptSpec
from promptkit.promptlist import Marker, PromptList, RoleItem
from promptkit.retrievers.fixk import FixKRetriever
from promptkit.retrievers.zero import ZeroRetriever
from promptkit.templates.protocol import Prompt
from promptkit.types import Row

ROWS = [{"q": "1+1?", "choices": ["2", "3"]}, {"q": "2+2?", "choices": ["4", "5", "6"]}]
ROLES = {"SYSTEM": "system", "HUMAN": "user", "BOT": "assistant"}
#: A chat template that shows what it receives: every message, then the generation prompt.
SHOWING = (
    "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% if not loop.last or not continue_final_message %}</{{ m.role }}>{% endif %}"
    "{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}"
)


class CountingTemplate:
    """A string template of ``q`` that counts its renders (a shot: ``q`` and its first choice)."""

    kind = "string"
    labels = None
    ice_token = None
    has_ice_slot = True
    sep_token = None
    is_multimodal = False

    def __init__(self) -> None:
        self.renders = 0

    def render_shot(self, row: Mapping[str, Any], label: Hashable | None = None) -> Prompt:
        return f"{row['q']} {row['choices'][0]}\n"

    def render(self, row: Mapping[str, Any], ice: Prompt = "", *, label: Hashable | None = None, masked: str | None = None, mask_value: str = "") -> Prompt:
        self.renders += 1
        return f"{ice}{row['q']}"


class PerChoice(GenInferencer):
    """One prompt per choice of the row, rendered once, each record naming its choice."""

    def row_specs(self, row: Row, test_rows: Sequence[Row]) -> Sequence[PromptSpec]:
        return [PromptSpec(mode="ppl", suffix=f"/{i}", fields={"continuation": f" {choice}"}, gold=None) for i, choice in enumerate(row["choices"])]


class HistoryTemplate:
    """A chat history: the system prompt it was laid out with, a user turn, an assistant turn holding ``prefix``."""

    kind = "chat"
    labels = None
    ice_token = None
    has_ice_slot = False
    sep_token = None
    is_multimodal = False

    def __init__(self, system: str | None, prefix: str) -> None:
        self.system = system
        self.prefix = prefix

    def render_shot(self, row: Mapping[str, Any], label: Hashable | None = None) -> Prompt:
        raise AssertionError("no shots")

    def render(self, row: Mapping[str, Any], ice: Prompt = "", *, label: Hashable | None = None, masked: str | None = None, mask_value: str = "") -> Prompt:
        items: list[Any] = [Marker("round", "begin")]
        if self.system is not None:
            items.append(RoleItem("SYSTEM", self.system))
        items += [RoleItem("HUMAN", row["q"]), RoleItem("BOT", self.prefix), Marker("round", "end")]
        return PromptList._of(tuple(items))

    def chat_history(self, prompt: PromptList) -> tuple[Message, ...]:
        return tuple(Message(ROLES[item.role], item.prompt or "") for item in prompt if isinstance(item, RoleItem))


class LaysOut(GenInferencer):
    """Takes the run's system prompt into its own template; records the runs it was made for."""

    lays_out_shots = True

    def __init__(self, prefix: str = "", runs: list[Run] | None = None) -> None:
        super().__init__()
        self.prefix = prefix
        self.runs = runs if runs is not None else []
        self.run: Run | None = None

    def for_run(self, run: Run) -> LaysOut:
        made = LaysOut(self.prefix, self.runs)
        made.run = run
        self.runs.append(run)
        return made

    def select_template(self, prompt_template: Any, ice_template: Any, reader: ReaderConfig) -> HistoryTemplate:
        assert self.run is not None
        return HistoryTemplate(self.run.controls.system_prompt, self.prefix)


def dataset(inferencer: GenInferencer, template: Any = None, retriever: Any = None) -> DatasetSpec:
    return DatasetSpec(
        abbr="hooks",
        loader=RowsDataset(ROWS),
        reader=ReaderConfig(input_columns=("q",)),
        ice_template=template,
        prompt_template=template,
        retriever=retriever or ZeroRetriever(),
        inferencer=inferencer,
    )


def test_row_specs_give_each_row_its_own_prompts_rendered_once():
    """An inferencer's row_specs make one record per choice of that row, with their fields; the prompt renders once per row."""
    template = CountingTemplate()
    records = [p.to_record() for p in Renderer(dataset(PerChoice(), template, FixKRetriever(fix_id_list=[0], ice_eos_token="")))]
    assert [(r["id"], r["mode"], r["prompt"], r["continuation"]) for r in records] == [
        ("hooks/0/0", "ppl", "1+1? 2\n1+1?", " 2"),
        ("hooks/0/1", "ppl", "1+1? 2\n1+1?", " 3"),
        ("hooks/1/0", "ppl", "1+1? 2\n2+2?", " 4"),
        ("hooks/1/1", "ppl", "1+1? 2\n2+2?", " 5"),
        ("hooks/1/2", "ppl", "1+1? 2\n2+2?", " 6"),
    ]
    assert template.renders == 2


def test_for_run_tells_the_inferencer_the_model_kind_turns_and_controls():
    """for_run receives the model's kind, whether it takes turns (a completion model only with a meta template), the controls."""
    runs: list[Run] = []
    meta = CompletionModel(meta_template=dict(round=[dict(role="HUMAN", begin="U:"), dict(role="BOT", begin="A:", generate=True)]))
    for model in (None, meta, ChatModel()):
        Renderer(dataset(LaysOut(runs=runs)), model, controls=Controls(system_prompt="Be brief."))
    assert [(run.model_kind, run.turns, run.controls.system_prompt) for run in runs] == [
        ("completion", False, "Be brief."),
        ("completion", True, "Be brief."),
        ("chat", True, "Be brief."),
    ]


def test_a_template_that_lays_out_the_system_prompt_gets_it_once():
    """With lays_out_shots the plan leaves the system prompt to the template: one system message, not a replaced one."""
    prompt = Renderer(dataset(LaysOut()), ChatModel(), controls=Controls(system_prompt="Be brief.")).render(0)[0].prompt
    assert prompt == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "1+1?"}]


def test_a_chat_history_reaches_the_chat_template_as_built_and_is_recorded():
    """No meta template, nothing skipped: an empty user turn stays; an assistant prefix is continued; the record has the messages."""
    rows_dataset = dataset(LaysOut("Answer:"))
    model = ChatTemplateModel(chat_template=SHOWING)
    record = Renderer(rows_dataset, model, controls=Controls(system_prompt="")).render(0)[0].to_record()
    assert record["prompt"] == "<system></system><user>1+1?</user><assistant>Answer:"
    assert record["messages"] == [{"role": "system", "content": ""}, {"role": "user", "content": "1+1?"}, {"role": "assistant", "content": "Answer:"}]
    plain = Renderer(dataset(LaysOut("")), model).render(1)[0].to_record()
    assert (plain["prompt"], plain["messages"]) == ("<user>2+2?</user><assistant>", [{"role": "user", "content": "2+2?"}])


def test_a_chat_history_drops_system_messages_a_template_refuses():
    """A chat template that raises on a system message renders the history without it (lm-eval's retry), and says so in messages."""
    refusing = "{% for m in messages %}{% if m.role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}<{{ m.role }}>{{ m.content }}{% endfor %}"
    record = Renderer(dataset(LaysOut()), ChatTemplateModel(chat_template=refusing), controls=Controls(system_prompt="Be brief.")).render(0)[0].to_record()
    assert (record["prompt"], record["messages"]) == ("<user>1+1?", [{"role": "user", "content": "1+1?"}])


def test_a_chat_history_for_api_and_meta_template_models():
    """An API chat model gets the messages (a continued one marked in the request); a meta template keeps the prefix text."""
    api = Renderer(dataset(LaysOut("Answer:")), ChatModel()).render(0)[0].to_record()
    assert api["prompt"] == [{"role": "user", "content": "1+1?"}, {"role": "assistant", "content": "Answer:"}]
    assert (api["continue_final_message"], api["add_generation_prompt"]) == (True, False)
    meta = CompletionModel(meta_template=dict(round=[dict(role="HUMAN", begin="U:", end="\n"), dict(role="BOT", begin="A:", end="\n", generate=True)]))
    assert Renderer(dataset(LaysOut(" 2")), meta).render(0)[0].prompt == "U:1+1?\nA: 2"
