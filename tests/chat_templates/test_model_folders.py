"""Model folders by hub id: the local Hugging Face cache, --model-path / PROMPTKIT_MODEL_PATHS, the config's own folder.

The cache is built in a temporary folder in the real layout (``models--Org--Name/refs/main``,
``snapshots/<commit>/`` of symlinks into ``blobs/``) from the bundled model folders, under the hub ids of the
models they come from. transformers reads the same cache (offline), and is the reference.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from promptkit import ConfigError, MissingDependencyError, load_models
from promptkit.chat_templates.folders import ModelFolders, hub_cache_folders
from promptkit.cli.main import main
from promptkit.promptlist import PromptList

ROOT = Path(__file__).parents[2]
HF = ROOT / "configs" / "models" / "hf"

#: hub id -> the bundled folder holding that model's tokenizer_config.json (and chat_template.jinja).
MODELS = {
    "Qwen/Qwen2.5-7B-Instruct": "qwen2_5_7b_instruct",
    "meta-llama/Meta-Llama-3-8B-Instruct": "llama3_8b_instruct",
    "meta-llama/Llama-3.1-8B-Instruct": "llama3_1_8b_instruct",
    "google/gemma-2-2b-it": "gemma2_2b_it",
    "mistralai/Mistral-7B-Instruct-v0.3": "mistral_7b_instruct_v0_3",
    "microsoft/Phi-3-mini-4k-instruct": "phi3_mini_4k_instruct",
    "deepseek-ai/DeepSeek-V2-Chat": "deepseek_v2_chat",
    "Qwen/Qwen3-0.6B": "qwen3_0_6b",
}

#: An OpenCompass chat-template model config, written as OpenCompass's own are (hf_qwen2_5_7b_instruct.py and the like).
OPENCOMPASS_CONFIG = """\
from opencompass.models import HuggingFacewithChatTemplate

models = [
    dict(
        type=HuggingFacewithChatTemplate,
        abbr='{abbr}',
        path='{hub_id}',
        max_out_len=4096,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
"""

PROMPT = PromptList(
    [
        {"section": "round", "pos": "begin"},
        dict(role="HUMAN", prompt="What is 2+2?"),
        dict(role="BOT", prompt="4"),
        dict(role="HUMAN", prompt="And 3+3?"),
        dict(role="BOT", prompt=""),
        {"section": "round", "pos": "end"},
    ]
)


def add_repo(cache: Path, hub_id: str, files: dict[str, bytes], revision: str = "main", commit: str = "0" * 40) -> Path:
    """One repo in the hub cache's layout; returns its snapshot folder."""
    repo = cache / ("models--" + hub_id.replace("/", "--"))
    snapshot = repo / "snapshots" / commit
    snapshot.mkdir(parents=True)
    (repo / "blobs").mkdir(exist_ok=True)
    (repo / "refs").mkdir(exist_ok=True)
    (repo / "refs" / revision).write_text(commit, encoding="utf-8")
    for name, data in files.items():
        blob = repo / "blobs" / f"{commit[:8]}-{name}"
        blob.write_bytes(data)
        (snapshot / name).symlink_to(os.path.relpath(blob, snapshot))
    return snapshot


def bundled_files(name: str) -> dict[str, bytes]:
    """A bundled folder's files, and a one-word tokenizer.json so that transformers can load the snapshot."""
    tokenizers = pytest.importorskip("tokenizers")
    files = {file.name: file.read_bytes() for file in sorted((HF / name).iterdir())}
    word = tokenizers.Tokenizer(tokenizers.models.WordLevel({"<unk>": 0}, unk_token="<unk>"))
    files["tokenizer.json"] = word.to_str().encode()
    return files


@pytest.fixture
def hub_cache(tmp_path, monkeypatch) -> Path:
    """HF_HUB_CACHE: a cache holding every model of MODELS (commit 'aaaa…'), transformers kept offline."""
    cache = tmp_path / "hub"
    for index, (hub_id, name) in enumerate(MODELS.items()):
        add_repo(cache, hub_id, bundled_files(name), commit=f"{index:x}" * 40)
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    for name in ("TRANSFORMERS_CACHE", "HF_HOME", "HUGGINGFACE_HUB_CACHE", "PROMPTKIT_MODEL_PATHS"):
        monkeypatch.delenv(name, raising=False)
    return cache


def write_config(folder: Path, hub_id: str, abbr: str = "model") -> Path:
    config = folder / f"{abbr}.py"
    config.write_text(OPENCOMPASS_CONFIG.format(abbr=abbr, hub_id=hub_id), encoding="utf-8")
    return config


@pytest.mark.parametrize("hub_id", sorted(MODELS))
def test_opencompass_chat_config_renders_as_transformers(hub_cache, tmp_path, hub_id):
    """An unmodified OpenCompass chat-template config naming a cached hub id renders as apply_chat_template on that cache."""
    transformers = pytest.importorskip("transformers")
    (model,) = load_models(write_config(tmp_path, hub_id))
    assert Path(model.chat_template.origin).parent == hub_cache / ("models--" + hub_id.replace("/", "--")) / "snapshots"
    tokenizer = transformers.PreTrainedTokenizerFast.from_pretrained(hub_id, cache_dir=str(hub_cache), local_files_only=True)
    expected = tokenizer.apply_chat_template(model.messages(PROMPT), add_generation_prompt=True, tokenize=False)
    assert model.render(PROMPT) == expected
    assert model.path == hub_id  # the request names the model as the config does


def test_revision_picks_the_snapshot_its_ref_names(hub_cache, tmp_path):
    """revision= in the config reads refs/<revision>; without it, refs/main."""
    add_repo(hub_cache, "org/chat", {"tokenizer_config.json": json.dumps({"chat_template": "MAIN"}).encode()}, commit="1" * 40)
    add_repo(hub_cache, "org/chat", {"tokenizer_config.json": json.dumps({"chat_template": "V2"}).encode()}, "v2", "2" * 40)
    config = tmp_path / "chat.py"
    config.write_text(
        "models = [dict(abbr='main', type='HuggingFacewithChatTemplate', path='org/chat'),\n"
        "          dict(abbr='v2', type='HuggingFacewithChatTemplate', path='org/chat', revision='v2')]\n"
    )
    main_model, v2_model = load_models(config)
    assert (main_model.render("Hi"), v2_model.render("Hi")) == ("MAIN", "V2")


def test_hf_home_and_transformers_cache_are_looked_in(tmp_path, monkeypatch):
    """Without HF_HUB_CACHE the cache is HF_HOME/hub; TRANSFORMERS_CACHE is looked in as well."""
    for name in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TRANSFORMERS_CACHE", str(tmp_path / "old"))
    assert hub_cache_folders() == (tmp_path / "home" / "hub", tmp_path / "old")
    add_repo(tmp_path / "old", "org/old", {"chat_template.jinja": b"OLD"})
    add_repo(tmp_path / "home" / "hub", "org/new", {"chat_template.jinja": b"NEW"})
    folders = ModelFolders()
    assert (folders.resolve("org/old") / "chat_template.jinja").read_text() == "OLD"
    assert (folders.resolve("org/new") / "chat_template.jinja").read_text() == "NEW"


def test_hub_id_in_no_cache_is_one_line_with_the_three_ways(hub_cache, tmp_path):
    """A hub id found nowhere: the id, the folders looked in, and the three ways to provide it."""
    config = write_config(tmp_path, "Qwen/Qwen2.5-72B-Instruct", "qwen72")
    with pytest.raises(ConfigError) as caught:
        load_models(config)
    assert str(caught.value) == (
        f"config {config}, model 'qwen72', key 'path': model 'Qwen/Qwen2.5-72B-Instruct' is neither a local folder nor in the "
        f"Hugging Face cache (looked in the working directory and in the model config's folder '{tmp_path}' and in {hub_cache}); "
        "promptkit downloads nothing: give path= a local model folder (relative to the working directory or to the model "
        "config), download the model into the cache (hf download Qwen/Qwen2.5-72B-Instruct), or map it to its "
        "folder with --model-path Qwen/Qwen2.5-72B-Instruct=FOLDER (or PROMPTKIT_MODEL_PATHS)"
    )


def test_missing_revision_is_named(hub_cache):
    """A revision the cache has no ref for is named in the error."""
    with pytest.raises(ConfigError, match=r"^key 'path': model 'Qwen/Qwen2\.5-7B-Instruct' at revision 'v9' is neither a local folder.*\(hf download Qwen/Qwen2\.5-7B-Instruct --revision v9\)"):
        ModelFolders().resolve("Qwen/Qwen2.5-7B-Instruct", "v9")


def test_a_path_that_is_no_hub_id_is_a_missing_folder(hub_cache, tmp_path):
    """./x, ../x, /abs and a/b/c are folders, never looked up in the cache."""
    for name in ("./models/qwen", "../qwen", str(tmp_path / "none"), "a/b/c"):
        with pytest.raises(ConfigError) as caught:
            ModelFolders(tmp_path).resolve(name)
        assert caught.value.message == (
            f"model folder {name!r} does not exist (looked in the working directory and in the model config's folder "
            f"'{tmp_path}'); give path= a local model folder"
        )


def test_model_path_flag_and_environment_map_hub_ids(hub_cache, tmp_path, monkeypatch, capsys):
    """--model-path HUB_ID=FOLDER (repeatable) and PROMPTKIT_MODEL_PATHS map ids to folders; the flag wins, and wins over the cache."""
    mine = tmp_path / "mine"
    shutil.copytree(HF / "chatml", mine)
    other = tmp_path / "other"
    shutil.copytree(HF / "deepseek_v2_chat", other)
    config = write_config(tmp_path, "Qwen/Qwen2.5-7B-Instruct", "qwen")
    dataset = "configs/datasets/mmlu_demo/mmlu_demo_gen.py"
    monkeypatch.setenv("PROMPTKIT_MODEL_PATHS", f"Qwen/Qwen2.5-7B-Instruct={other}{os.pathsep}x/y=/nowhere")
    assert main(["preview", dataset, "--model", str(config), "--color", "never"]) == 0
    assert "Assistant:" in capsys.readouterr().out  # DeepSeek-V2's template, from the mapped folder
    assert main(["preview", dataset, "--model", str(config), "--color", "never", "--model-path", f"Qwen/Qwen2.5-7B-Instruct={mine}"]) == 0
    assert "<|im_start|>assistant" in capsys.readouterr().out  # ChatML, from the folder the flag names
    (model,) = load_models(config, model_paths={"Qwen/Qwen2.5-7B-Instruct": str(mine)})
    assert model.chat_template.origin == str(mine)
    (model,) = load_models(config)
    assert model.chat_template.origin == str(other)
    monkeypatch.delenv("PROMPTKIT_MODEL_PATHS")
    (model,) = load_models(config)
    assert model.chat_template.origin.startswith(str(hub_cache))


def test_model_path_errors_name_the_flag(hub_cache, tmp_path, capsys):
    """A mapping without '=' or to a folder that is not there: one line naming the flag."""
    config = write_config(tmp_path, "org/model")
    assert main(["preview", "configs/datasets/mmlu_demo/mmlu_demo_gen.py", "--model", str(config), "--model-path", "org/model"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "promptkit: error: --model-path 'org/model': write HUB_ID=FOLDER, e.g. Qwen/Qwen2.5-7B-Instruct=/models/qwen2.5-7b-instruct"
    )
    assert main(["preview", "configs/datasets/mmlu_demo/mmlu_demo_gen.py", "--model", str(config), "--model-path", f"org/model={tmp_path}/gone"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"promptkit: error: config {config}, model 'model', key 'path': --model-path maps 'org/model' to '{tmp_path}/gone', "
        "which is not a folder; give the folder that holds the model's tokenizer_config.json"
    )


def test_cached_repo_without_chat_template_names_its_files(hub_cache, tmp_path):
    """A cached base model (no chat template): one line naming the files the snapshot holds."""
    snapshot = add_repo(hub_cache, "org/base", {"config.json": b"{}", "tokenizer_config.json": b'{"bos_token": "<s>"}'})
    with pytest.raises(ConfigError) as caught:
        load_models(write_config(tmp_path, "org/base", "base"))
    assert caught.value.message == (
        f"{snapshot} has no chat template: neither chat_template.jinja nor a 'chat_template' in tokenizer_config.json (it holds "
        "config.json, tokenizer_config.json); give chat_template= in the model config, or use a meta template (ChatModel / CompletionModel)"
    )


def test_malformed_tokenizer_config_names_file_and_position(hub_cache, tmp_path):
    """A cached tokenizer_config.json that is not JSON: the file and the error's line and column."""
    snapshot = add_repo(hub_cache, "org/broken", {"tokenizer_config.json": b'{\n  "chat_template": "x",\n  "bos_token": }\n'})
    with pytest.raises(ConfigError) as caught:
        load_models(write_config(tmp_path, "org/broken", "broken"))
    assert caught.value.message == f"{snapshot / 'tokenizer_config.json'} is not valid JSON: Expecting value (line 3, column 16)"


def test_a_folder_path_never_imports_huggingface_hub():
    """A model whose path is a folder resolves without importing huggingface_hub."""
    code = (
        "import sys\n"
        "from promptkit import ChatTemplateModel\n"
        "ChatTemplateModel(path='configs/models/hf/qwen2_5_7b_instruct').render('Hi')\n"
        "print('huggingface_hub' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout == "False\n"


def test_without_huggingface_hub_the_error_says_what_to_install(hub_cache, monkeypatch):
    """No huggingface_hub: a hub id that is no folder asks for the extra, or --model-path."""
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)
    with pytest.raises(MissingDependencyError) as caught:
        ModelFolders().resolve("Qwen/Qwen2.5-7B-Instruct")
    assert caught.value.message == (
        "model 'Qwen/Qwen2.5-7B-Instruct' is not a local folder, and looking for it in the Hugging Face cache needs the optional "
        "package 'huggingface_hub', which is not installed: install it with pip install 'promptkit[hub]', or map the model to its "
        "folder with --model-path Qwen/Qwen2.5-7B-Instruct=FOLDER (or PROMPTKIT_MODEL_PATHS)"
    )


def test_bundled_chat_template_config_works_from_another_folder(tmp_path, monkeypatch, capsys):
    """A bundled chat-template config finds its model folder beside it, whatever the working directory."""
    monkeypatch.chdir(tmp_path)
    config = ROOT / "configs" / "models" / "chat_template" / "qwen2_5_7b_instruct.py"
    assert main(["preview", str(ROOT / "configs/datasets/mmlu_demo/mmlu_demo_gen.py"), "--model", str(config), "--color", "never"]) == 0
    assert "<|im_start|>assistant" in capsys.readouterr().out


def test_check_template_on_cached_opencompass_configs(hub_cache, tmp_path, capsys):
    """check-template compares an OpenCompass meta-template config with the cached chat template its path names, and
    renders the probes through a cached chat-template config."""
    meta = tmp_path / "hf_qwen_meta.py"
    meta.write_text(
        "from opencompass.models import HuggingFaceCausalLM\n"
        "_meta_template = dict(round=[\n"
        "    dict(role='HUMAN', begin='<|im_start|>user\\n', end='<|im_end|>\\n'),\n"
        "    dict(role='BOT', begin='<|im_start|>assistant\\n', end='<|im_end|>\\n', generate=True)])\n"
        "models = [dict(type=HuggingFaceCausalLM, abbr='qwen-meta', path='Qwen/Qwen2.5-7B-Instruct',\n"
        "              meta_template=_meta_template, max_out_len=100, batch_size=8, run_cfg=dict(num_gpus=1))]\n"
    )
    assert main(["check-template", str(meta)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("model 'qwen-meta': meta template vs chat template (" + str(hub_cache / "models--Qwen--Qwen2.5-7B-Instruct"))
    assert out[1] == "  0 of 4 prompts agree"  # the chat template adds Qwen's default system prompt
    assert main(["check-template", str(write_config(tmp_path, "Qwen/Qwen2.5-7B-Instruct", "qwen"))]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  4 of 4 prompts render",
        "  system_role='auto': the chat template renders a system message as its own turn, so 'error' (system messages go to the template)",
    ]
