"""`promptkit.testing.assert_prompts_match`: a project's test fails when its configs' prompts change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from promptkit.testing import UPDATE_ENV, assert_prompts_match

CONFIGS = Path(__file__).parent / "diff" / "configs"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "base.py"
    shutil.copy(CONFIGS / "base.py", path)
    return path


def test_a_missing_snapshot_fails_with_how_to_write_it(tmp_path, config, monkeypatch):
    """No snapshot yet: the test fails and names the switch that writes it."""
    monkeypatch.delenv(UPDATE_ENV, raising=False)
    with pytest.raises(AssertionError, match=f"^no prompt snapshot in {tmp_path / 'snap'}: run the tests with {UPDATE_ENV}=1 to write it"):
        assert_prompts_match(tmp_path / "snap", config, models=[CONFIGS / "model.py"])


def test_the_update_switch_writes_then_the_check_passes(tmp_path, config, monkeypatch):
    """With the environment switch the snapshot is written; without it, the same configs pass."""
    monkeypatch.setenv(UPDATE_ENV, "1")
    assert_prompts_match(tmp_path / "snap", config, models=[CONFIGS / "model.py"])
    monkeypatch.setenv(UPDATE_ENV, "0")
    assert_prompts_match(tmp_path / "snap", config, models=[CONFIGS / "model.py"])


def test_a_changed_prompt_fails_with_the_diff(tmp_path, config):
    """The shot answer changed after the snapshot: the failure's message is the diff of that piece."""
    assert_prompts_match(tmp_path / "snap", config, update=True)
    shutil.copy(CONFIGS / "shot_answer.py", config)
    with pytest.raises(AssertionError) as failure:
        assert_prompts_match(tmp_path / "snap", config, update=False)
    message = str(failure.value)
    assert message.startswith(f"the prompts differ from the snapshot in {tmp_path / 'snap'} (to accept them: {UPDATE_ENV}=1):\n")
    assert "\nsums/0: shot 1 answer\n  shot 1 answer: [-6-]{+six+}\nsums/1: shot 1 answer\n" in message


def test_a_snapshot_of_other_configs_fails(tmp_path, config):
    """The test now names a model the snapshot does not pin: it fails rather than checking something else."""
    assert_prompts_match(tmp_path / "snap", config, update=True)
    with pytest.raises(AssertionError, match="pins other configs"):
        assert_prompts_match(tmp_path / "snap", config, models=[CONFIGS / "model.py"], update=False)
