"""Renderer: gen and ppl assembly, shots, max_seq_len, and errors that say where they happened."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from promptkit import (
    AdapterDataset,
    ConfigError,
    JsonlDataset,
    PPLInferencer,
    PromptTemplate,
    Renderer,
    RetrieverError,
    RowsDataset,
    StandardSampleDataset,
    TemplateError,
    build_dataset,
    build_model,
)
from promptkit.data.hooks import CalibratedDataset, RequestFieldsDataset
from promptkit.render import renderer as pipeline_module

ROWS = [{"question": f"q{i}", "answer": f"a{i}"} for i in range(3)]
POOL = [{"question": f"s{i}", "answer": f"b{i}"} for i in range(4)]
STRING_FEWSHOT = dict(
    ice_template=dict(type="PromptTemplate", template="Q: {question}\nA: {answer}"),
    prompt_template=dict(type="PromptTemplate", template="</E>Q: {question}\nA: {answer}", ice_token="</E>"),
    retriever=dict(type="FixKRetriever", fix_id_list=[0, 2, 1]),
    inferencer=dict(type="GenInferencer"),
)


def test_fixk_shots_in_given_order_with_separators(make_renderer):
    """FixK shots appear in fix_id_list order, joined by ice_separator and closed by ice_eos_token."""
    [p] = make_renderer(ROWS, STRING_FEWSHOT, train_rows=POOL).render(1)
    assert p.prompt == "Q: s0\nA: b0\nQ: s2\nA: b2\nQ: s1\nA: b1\nQ: q1\nA: "
    assert p.ice_idx == [0, 2, 1] and p.index == 1 and p.mode == "gen"


def test_custom_separators(make_renderer):
    """ice_separator and ice_eos_token are the retriever's."""
    infer = dict(STRING_FEWSHOT, retriever=dict(type="FixKRetriever", fix_id_list=[0, 1], ice_separator="\n\n", ice_eos_token="\n\n"))
    assert make_renderer(ROWS, infer, train_rows=POOL).render(0)[0].prompt == "Q: s0\nA: b0\n\nQ: s1\nA: b1\n\nQ: q0\nA: "


def test_gen_field_replace_token(make_renderer):
    """GenInferencer's gen_field_replace_token is what the answer renders as."""
    infer = dict(STRING_FEWSHOT, inferencer=dict(type="GenInferencer", gen_field_replace_token="<ans>"))
    assert make_renderer(ROWS, infer, train_rows=POOL).render(0)[0].prompt.endswith("Q: q0\nA: <ans>")


def test_ppl_one_prompt_per_label_in_template_order(make_renderer):
    """PPL renders index-major, labels in template order, label recorded."""
    infer = dict(
        prompt_template=dict(type="PromptTemplate", template={"B": "{question} -> B", "A": "{question} -> A"}),
        retriever=dict(type="ZeroRetriever"),
        inferencer=dict(type="PPLInferencer"),
    )
    prompts = list(make_renderer(ROWS[:2], infer))
    assert [(p.index, p.label, p.prompt) for p in prompts] == [(0, "B", "q0 -> B"), (0, "A", "q0 -> A"), (1, "B", "q1 -> B"), (1, "A", "q1 -> A")]
    assert prompts[0].to_record() == {
        "dataset": "demo", "model": None, "index": 0, "mode": "ppl", "prompt": "q0 -> B", "ice_idx": [], "n_shots": 0, "truncated": False, "label": "B",
        "id": "demo/0/B", "gold": "a0", "request": {"model": None, "add_special_tokens": True}, "fingerprint": "sha256:e58d327fb77e1593",
        "provenance": {
            "template": "sha256:091f8bbb30a9fe49", "meta_template": None, "chat_template": None, "tokenizer": None,
            "shots": "sha256:4f53cda18c2baa0c", "row": "sha256:35fd1c86f9336964",
        },
    }


def test_ppl_label_ice_template_uses_each_shots_gold_label(make_renderer):
    """A label-keyed ice_template renders each shot with its own answer's template."""
    infer = dict(
        ice_template=dict(type="PromptTemplate", template={"b0": "{question}=zero", "b1": "{question}=one"}),
        prompt_template=dict(type="PromptTemplate", template={"x": "</E>{question}=x", "y": "</E>{question}=y"}, ice_token="</E>"),
        retriever=dict(type="FixKRetriever", fix_id_list=[1, 0]),
        inferencer=dict(type="PPLInferencer"),
    )
    prompts = make_renderer(ROWS[:1], infer, train_rows=POOL[:2]).render(0)
    assert [p.prompt for p in prompts] == ["s1=one\ns0=zero\nq0=x", "s1=one\ns0=zero\nq0=y"]


def test_ppl_fills_the_candidate_label_not_the_gold_answer(make_renderer):
    """In ppl mode the answer column renders as the candidate label (OpenCompass substitutes the gold answer)."""
    infer = dict(
        prompt_template=dict(type="PromptTemplate", template={"A": "{question} gold={answer} -> A"}),
        retriever=dict(type="ZeroRetriever"),
        inferencer=dict(type="PPLInferencer"),
    )
    assert make_renderer(ROWS[:1], infer).render(0)[0].prompt == "q0 gold=A -> A"


def test_ppl_without_label_template_scores_each_answer_value(make_renderer):
    """A plain template in ppl mode renders one prompt per distinct answer, that answer filled in."""
    infer = dict(
        prompt_template=dict(type="PromptTemplate", template="Q: {question} A: {answer}"),
        retriever=dict(type="ZeroRetriever"),
        inferencer=dict(type="PPLInferencer"),
    )
    prompts = make_renderer(ROWS[:2], infer).render(1)
    assert [(p.label, p.prompt) for p in prompts] == [("a0", "Q: q1 A: a0"), ("a1", "Q: q1 A: a1")]


def test_ppl_labels_from_inferencer(make_renderer):
    """PPLInferencer(labels=...) chooses and orders the labels."""
    infer = dict(
        prompt_template=dict(type="PromptTemplate", template={"A": "a", "B": "b", "C": "c"}),
        retriever=dict(type="ZeroRetriever"),
        inferencer=dict(type="PPLInferencer", labels=["C", "A"]),
    )
    assert [p.label for p in make_renderer(ROWS[:1], infer).render(0)] == ["C", "A"]


def test_max_seq_len_drops_shots_from_the_end(make_renderer):
    """Shots are dropped from the end until the prompt fits the model's max_seq_len."""
    model = dict(abbr="m", type="CompletionModel", max_seq_len=9, token_counter="whitespace")
    renderer = make_renderer(ROWS, STRING_FEWSHOT, train_rows=POOL, model=model)
    [p] = renderer.render(0)
    assert p.ice_idx == [0] and p.prompt == "Q: s0\nA: b0\nQ: q0\nA: "


def test_max_seq_len_gives_every_label_the_same_shots(make_renderer):
    """In ppl mode all labels of a row get the shots the longest label fits with (OpenCompass lets earlier labels keep more)."""
    infer = dict(
        ice_template=dict(type="PromptTemplate", template="{question} {answer}"),
        prompt_template=dict(type="PromptTemplate", template={"short": "</E>{question}", "long": "</E>{question} a b c d"}, ice_token="</E>"),
        retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
        inferencer=dict(type="PPLInferencer"),
    )
    model = dict(abbr="m", type="CompletionModel", max_seq_len=7, token_counter="whitespace")
    prompts = make_renderer(ROWS[:1], infer, train_rows=POOL, model=model).render(0)
    assert [(p.label, p.ice_idx, p.prompt) for p in prompts] == [("short", [0], "s0 b0\nq0"), ("long", [0], "s0 b0\nq0 a b c d")]


def test_render_row_renders_an_unseen_row(make_renderer):
    """render_row gives the prompt of a row that is not in the test split."""
    renderer = make_renderer(ROWS, STRING_FEWSHOT, train_rows=POOL)
    [p] = renderer.render_row({"question": "new", "answer": "secret"})
    assert p.index == -1 and p.prompt.endswith("Q: new\nA: ") and "secret" not in p.prompt


def test_iteration_matches_render(make_renderer):
    """Iterating the renderer yields exactly render(i) for every i, in order."""
    renderer = make_renderer(ROWS, STRING_FEWSHOT, train_rows=POOL)
    assert list(renderer) == [p for i in range(len(renderer)) for p in renderer.render(i)]


def test_index_out_of_range(make_renderer):
    """An index past the test split says how many rows there are."""
    with pytest.raises(ConfigError, match=r"dataset 'demo', key 'index': index 7 is out of range: the test split has 3 rows \(0 to 2\)"):
        make_renderer(ROWS, STRING_FEWSHOT, train_rows=POOL).render(7)


def test_fixk_id_out_of_range_names_the_dataset_and_split(make_renderer):
    """A FixK id past the pool is an error naming the dataset, the split and its size."""
    infer = dict(STRING_FEWSHOT, retriever=dict(type="FixKRetriever", fix_id_list=[0, 9]))
    with pytest.raises(RetrieverError) as info:
        make_renderer(ROWS, infer, train_rows=POOL).render(0)
    assert str(info.value) == (
        "dataset 'demo', key 'fix_id_list': fix_id_list id 9 is out of range: the train split 'train' has 4 rows (ids 0 to 3)"
    )


def test_shots_without_ice_template(make_renderer):
    """Shots picked with no ice_template to render them are an error with the fix."""
    infer = dict(
        prompt_template=dict(type="PromptTemplate", template="{question}"),
        retriever=dict(type="FixKRetriever", fix_id_list=[0]),
        inferencer=dict(type="GenInferencer"),
    )
    with pytest.raises(ConfigError, match=r"row 0, key 'infer_cfg.ice_template': the retriever picked shots \[0\] but infer_cfg has no ice_template"):
        make_renderer(ROWS, infer, train_rows=POOL).render(0)


def test_chat_template_without_ice_token_place_is_an_error_when_shots_exist(make_renderer):
    """Shots are never dropped silently: a chat template lacking the token is an error (OpenCompass drops them)."""
    infer = dict(
        ice_template=dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}")])),
        prompt_template=dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}")]), ice_token="</E>"),
        retriever=dict(type="FixKRetriever", fix_id_list=[0]),
        inferencer=dict(type="GenInferencer"),
    )
    with pytest.raises(TemplateError, match=r"row 0, key 'ice_token': the retriever picked shots \[0\] but the template has no ice_token '</E>'"):
        make_renderer(ROWS, infer, train_rows=POOL).render(0)


def test_unknown_label_of_a_shot_names_the_shot_row(make_renderer):
    """A shot whose answer is not a label of the ice_template names the shot row and the labels."""
    infer = dict(
        ice_template=dict(type="PromptTemplate", template={"b0": "{question}=zero"}),
        prompt_template=dict(type="PromptTemplate", template={"x": "</E>{question}=x"}, ice_token="</E>"),
        retriever=dict(type="FixKRetriever", fix_id_list=[1]),
        inferencer=dict(type="PPLInferencer"),
    )
    with pytest.raises(TemplateError) as info:
        make_renderer(ROWS, infer, train_rows=POOL).render(0)
    assert str(info.value) == (
        "dataset 'demo', row 0, label 'x', shot pool row 1, key 'answer': the shot's answer 'b1' is not a label of the ice_template "
        "(labels: 'b0'); each shot is rendered with the template of its answer, so fix the row's answer or add that label to ice_template"
    )


def test_chat_model_with_string_shots_in_begin(make_renderer):
    """String shots spliced into a chat template's begin reach a chat model inside the user message."""
    infer = dict(
        ice_template=dict(type="PromptTemplate", template="Q: {question}\nA: {answer}"),
        prompt_template=dict(
            type="PromptTemplate",
            template=dict(begin="</E>", round=[dict(role="HUMAN", prompt="Q: {question}"), dict(role="BOT", prompt="A: {answer}")]),
            ice_token="</E>",
        ),
        retriever=dict(type="FixKRetriever", fix_id_list=[0]),
        inferencer=dict(type="GenInferencer"),
    )
    [p] = make_renderer(ROWS, infer, train_rows=POOL, model=dict(abbr="c", type="ChatModel")).render(0)
    assert p.prompt == [{"role": "user", "content": "Q: s0\nA: b0\nQ: q0"}]


def test_prompt_templates_sep_token_is_removed_from_the_shots(make_renderer):
    """The prompt template's sep_token is removed from the shots too, even when the ice_template declares none."""
    infer = dict(
        ice_template=dict(type="PromptTemplate", template="Q:{question} A:<SEP> {answer}"),
        prompt_template=dict(type="PromptTemplate", template="</E>Q:{question} A:<SEP> {answer}", ice_token="</E>", sep_token="<SEP>"),
        retriever=dict(type="FixKRetriever", fix_id_list=[0, 1]),
        inferencer=dict(type="GenInferencer"),
    )
    assert make_renderer(ROWS, infer, train_rows=POOL).render(2)[0].prompt == "Q:s0 A: b0\nQ:s1 A: b1\nQ:q2 A: "


def test_empty_test_split_is_an_error(make_renderer):
    """A dataset whose test split has no rows is reported, not rendered as nothing."""
    with pytest.raises(Exception, match=r"dataset 'demo': the test split 'test' has no rows"):
        len(make_renderer([], STRING_FEWSHOT, train_rows=POOL))


LABELLED = dict(prompt_template=dict(type="PromptTemplate", template="{question} -> {answer}"), retriever=dict(type="ZeroRetriever"))


@pytest.mark.parametrize(
    ("inferencer", "template", "labels"),
    [
        (PPLInferencer(labels=["y", "x"]), PromptTemplate({"x": "{q}", "y": "{q}"}), ["y", "x"]),
        (PPLInferencer(), PromptTemplate({"x": "{q}", "y": "{q}"}), ["x", "y"]),
        (PPLInferencer(), PromptTemplate("{q}"), ["b", "a"]),
    ],
)
def test_candidate_labels_come_from_labels_then_the_template_then_the_answers(inferencer, template, labels):
    """labels= wins, then a label-keyed template's keys, then the answer column's values in order of first appearance."""
    rows = [{"q": "1", "a": "b"}, {"q": "2", "a": "a"}, {"q": "3", "a": "b"}]
    assert inferencer.candidate_labels(template, rows, "a") == labels


def test_candidate_labels_need_labels_or_answers_that_are_labels():
    """Without labels, a label-keyed template or an answer column, or with list answers, there are no candidate labels."""
    with pytest.raises(ConfigError) as info:
        PPLInferencer().candidate_labels(PromptTemplate("{q}"), [{"q": "1"}], None)
    assert str(info.value) == "PPLInferencer needs candidate labels: use a label-keyed template, labels=[...], or an output_column"
    with pytest.raises(ConfigError) as info:
        PPLInferencer().candidate_labels(PromptTemplate("{q}"), [{"q": "1", "a": ["x", "y"]}], "a")
    assert str(info.value) == (
        "PPLInferencer takes its labels from the answer column 'a', but its values are not single labels (e.g. lists); "
        "give labels=[...] or a label-keyed template"
    )


def test_renderer_labels_errors_name_the_dataset(make_renderer):
    """The renderer's labels come from the ppl inferencer; its errors name the dataset, not a row."""
    rows = [{"question": "q0", "answer": ["x", "y"]}]
    renderer = make_renderer(rows, dict(LABELLED, inferencer=dict(type="PPLInferencer")))
    with pytest.raises(ConfigError, match=r"^dataset 'demo': PPLInferencer takes its labels from the answer column 'answer'"):
        renderer.render(0)


def test_an_error_scoring_a_label_names_the_row_and_the_label(make_renderer):
    """A template error while rendering one label's prompt names the row and that label."""
    infer = dict(
        prompt_template=dict(type="PromptTemplate", template={"x": "{question} -> x", "y": "{question} -> y"}),
        retriever=dict(type="FixKRetriever", fix_id_list=[0]),
        inferencer=dict(type="PPLInferencer", labels=["x", "z"]),
    )
    with pytest.raises(ConfigError, match=r"^dataset 'demo', row 1, label 'x', key 'infer_cfg.ice_template': the retriever picked shots \[0\]"):
        make_renderer(ROWS, infer, train_rows=POOL).render(1)



def test_ppl_labels_share_the_fewest_shots_any_label_fits_with(make_renderer):
    """Under max_seq_len every label's prompt keeps the shots of the longest one: the shorter label is rendered again with them."""
    infer = dict(
        ice_template=dict(type="PromptTemplate", template="{question} {answer}"),
        prompt_template=dict(type="PromptTemplate", template={"A": "</E>{question} A", "B": "</E>{question} B b b"}, ice_token="</E>"),
        retriever=dict(type="FixKRetriever", fix_id_list=[0, 1, 2]),
        inferencer=dict(type="PPLInferencer"),
    )
    model = dict(abbr="m", type="CompletionModel", max_seq_len=7, token_counter="whitespace")
    prompts = make_renderer(ROWS[:1], infer, train_rows=POOL[:3], model=model).render(0)
    assert [(p.label, p.prompt, p.ice_idx, p.truncated) for p in prompts] == [
        ("A", "s0 b0\nq0 A", [0], True),
        ("B", "s0 b0\nq0 B b b", [0], True),
    ]

class HookedRows(RowsDataset):
    """A dataset of one's own with both hooks: a calibration row, and a chat request's tools."""

    def calib_row(self, row):
        return {**row, "question": ""}

    def request_fields(self, row, model_kind):
        return {"tools": [f"tool-{model_kind}"]} if model_kind == "chat" else None


def _hooked(loader: type, model: dict | None) -> list[dict]:
    cfg = dict(abbr="h", type=loader, rows=ROWS[:1], reader_cfg=dict(input_columns=["question"], output_column="answer"),
               infer_cfg=dict(LABELLED, inferencer=dict(type="GenInferencer")))
    return [p.to_record() for p in Renderer(build_dataset(cfg), build_model(model) if model else None)]


def test_a_dataset_with_hooks_adds_calibration_prompts_and_request_fields():
    """calib_row adds a "calib" prompt with the same shots; request_fields adds the row's fields to chat records only."""
    chat = _hooked(HookedRows, dict(abbr="c", type="ChatModel"))
    assert [(r["mode"], r["prompt"], r.get("tools")) for r in chat] == [
        ("gen", [{"role": "user", "content": "q0 -> "}], ["tool-chat"]),
        ("calib", [{"role": "user", "content": " -> "}], ["tool-chat"]),
    ]
    completion = _hooked(HookedRows, None)
    assert [(r["mode"], r["prompt"], "tools" in r) for r in completion] == [("gen", "q0 -> ", False), ("calib", " -> ", False)]


def test_a_plain_dataset_has_neither_hook():
    """A dataset without calib_row or request_fields renders one gen prompt per row and nothing else."""
    assert [(r["mode"], r["prompt"]) for r in _hooked(RowsDataset, dict(abbr="c", type="ChatModel"))] == [("gen", [{"role": "user", "content": "q0 -> "}])]


def test_format_datasets_implement_the_hooks_and_plain_loaders_do_not():
    """Format datasets have both hooks, AdapterDataset the calibration hook; JsonlDataset and RowsDataset have none."""
    standard = StandardSampleDataset("data.jsonl")
    assert isinstance(standard, CalibratedDataset) and isinstance(standard, RequestFieldsDataset)
    # A standardized Sample's tools are the prompts' tools (its default config's tools=), not request columns.
    assert standard.request_fields({"tools": [{"type": "function"}]}, "chat") is None
    assert standard.default_config()["tools"] == {"column": "tools", "choice_column": "tool_choice"}
    adapter = AdapterDataset("data.jsonl")
    assert isinstance(adapter, CalibratedDataset) and not isinstance(adapter, RequestFieldsDataset)
    for plain in (JsonlDataset("data.jsonl"), RowsDataset([{"q": "1"}])):
        assert not isinstance(plain, (CalibratedDataset, RequestFieldsDataset))


def test_the_pipeline_reaches_datasets_only_through_their_hooks():
    """promptkit.render.renderer imports no dataset format (calibration and request fields are the datasets' hooks)."""
    tree = ast.parse(Path(pipeline_module.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert not {module for module in imported if module.startswith("promptkit.formats")}


