"""Token views of rendered prompts: the bundled chat-template models against transformers' apply_chat_template.

Each bundled chat-template config renders through promptkit with a real
tokenizer: a small byte-level BPE learnt here, with the model folder's special
tokens, saved beside a copy of its tokenizer_config.json and loaded by
transformers itself (the real vocabularies are not in the repository and
nothing is downloaded).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from promptkit import ChatTemplateModel, ConfigError, HFTokenizer, PromptkitError, PromptList, Renderer, load_models
from promptkit.meta_templates.spans import find_spans, is_answer
from promptkit.records.token_view import token_encoder, token_view

transformers = pytest.importorskip("transformers")

ROOT = Path(__file__).parents[1]
SHOTS = [{"question": "What is 2+2?", "answer": "4"}, {"question": "What is 3+3?", "answer": "6"}]
ROWS = [{"question": "What is 5+5?", "answer": "10"}]
READER = dict(input_columns=["question"], output_column="answer")
CHAT_SHOTS = dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}")]))
GEN = dict(
    ice_template=CHAT_SHOTS,
    prompt_template=dict(
        type="PromptTemplate",
        template=dict(begin="</E>", round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}")]),
        ice_token="</E>",
    ),
    retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
    inferencer=dict(type="GenInferencer"),
)
_label = lambda word: dict(begin="</E>", round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt=word)])  # noqa: E731
PPL = dict(
    ice_template=CHAT_SHOTS,
    prompt_template=dict(type="PromptTemplate", template={"10": _label("Ten."), "12": _label("Twelve.")}, ice_token="</E>"),
    retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
    inferencer=dict(type="PPLInferencer"),
)


def load(path: Path) -> Any:
    """The one model of a bundled config (its folders are relative to the repository root)."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        (model,) = load_models(path)
        return model
    finally:
        os.chdir(here)


MODEL_CONFIGS = sorted((ROOT / "configs" / "models").glob("*.py")) + sorted((ROOT / "configs" / "models" / "chat_template").glob("*.py"))
CONFIGS = [path for path in MODEL_CONFIGS if isinstance(load(path), ChatTemplateModel)]


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda path: path.stem)
def bundled(request, trained_tokenizer) -> tuple[ChatTemplateModel, Any, Any]:
    """A bundled chat-template model, transformers' tokenizer for its folder, and the model config (for Renderer)."""
    model = load(request.param)
    path = trained_tokenizer(ROOT / model.chat_template.origin, texts=[q["question"] for q in SHOTS + ROWS] * 3)
    return model, transformers.PreTrainedTokenizerFast.from_pretrained(str(path.parent)), request.param


def reference_ids(tokenizer: Any, model: Any, messages: list[dict[str, Any]], mode: str) -> list[int]:
    """transformers' ids, with the template variables the model config sets (e.g. Qwen3's thinking=False)."""
    kwargs = model.controls.template_kwargs(model.thinking_switch if model.controls.thinking is not None else None)
    return list(tokenizer.apply_chat_template(messages, tokenize=True, add_generation_prompt=mode == "gen", return_dict=False, **kwargs))


def runs_of(tokenizer: Any, ids: list[int], mask: list[int]) -> list[str]:
    """The decoded text of each run of consecutive masked tokens, in order."""
    runs: list[list[int]] = []
    previous = 0
    for token, bit in zip(ids, mask, strict=True):
        if bit:
            if previous:
                runs[-1].append(token)
            else:
                runs.append([token])
        previous = bit
    return [tokenizer.decode(run) for run in runs]


def answer_text(decoded: str, answer: str) -> bool:
    """A run is the answer, or the answer and the one space a template writes before it (the token ' 4': see token_view)."""
    return decoded in (answer, " " + answer)


def render_records(make_renderer, model_path: Path, tokenizer: Any, infer_cfg: dict[str, Any]) -> tuple[Any, list[Any]]:
    renderer = Renderer(make_renderer(ROWS, infer_cfg, READER, train_rows=SHOTS).dataset, load(model_path), tokenizer=tokenizer)
    return renderer, renderer.render(0)


def test_every_bundled_chat_template_family_is_covered():
    """The configs compared include the families whose stock templates lack {% generation %}."""
    names = {path.stem for path in CONFIGS}
    assert {"llama3_1_8b_instruct", "qwen2_5_7b_instruct", "gemma2_2b_it", "mistral_7b_instruct_v0_3", "chatml_generation"} <= names


def test_gen_input_ids_equal_apply_chat_template_and_the_mask_is_the_shot_answers(bundled, make_renderer):
    """Few-shot as turns, gen mode: input_ids are transformers' own; the mask covers exactly the two shot answers."""
    model, tokenizer, path = bundled
    _, (prompt,) = render_records(make_renderer, path, tokenizer, GEN)
    record = prompt.to_record()
    assert record["input_ids"] == reference_ids(tokenizer, model, model.messages(prompt.intermediate, "gen"), "gen")
    assert tokenizer.decode(record["input_ids"]) == record["prompt"]
    runs = runs_of(tokenizer, record["input_ids"], record["loss_mask"])
    assert len(runs) == 2 and all(answer_text(run, shot["answer"]) for run, shot in zip(runs, SHOTS, strict=True)), runs
    assert {label for label, bit in zip(record["token_labels"], record["loss_mask"], strict=True) if bit} == {"shot[0].answer", "shot[1].answer"}
    assert "junction" not in record


def test_ppl_input_ids_equal_apply_chat_template_and_the_mask_ends_with_the_label(bundled, make_renderer):
    """ppl mode (no generation prompt): the mask covers the shot answers and the candidate's own answer, nothing else."""
    model, tokenizer, path = bundled
    _, prompts = render_records(make_renderer, path, tokenizer, PPL)
    for prompt, answer in zip(prompts, ["Ten.", "Twelve."], strict=True):
        record = prompt.to_record()
        assert record["input_ids"] == reference_ids(tokenizer, model, model.messages(prompt.intermediate, "ppl"), "ppl")
        runs = runs_of(tokenizer, record["input_ids"], record["loss_mask"])
        assert [run.strip() for run in runs] == ["4", "6", answer] and all(answer_text(run, run.strip()) for run in runs), runs
        junction = record["junction"]
        assert junction["continuation"] == answer and junction["junction_differs"] is (junction["continuation_ids"] != tokenizer.encode(answer, add_special_tokens=False))


def test_generation_tag_mask_is_ours_plus_the_end_of_turn_token(trained_tokenizer, make_renderer):
    """Where a template has {% generation %} (chatml_generation), transformers' assistant mask is ours plus each turn's
    '<|im_end|>', which promptkit counts as wrapper."""
    path = ROOT / "configs/models/chat_template/chatml_generation.py"
    model = load(path)
    tokenizer = transformers.PreTrainedTokenizerFast.from_pretrained(str(trained_tokenizer(ROOT / model.chat_template.origin).parent))
    _, (prompt, _) = render_records(make_renderer, path, tokenizer, PPL)
    record = prompt.to_record()
    theirs = tokenizer.apply_chat_template(model.messages(prompt.intermediate, "ppl"), tokenize=True, return_assistant_tokens_mask=True)
    end = tokenizer.convert_tokens_to_ids("<|im_end|>")
    ours_and_ends = [1 if bit or (token == end and theirs["assistant_masks"][i]) else 0 for i, (token, bit) in enumerate(zip(record["input_ids"], record["loss_mask"], strict=True))]
    assert theirs["input_ids"] == record["input_ids"] and theirs["assistant_masks"] == ours_and_ends
    assert sum(theirs["assistant_masks"]) == sum(record["loss_mask"]) + 3


def test_a_chat_api_model_has_no_token_view(make_renderer, trained_tokenizer):
    """ChatModel: the server tokenizes, so Renderer(tokenizer=...) is refused with what to use instead."""
    dataset = make_renderer(ROWS, GEN, READER, train_rows=SHOTS).dataset
    with pytest.raises(ConfigError) as caught:
        Renderer(dataset, load(ROOT / "configs/models/gpt_4o_api.py"), tokenizer=trained_tokenizer())
    assert str(caught.value) == (
        "dataset 'demo', model 'gpt-4o-2024-08-06', key 'tokenizer': model 'gpt-4o-2024-08-06' is a chat API model (ChatModel): it "
        "receives messages, and its server applies the chat template and tokenizes them, so promptkit has no token view of it; "
        "for tokens use the model's chat template (type='HuggingFacewithChatTemplate', path=<model folder>) or its meta template (CompletionModel)"
    )


TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\ue000\ue001"), max_size=10)


def _prompt(system: str | None, shots: list[tuple[str, str]], query: str, answer: str) -> PromptList:
    items: list[object] = [{"section": "begin", "pos": "begin"}]
    if system is not None:
        items.append(dict(role="SYSTEM", fallback_role="HUMAN", prompt=system))
    for question, reply in shots:
        items += [{"section": "ice", "pos": "begin"}, dict(role="HUMAN", prompt=question), dict(role="BOT", prompt=reply), {"section": "ice", "pos": "end"}]
    items += [{"section": "begin", "pos": "end"}, {"section": "round", "pos": "begin"}, dict(role="HUMAN", prompt=query), dict(role="BOT", prompt=answer), {"section": "round", "pos": "end"}]
    return PromptList(items)


@pytest.fixture(scope="module")
def every_model(trained_tokenizer) -> list[tuple[Any, Any]]:
    """Every bundled model config but chat API ones, each with a transformers tokenizer (its folder's, where it has one)."""
    generic = trained_tokenizer(special=("<|im_start|>", "<|im_end|>", "<|begin_of_text|>", "<|eot_id|>", "<image>", "</s>", "<s>"))
    out = []
    for path in MODEL_CONFIGS:
        model = load(path)
        if isinstance(model, ChatTemplateModel):
            out.append((model, transformers.PreTrainedTokenizerFast.from_pretrained(str(trained_tokenizer(ROOT / model.chat_template.origin).parent))))
        elif model.kind != "chat":
            out.append((model, transformers.PreTrainedTokenizerFast(tokenizer_file=str(generic))))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(system=st.none() | TEXT, shots=st.lists(st.tuples(TEXT, TEXT), max_size=2), query=TEXT, answer=TEXT, mode=st.sampled_from(["gen", "ppl"]))
def test_labels_and_mask_have_one_entry_per_token_and_the_tokens_decode_to_the_input(every_model, system, shots, query, answer, mode):
    """Property, for every bundled model: one label and one mask bit per token, the ids decode to the final input, and
    a chat-template model's ids are apply_chat_template's."""
    prompt = _prompt(system, shots, query, answer)
    for model, tokenizer in every_model:
        try:
            final = model.render(prompt, mode)
            spans = find_spans(model, prompt, mode)
        except PromptkitError:
            continue  # a template that refuses this conversation (Gemma-2 and a system message) or rewrites its text
        view = token_view(final, spans, token_encoder(tokenizer))
        assert len(view.labels) == len(view.loss_mask) == len(view.input_ids), model
        assert tokenizer.decode(list(view.input_ids)) == final, model
        if isinstance(model, ChatTemplateModel):
            assert list(view.input_ids) == reference_ids(tokenizer, model, model.messages(prompt, mode), mode), model
        # A masked token starts (past its whitespace) inside an answer's span; every other token outside all of them.
        answers = [span for span in spans if is_answer(span.piece) and span.end > span.start]
        for (start, end), bit in zip(token_encoder(tokenizer).encode_offsets(final)[1], view.loss_mask, strict=True):
            text = final[start:end]
            at = start + (len(text) - len(text.lstrip()) if text.strip() else 0)
            assert bit == (start < end and any(span.start <= at < span.end for span in answers)), (model, final[start:end])


STRING_GEN = dict(
    ice_template=dict(type="PromptTemplate", template="Q: {question}\nA: {answer}\n"),
    prompt_template=dict(type="PromptTemplate", template="Solve these.\n</E>Q: {question}\nA: ", ice_token="</E>"),
    retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
    inferencer=dict(type="GenInferencer"),
)
_mcq = "</E>Q: {question}\nAnswer: "
STRING_PPL = dict(
    ice_template=dict(type="PromptTemplate", template={"4": "Q: {question}\nAnswer: 4\n", "6": "Q: {question}\nAnswer: 6\n", "10": "Q: {question}\nAnswer: 10\n"}),
    prompt_template=dict(type="PromptTemplate", template={label: _mcq + label for label in ("4", "6", "10")}, ice_token="</E>"),
    retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
    inferencer=dict(type="PPLInferencer"),
)


def named(prompt: Any, spans: list[Any]) -> list[tuple[str, str]]:
    return [(span.piece, prompt.prompt[span.start : span.end]) for span in spans if span.end > span.start]


def test_string_template_spans_name_the_hint_each_shot_and_answer_and_the_query(make_renderer):
    """A string template's prompt is no longer one text span: shots (rendered one by one) and their answers are cut out."""
    renderer = make_renderer(ROWS, STRING_GEN, READER, train_rows=SHOTS)
    (prompt,) = renderer.render(0)
    assert named(prompt, renderer.spans(prompt)) == [
        ("text", "Solve these.\n"),
        ("shot[0]", "Q: What is 2+2?\nA: "), ("shot[0].answer", "4"), ("shot[0]", "\n"),
        ("text", "\n"),  # the retriever's ice_separator
        ("shot[1]", "Q: What is 3+3?\nA: "), ("shot[1].answer", "6"), ("shot[1]", "\n"),
        ("text", "\n"),  # and its ice_eos_token
        ("query", "Q: What is 5+5?\nA: "),
    ]


def test_label_keyed_string_ppl_gets_its_answer_slot_and_shot_answers(make_renderer, trained_tokenizer):
    """Label-keyed string templates: each shot's answer and the prompt's answer slot are where the labels' texts differ;
    the junction of 'Answer: ' + '10' is reported."""
    dataset = make_renderer(ROWS, STRING_PPL, READER, train_rows=SHOTS).dataset
    renderer = Renderer(dataset, tokenizer=trained_tokenizer(texts=["Answer: 10"]))
    prompts = renderer.render(0)
    ten = next(prompt for prompt in prompts if prompt.label == "10")
    pieces = named(ten, renderer.spans(ten, prompts))
    assert [piece for piece in pieces if piece[0].endswith("answer") or piece[0] == "answer_slot"] == [
        ("shot[0].answer", "4"), ("shot[1].answer", "6"), ("answer_slot", "10")
    ]
    record = ten.to_record()
    assert record["junction"]["continuation"] == "10" and record["junction"]["junction_differs"] is True
    assert record["token_labels"][-1] == "answer_slot" and record["loss_mask"][-1] == 1


def test_ll_records_score_the_rows_continuation(make_renderer, trained_tokenizer):
    """LLInferencer: the continuation follows the prompt; the junction tokenizes prompt + continuation."""
    infer = dict(prompt_template=dict(type="PromptTemplate", template={"A": "{opt1}", "B": "{opt2}"}), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="LLInferencer"))
    rows = [{"opt1": "The trophy", "opt2": "The case", "cont": " was too big.", "answer": "A"}]
    dataset = make_renderer(rows, infer, dict(input_columns=["opt1", "opt2"], output_column="answer")).dataset
    tokenizer = trained_tokenizer(texts=["The trophy was too big."])
    prompt = Renderer(dataset, tokenizer=tokenizer).render(0)[0]
    record = prompt.to_record()
    whole = HFTokenizer(tokenizer).encode_offsets("The trophy was too big.")[0]
    assert record["junction"]["context_tokens"] == len(record["input_ids"]) and record["junction"]["continuation"] == " was too big."
    assert record["junction"]["continuation_ids"] == whole[len(record["input_ids"]) :] and sum(record["loss_mask"]) == 0
