"""`promptkit check-template`: a meta template against the model folder's own chat template."""

from __future__ import annotations

from pathlib import Path

import pytest

from promptkit.cli.main import main
from promptkit.meta_templates.conformance import first_divergence

ROOT = Path(__file__).parents[2]


@pytest.fixture(autouse=True)
def at_repository_root(monkeypatch):
    """Bundled configs give model folders relative to the repository root."""
    monkeypatch.chdir(ROOT)


def test_agreeing_twin_exits_zero(capsys):
    """Llama-3's meta template and chat template agree on every probe conversation."""
    assert main(["check-template", "configs/models/llama3_8b_instruct.py"]) == 0
    assert capsys.readouterr().out == (
        "model 'llama-3-8b-instruct': meta template vs chat template (configs/models/hf/llama3_8b_instruct)\n  4 of 4 prompts agree\n"
        "  system_role='auto': the chat template renders a system message as its own turn, so 'error' (system messages go to the template)\n"
    )


def test_divergence_shows_offset_and_both_continuations(capsys):
    """DeepSeek-V2's generation prompt has no space after 'Assistant:': offset and both contexts are shown, exit 1."""
    assert main(["check-template", "configs/models/chat_template/deepseek_v2_chat_meta.py"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "model 'deepseek-v2-chat': meta template vs chat template (configs/models/hf/deepseek_v2_chat)",
        "  0 of 4 prompts agree",
        "  system_role='auto': the chat template renders a system message as its own turn, so 'error' (system messages go to the template)",
        "  first divergence: one user turn, character 50",
        "    both have:        ...'▁sentence｜>User: Question 1?\\n\\nAssistant:'",
        "    meta template:    ' '...",
        "    chat template:    ''...",
    ]


def test_template_that_raises_is_reported(capsys):
    """Gemma-2's template refuses the system probe: the report quotes the template's error."""
    assert main(["check-template", "configs/models/gemma2_2b_it.py"]) == 1
    out = capsys.readouterr().out
    assert "  2 of 4 prompts agree\n  system_role='auto': the chat template raises on a system message, so 'merge_into_first_user' (the system text opens the first user message)\n  first divergence: system + user: the chat template (configs/models/hf/gemma2_2b_it) raised: System role not supported" in out


def test_dataset_prompts_are_compared(capsys):
    """With a dataset config its rows are compared: Mistral's template puts a space before the answer of each shot."""
    assert main(["check-template", "configs/models/mistral_7b_instruct_v0_3.py", "configs/datasets/mmlu_demo/mmlu_demo_gen.py", "--count", "2"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1:5] == [
        "  0 of 2 prompts agree",
        "  system_role='auto': the chat template renders a system message inside the first user turn, so 'error' (system messages go to the template)",
        "  first divergence: mmlu_demo_5shot_gen row 0, character 235",
        "    both have:        ...'s²\\nC. 5 m/s²\\nD. 100 m/s²\\nAnswer: [/INST]'",
    ]


def test_chat_template_model_config_renders_the_probes(capsys):
    """A chat-template model config has no meta template to compare: its template renders the probes, and the system probe is said."""
    assert main(["check-template", "configs/models/chat_template/llama3_8b_instruct.py"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "model 'llama-3-8b-instruct-hf': chat template (configs/models/hf/llama3_8b_instruct)",
        "  4 of 4 prompts render",
        "  system_role='auto': the chat template renders a system message as its own turn, so 'error' (system messages go to the template)",
    ]


def test_model_without_local_folder_is_refused(capsys, tmp_path, monkeypatch):
    """A meta-template config whose path is a hub id in no cache: the error says where it looked and the ways to provide it."""
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    monkeypatch.delenv("TRANSFORMERS_CACHE", raising=False)
    assert main(["check-template", "configs/models/internlm2_chat_7b.py"]) == 1
    assert (
        "model 'internlm/internlm2-chat-7b' is neither a local folder nor in the Hugging Face cache (looked in the working "
        f"directory and in the model config's folder 'configs/models' and in {tmp_path}); promptkit downloads nothing: give "
        "path= a local model folder (relative to the working directory or to the model config), download the model into the "
        "cache (hf download internlm/internlm2-chat-7b), or map it to its folder with --model-path "
        "internlm/internlm2-chat-7b=FOLDER (or PROMPTKIT_MODEL_PATHS)"
    ) in capsys.readouterr().err


@pytest.mark.parametrize(("a", "b", "offset"), [("abc", "abc", None), ("abc", "abd", 2), ("ab", "abc", 2), ("", "x", 0)])
def test_first_divergence(a, b, offset):
    """The first differing offset, or the shorter length when one is a prefix of the other."""
    assert first_divergence(a, b) == offset


def test_render_spans_flag_adds_spans(capsys):
    """`render --spans` adds each piece's span; slicing the prompt by the query span gives the question."""
    import json

    assert main(["render", "configs/datasets/chat_fewshot_demo/chat_fewshot_demo_gen.py", "--model", "configs/models/llama3_8b_instruct.py",
                 "--indices", "0", "--spans"]) == 0
    record = json.loads(capsys.readouterr().out)
    spans = {span["piece"]: span for span in record["spans"] if span["piece"] != "wrapper"}
    assert record["prompt"][spans["query"]["start"] : spans["query"]["end"]] == "1+1=?"
    assert record["prompt"][spans["shot[1].answer"]["start"] : spans["shot[1].answer"]["end"]] == "6"
    assert spans["answer_slot"]["start"] == len(record["prompt"])
