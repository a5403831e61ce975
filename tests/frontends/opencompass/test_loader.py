"""Config files: mmengine loading, read_base inheritance, the type registry and its errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import promptkit.models
from promptkit import ChatModel, ConfigError, PromptTemplate, build_dataset, load_datasets, load_models


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


BASE = """
reader_cfg = dict(input_columns=['q'], output_column='a')
infer_cfg = dict(prompt_template=dict(type={t}, template='Q: {{q}}\\nA: {{a}}'),
                 retriever=dict(type='ZeroRetriever'), inferencer=dict(type='GenInferencer'))
"""


def test_read_base_inheritance_and_class_types(tmp_path: Path):
    """A config inherits with read_base(); type= takes imported classes; data paths are relative to the config."""
    write(tmp_path / "cfg" / "common.py", "from promptkit import PromptTemplate\n" + BASE.format(t="PromptTemplate"))
    write(tmp_path / "cfg" / "data" / "t.jsonl", '{"q": "1+1", "a": "2"}\n')
    path = write(
        tmp_path / "cfg" / "ds.py",
        "from mmengine.config import read_base\nwith read_base():\n    from .common import reader_cfg, infer_cfg\n"
        "datasets = [dict(abbr='d', type='JsonlDataset', path='data/t.jsonl', reader_cfg=reader_cfg, infer_cfg=infer_cfg)]\n",
    )
    [spec] = load_datasets(path)
    assert isinstance(spec.prompt_template, PromptTemplate) and spec.abbr == "d"
    from promptkit import Renderer

    assert Renderer(spec).render(0)[0].prompt == "Q: 1+1\nA: "


def test_dotted_type_names_resolve_by_their_last_part(tmp_path: Path):
    """'opencompass.openicl.icl_prompt_template.PromptTemplate' is PromptTemplate."""
    spec = build_dataset(
        dict(abbr="d", type="JsonlDataset", path="x.jsonl", reader_cfg=dict(input_columns=["q"]),
             infer_cfg=dict(prompt_template=dict(type="opencompass.openicl.icl_prompt_template.PromptTemplate", template="{q}"),
                            retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer")))
    )
    assert isinstance(spec.prompt_template, PromptTemplate)


def test_unknown_type_lists_the_known_ones(tmp_path: Path):
    """An unknown type= is an error with a suggestion and the known names."""
    path = write(tmp_path / "m.py", "models = [dict(abbr='m', type='OpenAl')]\n")
    with pytest.raises(ConfigError) as info:
        load_models(path)
    known = ", ".join(sorted(promptkit.models.__all__))
    assert str(info.value) == (
        f"config {path}, model 'm', key 'type': unknown model type 'OpenAl' (did you mean 'OpenAI'?); known model types: {known}"
    )
    assert "HuggingFacewithChatTemplate, " in known and "VLLMwithChatTemplate" in known


def test_unknown_retriever_parameter(tmp_path: Path):
    """A misspelt parameter names the class and suggests the right one."""
    with pytest.raises(ConfigError, match=r"dataset 'd', key 'infer_cfg.retriever.fix_ids': FixKRetriever has no parameter 'fix_ids'"):
        build_dataset(
            dict(abbr="d", type="JsonlDataset", path="x.jsonl", reader_cfg=dict(input_columns=["q"]),
                 infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="{q}"),
                                retriever=dict(type="FixKRetriever", fix_ids=[0]), inferencer=dict(type="GenInferencer")))
        )


def test_both_templates_need_ice_token():
    """With an ice_template, prompt_template must say where the shots go."""
    with pytest.raises(ConfigError, match=r"key 'infer_cfg.prompt_template.ice_token': infer_cfg has an ice_template, so prompt_template needs ice_token"):
        build_dataset(
            dict(abbr="d", type="JsonlDataset", path="x.jsonl", reader_cfg=dict(input_columns=["q"]),
                 infer_cfg=dict(ice_template=dict(type="PromptTemplate", template="{q}"), prompt_template=dict(type="PromptTemplate", template="{q}"),
                                retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer")))
        )


def test_unknown_infer_cfg_key():
    """A typo in infer_cfg is caught."""
    with pytest.raises(ConfigError, match=r"unknown key 'promt_template' in infer_cfg \(did you mean 'prompt_template'\?\)"):
        build_dataset(dict(abbr="d", type="JsonlDataset", path="x", reader_cfg=dict(input_columns=["q"]), infer_cfg=dict(promt_template={})))


def test_template_error_in_config_names_the_key_and_dataset():
    """A malformed template inside a config says which dataset and which template key."""
    with pytest.raises(Exception) as info:
        build_dataset(
            dict(abbr="d", type="JsonlDataset", path="x", reader_cfg=dict(input_columns=["q"]),
                 infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template=dict(begin="x")),
                                retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer")))
        )
    assert str(info.value).startswith("dataset 'd', key 'infer_cfg.prompt_template': template: a chat template needs a 'round' list")


def test_model_runtime_keys_are_accepted(tmp_path: Path):
    """Runtime keys of OpenCompass model configs are accepted and ignored."""
    path = write(tmp_path / "m.py", "models = [dict(abbr='g', type='OpenAISDK', path='gpt-4o', key='ENV', max_out_len=2048, batch_size=8, run_cfg=dict(num_gpus=0))]\n")
    [model] = load_models(path)
    assert isinstance(model, ChatModel) and model.abbr == "g"


def test_config_file_errors(tmp_path: Path):
    """A missing file, a file without `datasets` and a file that raises are reported with the file."""
    with pytest.raises(ConfigError, match=r"config file 'nope.py' not found"):
        load_datasets("nope.py")
    empty = write(tmp_path / "e.py", "x = 1\n")
    with pytest.raises(ConfigError, match=r"the config defines no 'datasets' list"):
        load_datasets(empty)
    broken = write(tmp_path / "b.py", "datasets = [undefined_name]\n")
    with pytest.raises(ConfigError, match=r"cannot load config: NameError: name 'undefined_name' is not defined"):
        load_datasets(broken)


def test_opencompass_model_config_ports_by_changing_the_import(tmp_path: Path):
    """`from opencompass.models import HuggingFaceCausalLM` becomes `from promptkit.models import HuggingFaceCausalLM`."""
    path = write(
        tmp_path / "m.py",
        "from promptkit.models import HuggingFaceCausalLM\n"
        "_meta = dict(round=[dict(role='HUMAN', begin='<|User|>:', end='\\n'), dict(role='BOT', begin='<|Bot|>:', end='<eoa>\\n', generate=True)])\n"
        "models = [dict(type=HuggingFaceCausalLM, abbr='internlm-chat-7b', path='internlm/internlm-chat-7b', tokenizer_path='internlm/internlm-chat-7b',\n"
        "               model_kwargs=dict(trust_remote_code=True, device_map='auto'), tokenizer_kwargs=dict(padding_side='left'),\n"
        "               max_out_len=100, max_seq_len=2048, batch_size=8, meta_template=_meta, run_cfg=dict(num_gpus=1, num_procs=1), end_str='<eoa>')]\n",
    )
    [model] = load_models(path)
    assert model.abbr == "internlm-chat-7b" and model.render("x") == "x"


def test_a_dataset_without_abbr_is_named_as_opencompass_names_it(tmp_path: Path):
    """No abbr: the records carry path (and _name) with '/' as '_', as OpenCompass's dataset_abbr_from_cfg does."""
    infer = dict(prompt_template=dict(type="PromptTemplate", template="{q}"), retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))
    reader = dict(input_columns=["q"])
    assert build_dataset(dict(type="RowsDataset", rows=[{"q": "x"}], reader_cfg=reader, infer_cfg=infer)).abbr == "dataset"
    spec = build_dataset(dict(type="JsonlDataset", path="data/crows/pairs.jsonl", reader_cfg=reader, infer_cfg=infer))
    assert spec.abbr == "data_crows_pairs.jsonl"
    named = build_dataset(dict(type="MMLUDataset", path="opencompass/mmlu", name="anatomy", reader_cfg=reader, infer_cfg=infer))
    assert named.abbr == "opencompass_mmlu_anatomy"


def _jsonl_entry(**keys: object) -> dict:
    """A JsonlDataset entry over one row with the given extra keys."""
    return dict(abbr="qa", type="JsonlDataset", path="rows.jsonl", reader_cfg=dict(input_columns=["q"], output_column="a"),
                infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="{q}"), retriever=dict(type="ZeroRetriever"),
                               inferencer=dict(type="GenInferencer")), **keys)


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        (dict(calib_blank=["q"]), "dataset 'qa', key 'calib_blank': JsonlDataset has no parameter 'calib_blank'; it takes ['path', 'columns']"),
        (dict(colums=["q", "a"]), "dataset 'qa', key 'colums': JsonlDataset has no parameter 'colums' (did you mean 'columns'?); it takes ['path', 'columns']"),
    ],
)
def test_an_unknown_jsonl_dataset_key_is_an_error_naming_it(keys: dict, message: str):
    """calib_blank (a format dataset's key) or a typo on JsonlDataset is refused, not silently ignored."""
    with pytest.raises(ConfigError) as raised:
        build_dataset(_jsonl_entry(**keys))
    assert str(raised.value) == message


def test_an_unknown_rows_dataset_key_is_an_error_naming_it():
    """RowsDataset refuses keys it does not read, as JsonlDataset does."""
    entry = {**_jsonl_entry(), "type": "RowsDataset", "rows": [{"q": "1", "a": "2"}], "calib_blank": ["q"]}
    del entry["path"]
    with pytest.raises(ConfigError) as raised:
        build_dataset(entry)
    assert str(raised.value) == "dataset 'qa', key 'calib_blank': RowsDataset has no parameter 'calib_blank'; it takes ['rows']"


def test_opencompass_base_dataset_keys_are_still_accepted_on_jsonl_dataset(tmp_path: Path):
    """n and k are OpenCompass's BaseDataset keys around every loader: JsonlDataset takes them (n repeats the rows)."""
    write(tmp_path / "rows.jsonl", '{"q": "1+1", "a": "2"}\n')
    from promptkit import Renderer

    spec = build_dataset(_jsonl_entry(n=2, k=1), tmp_path / "ds.py")
    assert [p.prompt for p in Renderer(spec)] == ["1+1", "1+1"]
