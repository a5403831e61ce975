"""Ambiguous config shapes: a role item as the whole template, non-bool flags, a prompt over max_seq_len with no shot to drop."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from promptkit import (
    ConfigError,
    GenInferencer,
    JinjaPromptTemplate,
    MessagesTemplate,
    MetaTemplateError,
    MMPromptTemplate,
    MultiTurnPromptTemplate,
    PromptTemplate,
    RandomRetriever,
    RetrieverError,
    TemplateError,
    build_model,
)

ROLE_ITEM_MESSAGE = (
    "template looks like one role item (keys 'role', 'prompt'), not a whole template: a chat template lists its role items "
    "under 'round', e.g. template=dict(round=[dict(role='HUMAN', prompt=...)]); a label-keyed template maps each label to its prompt"
)

DATASET = """
from promptkit import GenInferencer, JsonlDataset, PromptTemplate, ZeroRetriever

datasets = [
    dict(
        abbr='demo',
        type=JsonlDataset,
        path='data.jsonl',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template={template}),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer),
        ),
    )
]
"""

MODEL = """
models = [
    dict(
        abbr='tiny',
        type='CompletionModel',
        meta_template=dict(round=[dict(role='HUMAN', begin='<u>', end='</u>'), dict(role='BOT', begin='<b>', generate={generate})]),
        max_seq_len={max_seq_len},
        token_counter='whitespace',
    )
]
"""

ROWS = [{"question": "one two three", "answer": "x"}, {"question": "one", "answer": "y"}, {"question": "a b c d e f g h", "answer": "z"}]


CHAT = "dict(round=[dict(role='HUMAN', prompt='Q: {question}'), dict(role='BOT', prompt='{answer}')])"


def write_configs(tmp_path: Path, template: str = CHAT, generate: str = "True", max_seq_len: int = 100) -> tuple[Path, Path]:
    (tmp_path / "data.jsonl").write_text("".join(json.dumps(row) + "\n" for row in ROWS), encoding="utf-8")
    dataset = tmp_path / "cfg.py"
    dataset.write_text(DATASET.replace("{template}", template), encoding="utf-8")
    model = tmp_path / "model.py"
    model.write_text(MODEL.format(generate=generate, max_seq_len=max_seq_len), encoding="utf-8")
    return dataset, model


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "promptkit", *args], capture_output=True, text=True, timeout=120)


# -- a role item given as the whole template ------------------------------------------------------------


def test_role_item_as_the_whole_template_is_an_error():
    """dict(role=..., prompt=...) without round=[...] is not taken as a label dict whose prompts are 'HUMAN'."""
    with pytest.raises(TemplateError) as caught:
        PromptTemplate(dict(role="HUMAN", prompt="{question}"))
    assert str(caught.value) == ROLE_ITEM_MESSAGE


def test_role_item_as_the_whole_template_on_the_cli(tmp_path):
    """`render` exits 1 with one line naming the config, the dataset and the key, and no traceback."""
    dataset, _ = write_configs(tmp_path, template="dict(role='HUMAN', prompt='{question}')")
    result = run_cli("render", str(dataset))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"promptkit: error: config {dataset}, dataset 'demo', key 'infer_cfg.prompt_template': {ROLE_ITEM_MESSAGE}\n"


@pytest.mark.parametrize(
    ("item", "keys"),
    [
        (dict(role="HUMAN"), "'role'"),
        (dict(role="SYSTEM", fallback_role="HUMAN", prompt="Be brief."), "'role', 'fallback_role', 'prompt'"),
        (dict(role="BOT", begin="<b>", end="</b>", prompt="{answer}"), "'role', 'begin', 'end', 'prompt'"),
    ],
)
def test_every_role_item_shape_is_caught(item, keys):
    """Any dict whose keys are a role item's, 'role' among them, is named as a role item."""
    with pytest.raises(TemplateError, match=rf"^template looks like one role item \(keys {keys}\), not a whole template: "):
        PromptTemplate(item)


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (JinjaPromptTemplate, ROLE_ITEM_MESSAGE),
        # These take chat templates only, so the label-dict sentence is left out.
        (MMPromptTemplate, ROLE_ITEM_MESSAGE.removesuffix("; a label-keyed template maps each label to its prompt")),
        (MultiTurnPromptTemplate, ROLE_ITEM_MESSAGE.removesuffix("; a label-keyed template maps each label to its prompt")),
    ],
)
def test_role_item_as_the_template_of_other_template_classes(cls, message):
    """JinjaPromptTemplate, MMPromptTemplate and MultiTurnPromptTemplate give the same hint."""
    with pytest.raises(TemplateError) as caught:
        cls(dict(role="HUMAN", prompt="{question}"))
    assert str(caught.value) == message


def test_multimodal_role_item_as_the_template():
    """A prompt_mm role item given as the whole template is named as a role item too."""
    item = dict(role="HUMAN", prompt_mm={"text": {"type": "text", "text": "{question}"}})
    with pytest.raises(TemplateError, match=r"^template looks like one role item \(keys 'role', 'prompt_mm'\), not a whole template: "):
        MMPromptTemplate(item)


def test_role_item_as_a_label_template():
    """A label whose template is a role item is told to wrap it in round=[...]."""
    with pytest.raises(TemplateError) as caught:
        PromptTemplate({"A": dict(role="HUMAN", prompt="{question} A"), "B": dict(round=[dict(role="HUMAN", prompt="{question} B")])})
    assert str(caught.value) == (
        "template['A'] looks like one role item (keys 'role', 'prompt'), not a whole template: a chat template lists its role items "
        "under 'round', e.g. template['A']=dict(round=[dict(role='HUMAN', prompt=...)])"
    )


def test_label_dicts_are_still_label_dicts():
    """Labels that are not all role-item keys, or without 'role', stay a label-keyed template."""
    assert PromptTemplate({"role": "R: {question}", "other": "O: {question}"}).kind == "labels"
    assert PromptTemplate({"prompt": "P: {question}", "end": "E: {question}"}).kind == "labels"
    assert PromptTemplate({"A": "{question} A", "B": "{question} B"}).render({"question": "q"}, label="B") == "q B"


# -- bool-typed keys must be bools ------------------------------------------------------------------------


def test_generate_as_a_string_is_an_error():
    """generate='False' is not taken as true: the error names the role and the value."""
    meta = dict(round=[dict(role="HUMAN", begin="<u>"), dict(role="BOT", api_role="BOT", generate="False")])
    with pytest.raises(MetaTemplateError) as caught:
        build_model(dict(abbr="m", type="CompletionModel", meta_template=meta))
    assert str(caught.value) == (
        "key 'generate': meta_template round[1]: 'generate' of role 'BOT' must be True or False (got 'False' that is a str); "
        "generate=True marks the model's own turn"
    )


@pytest.mark.parametrize("value", ["1", 1, 0, None])
def test_generate_must_be_a_bool(value):
    """Numbers and None are refused too: only True or False say which turn is the model's."""
    meta = dict(round=[dict(role="HUMAN"), dict(role="BOT", generate=value)], reserved_roles=[dict(role="SYSTEM")])
    with pytest.raises(MetaTemplateError, match=rf"'generate' of role 'BOT' must be True or False \(got {value!r} that is a {type(value).__name__}\)"):
        build_model(dict(abbr="m", type="CompletionModel", meta_template=meta))


def test_generate_as_a_string_on_the_cli(tmp_path):
    """`render --model` with generate='False' exits 1 with one line naming the model config."""
    dataset, model = write_configs(tmp_path, generate="'False'")
    result = run_cli("render", str(dataset), "--model", str(model))
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"promptkit: error: config {model}, model 'tiny', key 'generate': meta_template round[1]: 'generate' of "
        "role 'BOT' must be True or False (got 'False' that is a str); generate=True marks the model's own turn\n"
    )


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: RandomRetriever(per_row_seed="False"), RetrieverError, "key 'per_row_seed': per_row_seed must be True or False (got 'False' that is a str)"),
        (lambda: MessagesTemplate(list_options="no"), TemplateError, "key 'list_options': list_options must be True or False (got 'no' that is a str)"),
        (lambda: GenInferencer(multiround="False"), ConfigError, "key 'multiround': multiround must be True or False (got 'False' that is a str)"),
    ],
)
def test_other_bool_keys_must_be_bools(build, error, message):
    """per_row_seed, list_options and multiround are not read by truthiness."""
    with pytest.raises(error) as caught:
        build()
    assert str(caught.value) == message


# -- a prompt over max_seq_len with no shot left to drop ----------------------------------------------------


def test_prompt_over_the_limit_is_marked(make_renderer, caplog):
    """A bare prompt longer than max_seq_len is rendered as it is, marked over_limit, and one warning names the rows."""
    renderer = make_renderer(
        ROWS,
        dict(
            ice_template=dict(type="PromptTemplate", template="{question} {answer}"),
            prompt_template=dict(type="PromptTemplate", template="</E>Q: {question}", ice_token="</E>"),
            retriever=dict(type="FixKRetriever", fix_id_list=[1]),
            inferencer=dict(type="GenInferencer"),
        ),
        model=dict(abbr="m", type="CompletionModel", max_seq_len=3, token_counter="whitespace"),
    )
    with caplog.at_level(logging.WARNING, logger="promptkit.render"):
        records = [prompt.to_record() for prompt in renderer]
    assert [(r["prompt"], r["ice_idx"], r["truncated"], r.get("over_limit")) for r in records] == [
        ("\nQ: one two three", [], True, True),
        ("\nQ: one", [], True, None),
        ("\nQ: a b c d e f g h", [], True, True),
    ]
    assert [record.getMessage() for record in caplog.records] == [
        "dataset 'demo', model 'm': 2 row(s) have a prompt longer than max_seq_len=3 tokens with no shot left to drop "
        "(rows 0, 2); they are written as they are, marked \"over_limit\": true"
    ]


def test_zero_shot_prompt_over_the_limit_is_marked(make_renderer):
    """With no shots at all (ZeroRetriever), a prompt over the limit is marked too; one that fits has no over_limit key."""
    renderer = make_renderer(
        ROWS,
        dict(prompt_template=dict(type="PromptTemplate", template="Q: {question}"), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer")),
        model=dict(abbr="m", type="CompletionModel", max_seq_len=3, token_counter="whitespace"),
    )
    assert [prompt.to_record().get("over_limit") for prompt in renderer] == [True, None, True]
    assert "over_limit" not in renderer.render(1)[0].to_record()


def test_ppl_prompt_over_the_limit_is_marked_per_label(make_renderer):
    """In ppl mode each label's prompt is checked on its own."""
    renderer = make_renderer(
        [{"question": "one two", "answer": "A"}],
        dict(prompt_template=dict(type="PromptTemplate", template={"A": "{question} A", "B": "{question} B b b"}), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="PPLInferencer")),
        model=dict(abbr="m", type="CompletionModel", max_seq_len=3, token_counter="whitespace"),
    )
    assert [(r["label"], r.get("over_limit")) for r in (prompt.to_record() for prompt in renderer)] == [("A", None), ("B", True)]


def test_chat_template_prompt_over_the_limit_is_marked(make_renderer):
    """A chat-template model (fitted by dropping the last shot, as OpenCompass) marks a prompt over the limit too."""
    template = "{% for m in messages %}<{{ m.role }}>{{ m.content }}</{{ m.role }}>{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}"
    renderer = make_renderer(
        ROWS,
        dict(
            ice_template=dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}")])),
            prompt_template=dict(type="PromptTemplate", template=dict(begin="</E>", round=[dict(role="HUMAN", prompt="{question}")]), ice_token="</E>"),
            retriever=dict(type="FixKRetriever", fix_id_list=[1]),
            inferencer=dict(type="GenInferencer"),
        ),
        model=dict(abbr="m", type="HuggingFacewithChatTemplate", chat_template=template, max_seq_len=2, token_counter="whitespace"),
    )
    assert [(r["prompt"], r["ice_idx"], r.get("over_limit")) for r in (p.to_record() for p in renderer)] == [
        ("<user>one two three\n</user><assistant>", [], True),
        ("<user>one\n</user><assistant>", [], None),
        ("<user>a b c d e f g h\n</user><assistant>", [], True),
    ]


def test_warning_names_the_first_five_rows(make_renderer, caplog):
    """With more than five rows over the limit, the warning names the first five and counts them all."""
    renderer = make_renderer(
        [{"question": f"long question number {i}", "answer": "x"} for i in range(7)],
        dict(prompt_template=dict(type="PromptTemplate", template="{question}"), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer")),
        model=dict(abbr="m", type="CompletionModel", max_seq_len=2, token_counter="whitespace"),
    )
    with caplog.at_level(logging.WARNING, logger="promptkit.render"):
        assert all(prompt.over_limit for prompt in renderer)
    assert [record.getMessage() for record in caplog.records] == [
        "dataset 'demo', model 'm': 7 row(s) have a prompt longer than max_seq_len=2 tokens with no shot left to drop "
        "(rows 0, 1, 2, 3, 4, ...); they are written as they are, marked \"over_limit\": true"
    ]


def test_prompt_over_the_limit_on_the_cli(tmp_path):
    """`render` writes the records with "over_limit": true and one warning line; exit 0."""
    dataset, model = write_configs(tmp_path, max_seq_len=3)
    result = run_cli("render", str(dataset), "--model", str(model))
    assert result.returncode == 0
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["prompt"], r.get("over_limit")) for r in records] == [
        ("<u>Q: one two three</u><b>", True),
        ("<u>Q: one</u><b>", None),
        ("<u>Q: a b c d e f g h</u><b>", True),
    ]
    assert result.stderr == (
        "promptkit: warning: dataset 'demo', model 'tiny': 2 row(s) have a prompt longer than max_seq_len=3 tokens with no shot "
        "left to drop (rows 0, 2); they are written as they are, marked \"over_limit\": true\n"
    )
