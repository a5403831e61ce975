"""The compiled walk gives exactly what the plain walk gives: strings, media, messages and errors.

Models render through a compiled walk (constant prefixes kept, a prompt's own
turn filled into a plan); ``render_completion`` and ``render_api_messages``
are the plain walk.  Random prompts share items — the very same objects and
equal copies, as shots and rebuilt system turns are — so that every cache is
hit, and each prompt is rendered twice.  Every bundled model's meta template
is used, in gen and ppl mode.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promptkit import ChatModel, CompletionModel, Marker, Message, MetaTemplate, MetaTemplateError, PromptList, RoleItem, load_models
from promptkit.meta_templates._compile import split
from promptkit.meta_templates._walk import RoleTable
from promptkit.meta_templates.chat_messages import render_api_messages
from promptkit.meta_templates.completion import render_completion
from promptkit.meta_templates.spec import MetaRole
from promptkit.parts import Part

ROOT = Path(__file__).parents[2]
CONFIGS = sorted((ROOT / "configs" / "models").glob("*.py")) + sorted((ROOT / "configs" / "models" / "chat_template").glob("*.py"))


def bundled_models() -> tuple[list[CompletionModel], list[ChatModel]]:
    """The bundled models with a meta template: completion models, and chat models (a chat-template model's own)."""
    completion: list[CompletionModel] = []
    chat: list[ChatModel] = []
    for path in CONFIGS:
        for model in load_models(path):
            if model.meta_template is None:
                continue
            if isinstance(model, CompletionModel):
                completion.append(model)
            elif isinstance(model, ChatModel):
                chat.append(model)
            else:
                chat.append(model.chat_model)  # type: ignore[attr-defined]
    return completion, chat


def meta_config(meta: MetaTemplate) -> dict[str, Any]:
    """The config dict of a validated meta template (to build a fresh model over it, with cold caches)."""

    def role(spec: MetaRole) -> dict[str, Any]:
        out: dict[str, Any] = dict(role=spec.role, begin=spec.begin, end=spec.end, generate=spec.generate)
        if spec.prompt is not None:
            out["prompt"] = spec.prompt
        if spec.api_role is not None:
            out["api_role"] = spec.api_role
        return out

    return dict(
        round=[element if isinstance(element, str) else role(element) for element in meta.round],
        reserved_roles=[role(spec) for spec in meta.reserved],
        begin=meta.begin,
        end=meta.end,
    )


COMPLETION, CHAT = bundled_models()
#: Beside the bundled ones: chat roles with wrappers and a begin message, and every role sent as a user message
#: (so every seam merges).
CHAT += [
    ChatModel(
        meta_template=dict(
            begin=dict(role="SYSTEM", prompt="Be brief."),
            round=[dict(role="HUMAN", api_role="HUMAN", begin="<u>", end="</u>"), dict(role="BOT", api_role="BOT", begin="<a>", end="\n", generate=True)],
            reserved_roles=[dict(role="SYSTEM", api_role="SYSTEM", begin="<s>")],
        )
    ),
    ChatModel(meta_template=dict(round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="HUMAN", end="!", generate=True)])),
]
PLACEHOLDERS = dict(image="<image>")

texts = st.sampled_from(["", "Q1", "Q2 {answer}", "A", "B\n", "  ", "\n", "note:", "<|eot_id|>"])
names = st.sampled_from(["HUMAN", "BOT", "SYSTEM", "TOOL"])


@st.composite
def role_items(draw: Any) -> RoleItem:
    """A role item: any role (``TOOL`` is in no meta template), maybe a fallback, overrides, no prompt, or parts."""
    role = draw(names)
    fallback = draw(st.sampled_from([None, None, "HUMAN", "TOOL"]))
    kind = draw(st.sampled_from(["text", "text", "text", "none", "override", "parts"]))
    if kind == "none":
        return RoleItem(role, None, fallback)
    if kind == "override":
        return RoleItem(role, draw(texts), fallback, draw(st.sampled_from([None, "", "<b>"])), draw(st.sampled_from([None, "", "</b>\n"])))
    if kind == "parts":
        return RoleItem(role, None, fallback, parts=(Part.text(draw(texts) or "look"), Part.media("image", "file:///d/cat.png")))
    return RoleItem(role, draw(texts), fallback)


def section(name: str, body: list[Any]) -> list[Any]:
    return [Marker(name, "begin"), *body, Marker(name, "end")]  # type: ignore[arg-type]


@st.composite
def pieces(draw: Any, pool: list[list[Any]]) -> list[Any]:
    """One top-level piece of a prompt: a shot from the pool, a role item, text, a section, or a stray marker."""
    kind = draw(st.sampled_from(["shot", "shot", "shot", "item", "text", "round", "end", "stray"]))
    if kind == "shot":
        return draw(st.sampled_from(pool))
    if kind == "item":
        return [draw(role_items())]
    if kind == "text":
        return [draw(texts)]
    if kind in ("round", "end"):
        return section(kind, draw(st.lists(role_items(), max_size=3)))
    return [draw(st.sampled_from([Marker("round", "begin"), Marker("ice", "end"), Marker("begin", "begin")]))]


@st.composite
def prompts(draw: Any) -> tuple[list[PromptList], str]:
    """Prompts of one dataset: a begin section (system turn, shots from a shared pool) and the row's own round."""
    pool = [section("ice", draw(st.lists(role_items(), min_size=1, max_size=3))) for _ in range(draw(st.integers(1, 3)))]
    system = draw(role_items())
    mode = draw(st.sampled_from(["gen", "ppl"]))
    out = []
    for _ in range(draw(st.integers(2, 6))):
        begin: list[Any] = []
        if draw(st.booleans()):
            # The same system turn in every prompt, or an equal copy as a template rebuilds it per row.
            begin.append(system if draw(st.booleans()) else RoleItem(system.role, system.prompt, system.fallback_role, system.begin, system.end, system.parts))
        for piece in draw(st.lists(pieces(pool), max_size=4)):
            begin.extend(piece)
        items: list[Any] = section("begin", begin) if draw(st.integers(0, 5)) else begin
        if draw(st.integers(0, 5)):
            # The row's turn: mostly one shape, with or without a prompt for the model's role, sometimes more.
            turn = [RoleItem("HUMAN", draw(texts))]
            if draw(st.booleans()):
                turn.append(RoleItem("BOT", draw(st.sampled_from([None, "A"]))))
            if not draw(st.integers(0, 3)):
                turn.append(draw(role_items()))
            items += section("round", turn)
        else:
            items += draw(pieces(pool))
        if not draw(st.integers(0, 5)):
            items += draw(pieces(pool))  # something after the row's turn
        out.append(PromptList(items))
    return out, mode


def outcome(render: Any, *args: Any) -> Any:
    try:
        return render(*args)
    except MetaTemplateError as error:
        return ("MetaTemplateError", str(error))


def plain_completion(model: CompletionModel, prompt: PromptList, mode: str) -> tuple[str, list[Any]]:
    media: list[Any] = []
    return render_completion(prompt, RoleTable(model.meta_template), mode, PLACEHOLDERS, media), media  # type: ignore[arg-type]


def plain_chat(model: ChatModel, prompt: PromptList, mode: str) -> tuple[Message, ...]:
    meta = model.meta_template
    assert meta is not None
    messages = render_api_messages(prompt, RoleTable(meta), mode)
    begin = (Message(model.role_name(meta.begin["role"]), meta.begin.get("prompt", "")),) if meta.begin else ()
    return begin + tuple(Message(model.role_name(role), content) for role, content in zip(messages.roles, messages.contents, strict=True))


def plain_openai(model: ChatModel, prompt: PromptList, mode: str) -> list[dict[str, Any]]:
    return [message.to_openai() for message in plain_chat(model, prompt, mode)]


@settings(max_examples=150, deadline=None)
@given(prompts())
def test_completion_models_give_what_the_plain_walk_gives(case):
    """Each bundled completion model's string and media, compiled, equal the plain walk's (errors included), warm or cold."""
    batch, mode = case
    for bundled in COMPLETION:
        model = CompletionModel(meta_template=meta_config(bundled.meta_template), mm_placeholders=PLACEHOLDERS)  # type: ignore[arg-type]
        for prompt in batch + batch:
            assert outcome(model.render_with_media, prompt, mode) == outcome(plain_completion, model, prompt, mode)


@settings(max_examples=150, deadline=None)
@given(prompts())
def test_chat_models_give_what_the_plain_walk_gives(case):
    """Each bundled chat model's messages (a chat-template model's too), compiled, equal the plain walk's, warm or cold."""
    batch, mode = case
    for bundled in CHAT:
        model = type(bundled)(meta_template=meta_config(bundled.meta_template))  # type: ignore[arg-type]
        for prompt in batch + batch:
            assert outcome(model.chat_messages, prompt, mode) == outcome(plain_chat, model, prompt, mode)
            assert outcome(model.render, prompt, mode) == outcome(plain_openai, model, prompt, mode)


def test_every_bundled_meta_template_is_checked():
    """The property tests above see every bundled completion and chat meta template."""
    assert len(COMPLETION) >= 8 and len(CHAT) >= 5


def test_a_prompt_splits_before_its_last_top_level_section():
    """The prefix ends where the last top-level section opens; markers that do not pair up leave no prefix."""
    shot = section("ice", [RoleItem("HUMAN", "Q"), RoleItem("BOT", "A")])
    items = tuple(section("begin", [RoleItem("SYSTEM", "S"), *shot]) + section("round", [RoleItem("HUMAN", "q")]) + ["tail"])
    assert split(items) == 7
    assert split(tuple(section("round", [RoleItem("HUMAN", "q")]))) == 0
    assert split((Marker("ice", "end"), RoleItem("HUMAN", "q"), Marker("round", "end"))) == 0


@pytest.mark.parametrize("mode", ["gen", "ppl"])
def test_a_shared_prefix_is_rendered_once(mode):
    """Prompts that share their begin section reuse its messages: the same Message objects, in every prompt."""
    shots = section("ice", [RoleItem("HUMAN", "Q"), RoleItem("BOT", "A")])
    model = ChatModel()
    first, second = (
        model.chat_messages(PromptList(section("begin", [RoleItem("SYSTEM", "S"), *shots]) + section("round", [RoleItem("HUMAN", q), RoleItem("BOT", "")])), mode)
        for q in ("one", "two")
    )
    assert [m.content for m in second] == ["S", "Q", "A", "two"] + ([""] if mode == "ppl" else [])
    assert all(a is b for a, b in zip(first[:3], second[:3], strict=True))
