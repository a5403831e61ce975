"""Prompt snapshots: `promptkit snapshot write|check`, a config that changes in one piece, and folders of another format."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from promptkit.cli.main import main
from promptkit.snapshots import MANIFEST, SNAPSHOT_FORMAT, record_keys

CONFIGS = Path(__file__).parent / "diff" / "configs"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder holding base.py and model.py, as the current folder."""
    for name in ("base.py", "model.py"):
        shutil.copy(CONFIGS / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def snapshot(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["snapshot", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_write_pins_one_file_per_dataset_and_model(project, capsys):
    """`write` prints what it pinned; the folder holds the manifest and the records with their spans."""
    assert snapshot(capsys, "write", "snap", "base.py", "--model", "model.py") == (0, "snap: 2 prompts of 1 config(s) x 1 model(s) pinned\n", "")
    manifest = json.loads((project / "snap" / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["snapshot_format"] == SNAPSHOT_FORMAT and manifest["record_keys"] == record_keys()
    assert (manifest["configs"], manifest["models"], manifest["files"]) == (["../base.py"], ["../model.py"], {"sums/tiny-chat.jsonl": 2})
    records = [json.loads(line) for line in (project / "snap" / "sums" / "tiny-chat.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["index"] for r in records] == [0, 1] and all(r["spans"] for r in records)


def test_check_of_unchanged_configs_exits_0(project, capsys):
    """Nothing changed: one line, exit 0."""
    snapshot(capsys, "write", "snap", "base.py", "--model", "model.py")
    assert snapshot(capsys, "check", "snap") == (0, "snap: 2 prompts compared: 2 identical, 0 changed\n", "")


@pytest.mark.parametrize(
    ("changed", "variant", "line"),
    [
        ("base.py", "system.py", "  system prompt: Answer with a number{+ only+}."),
        ("base.py", "shot_answer.py", "  shot 1 answer: [-6-]{+six+}"),
        ("base.py", "query.py", "  query: [-Q-]{+Question+}: 1+1?"),
        ("model.py", "model_wrapper.py", "  meta-template wrapper before shot 0: </sys>↵[-<u>-]{+<user>+}"),
    ],
)
def test_check_reports_the_one_piece_that_changed(project, capsys, changed, variant, line):
    """A config edited in one piece after the snapshot: check exits 1 and reports exactly that piece."""
    snapshot(capsys, "write", "snap", "base.py", "--model", "model.py")
    shutil.copy(CONFIGS / variant, project / changed)
    status, out, _ = snapshot(capsys, "check", "snap")
    assert status == 1
    lines = out.splitlines()
    assert lines[:2] == ["--- A: snapshot snap", "+++ B: rendered now"]
    assert lines[3] == line
    kinds = {"system.py": "system prompt", "shot_answer.py": "shot answer", "query.py": "query", "model_wrapper.py": "meta-template wrapper"}
    assert lines[-1] == f"2 prompts compared: 0 identical, 2 changed ({kinds[variant]} 2)"


def test_check_html_writes_the_diff_page(project, capsys):
    """check --html writes the page of the diff beside the report."""
    snapshot(capsys, "write", "snap", "base.py", "--model", "model.py")
    shutil.copy(CONFIGS / "system.py", project / "base.py")
    assert snapshot(capsys, "check", "snap", "--html", "diff.html")[0] == 1
    assert "<ins> only</ins>" in (project / "diff.html").read_text(encoding="utf-8")


def test_write_again_replaces_the_pinned_files(project, capsys):
    """Writing a snapshot over another removes the files of datasets and models it no longer pins."""
    snapshot(capsys, "write", "snap", "base.py", "--model", "model.py")
    shutil.copy(CONFIGS / "renamed.py", project / "renamed.py")
    assert snapshot(capsys, "write", "snap", "renamed.py")[0] == 0
    assert sorted(str(p.relative_to(project / "snap")) for p in (project / "snap").rglob("*") if p.is_file()) == [MANIFEST, "sums_v2/no-model.jsonl"]


def edit_manifest(project: Path, **changes: object) -> None:
    path = project / "snap" / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest.update(changes)
    path.write_text(json.dumps(manifest), encoding="utf-8")


def test_a_snapshot_of_another_record_format_says_what_changed(project, capsys):
    """Records of the snapshot had a key this promptkit no longer writes and lacked one it does: both named, with the fix."""
    snapshot(capsys, "write", "snap", "base.py", "--model", "model.py")
    keys = record_keys()
    edit_manifest(project, promptkit="0.0.9", record_keys=[key for key in keys if key != "n_shots"] + ["overrides"])
    assert snapshot(capsys, "check", "snap")[::2] == (
        1,
        "promptkit: error: snap was written by promptkit 0.0.9, whose records have another format: records now carry 'n_shots', "
        "which the snapshot's lack; they no longer carry 'overrides'; write the snapshot again "
        "(promptkit snapshot write snap base.py --model model.py)\n",
    )


def test_a_snapshot_of_another_snapshot_format_is_refused(project, capsys):
    """A manifest of another snapshot format: refused, saying which formats."""
    snapshot(capsys, "write", "snap", "base.py", "--model", "model.py")
    edit_manifest(project, promptkit="0.0.9", snapshot_format=0)
    assert snapshot(capsys, "check", "snap")[2] == (
        f"promptkit: error: snap was written by promptkit 0.0.9 in snapshot format 0; this promptkit reads format {SNAPSHOT_FORMAT}: "
        "write the snapshot again (promptkit snapshot write snap base.py --model model.py)\n"
    )


def test_a_folder_that_is_no_snapshot_is_refused(project, capsys):
    """check of a folder without a manifest, write into a folder of other files: one line each, nothing written."""
    (project / "other").mkdir()
    (project / "other" / "notes.txt").write_text("mine", encoding="utf-8")
    assert snapshot(capsys, "check", "other")[2] == (
        "promptkit: error: other is not a prompt snapshot (it has no snapshot.json); write one with `promptkit snapshot write other CONFIG…`\n"
    )
    assert snapshot(capsys, "write", "other", "base.py")[2] == (
        "promptkit: error: other exists and is not a prompt snapshot; give a new or empty folder (nothing was written)\n"
    )
    assert [p.name for p in (project / "other").iterdir()] == ["notes.txt"]


def test_a_chat_template_changed_under_the_same_name_fails_the_check(project, capsys):
    """The model folder's chat template is edited, the model config is not: check reports the model's wrapper."""
    folder = project / "hf_tiny"
    folder.mkdir()
    config = folder / "tokenizer_config.json"

    def template(header: str) -> None:
        source = "{% for m in messages %}" + header + "{{ m.content }}\n{% endfor %}{% if add_generation_prompt %}" + header.replace("m.role", "'assistant'") + "{% endif %}"
        config.write_text(json.dumps({"chat_template": source, "eos_token": "</s>"}), encoding="utf-8")

    template("<{{ m.role }}>")
    (project / "hf_model.py").write_text("models = [dict(abbr='tiny-hf', type='HuggingFacewithChatTemplate', path='hf_tiny')]\n", encoding="utf-8")
    snapshot(capsys, "write", "snap", "base.py", "--model", "hf_model.py")
    template("<|{{ m.role }}|>")
    status, out, _ = snapshot(capsys, "check", "snap")
    assert status == 1
    assert out.splitlines()[2:5] == [
        "sums/0: meta-template wrapper (6 places) (inputs changed: chat_template, tokenizer)",
        "  meta-template wrapper before system prompt: [-<user>-]{+<|user|>+}",
        "  meta-template wrapper before shot 0 answer: ↵↵[-<assistant>-]{+<|assistant|>+}",
    ]
