"""Run-time overrides of dataset configs (--set, --num-fewshot): applied, recorded, and bad keys named."""

from __future__ import annotations

from pathlib import Path

import pytest

from promptkit import ConfigError, Renderer, load_datasets
from promptkit.frontends.opencompass.overrides import Overrides, parse_value

ROOT = Path(__file__).parents[3]
STRING = ROOT / "configs" / "datasets" / "string_fewshot_demo" / "string_fewshot_demo_gen.py"


def first_record(overrides):
    spec = load_datasets(STRING, overrides=overrides)[0]
    return Renderer(spec).render(0)[0].to_record()


def test_set_changes_the_prompt_and_is_recorded():
    """A dotted key edits the entry before it is built; the spec and each record list it."""
    record = first_record(["infer_cfg.retriever.ice_separator='\\n---\\n'", "infer_cfg.inferencer.gen_prefix=The answer:"])
    assert record["prompt"] == "Solve the following questions.\n2+2=?\n4\n---\n3+3=?\n6\n1+1=?\nThe answer:"
    assert record["provenance"]["overrides"] == ["infer_cfg.retriever.ice_separator='\\n---\\n'", "infer_cfg.inferencer.gen_prefix='The answer:'"]
    assert "overrides" not in Renderer(load_datasets(STRING)[0]).render(0)[0].to_record()["provenance"]


def test_list_items_are_indexed_by_number():
    """A number on the path indexes a list."""
    spec = load_datasets(STRING, overrides=["infer_cfg.retriever.fix_id_list.0=1"])[0]
    assert spec.retriever.fix_id_list == [1, 1]
    assert spec.overrides == ("infer_cfg.retriever.fix_id_list.0=1",)


def test_num_fewshot_cuts_fix_id_list():
    """--num-fewshot K keeps the first K ids of a FixKRetriever."""
    record = first_record(Overrides(num_fewshot=1))
    assert record["prompt"] == "Solve the following questions.\n2+2=?\n4\n1+1=?\n"
    assert record["provenance"]["overrides"] == ["num_fewshot=1"]


def test_num_fewshot_sets_ice_num():
    """A counting retriever gets ice_num=K, added when the config has none."""
    entry = dict(infer_cfg=dict(retriever=dict(type="RandomRetriever")))
    edited, applied = Overrides(num_fewshot=3).apply(entry)
    assert edited["infer_cfg"]["retriever"] == {"type": "RandomRetriever", "ice_num": 3}
    assert entry == dict(infer_cfg=dict(retriever=dict(type="RandomRetriever")))  # the given entry is left as it is
    assert applied == ("num_fewshot=3",)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            ["infer_cfg.retriver.ice_num=2"],
            "key 'infer_cfg.retriver.ice_num': no key 'retriver' at 'infer_cfg' (did you mean 'retriever'?); "
            "its keys are ['ice_template', 'prompt_template', 'retriever', 'inferencer']",
        ),
        (
            ["infer_cfg.inferencer.max_out_lenn=5"],
            "key 'infer_cfg.inferencer.max_out_lenn': no key 'max_out_lenn' at 'infer_cfg.inferencer'; its keys are ['type']",
        ),
        (["infer_cfg.retriever.fix_id_list.5=0"], "key 'infer_cfg.retriever.fix_id_list.5': at 'infer_cfg.retriever.fix_id_list' is a list of 2 items; '5' is not an index of it"),
        (Overrides(num_fewshot=3), "key 'infer_cfg.retriever.fix_id_list': num_fewshot=3: FixKRetriever shows the ids in fix_id_list, and it has 2; give at most that many, or a longer fix_id_list with --set"),
    ],
)
def test_bad_keys_are_one_line_naming_the_key_and_the_config(overrides, message):
    """An override that names nothing the config has is refused, with the config, dataset and key."""
    with pytest.raises(ConfigError) as caught:
        load_datasets(STRING, overrides=overrides)
    assert str(caught.value) == f"config {STRING}, dataset 'string_fewshot_demo', {message}"
    assert "\n" not in str(caught.value)


def test_new_keys_are_those_the_config_reads():
    """A new last key is a parameter of the dict's class, a key promptkit reads in infer_cfg, or a chat-template kwarg."""
    spec = load_datasets(STRING, overrides=["infer_cfg.inferencer.prefill=True", "infer_cfg.thinking=False", "infer_cfg.chat_template_kwargs={}", "infer_cfg.chat_template_kwargs.x=1"])[0]
    assert spec.inferencer.prefill is True
    assert (spec.controls.thinking, dict(spec.controls.chat_template_kwargs)) == (False, {"x": 1})
    assert "thinking" not in spec.infer_settings


@pytest.mark.parametrize(("text", "value"), [("3", 3), ("True", True), ("[0, 1]", [0, 1]), ("'a b'", "a b"), ("a b", "a b"), ("None", None), ("{x", "{x")])
def test_values_are_python_literals_else_strings(text, value):
    """VALUE reads as a literal when it is one."""
    assert parse_value(text) == value


def test_a_line_without_equals_is_refused():
    """KEY=VALUE is the only form."""
    with pytest.raises(ConfigError) as caught:
        Overrides(("infer_cfg.thinking",))
    assert str(caught.value) == "an override must read KEY=VALUE, e.g. infer_cfg.inferencer.max_out_len=512 (got 'infer_cfg.thinking')"
