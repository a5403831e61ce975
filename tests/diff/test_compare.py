"""`diff_records`: pairing rules, pieces on one side only, roles, record fields; the inline diff's runs."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from promptkit.diff import RecordSet, diff_records
from promptkit.diff.text import diff_runs, piece_diff


def record(prompt, spans=None, **fields):
    out = {"dataset": "d", "model": "m", "index": 0, "mode": "gen", "prompt": prompt, **fields}
    if spans is not None:
        out["spans"] = [dict(zip(("piece", "start", "end", "message"), span, strict=False)) for span in spans]
    return out


def chat(system: str | None, query: str, system_role: str = "system"):
    messages = ([{"role": system_role, "content": system}] if system is not None else []) + [{"role": "user", "content": query}]
    spans = ([("system", 0, len(system), 0)] if system is not None else []) + [("query", 0, len(query), len(messages) - 1)]
    return record(messages, spans)


def test_a_system_prompt_added_is_one_change_with_its_wrapper():
    """A completion string that gains a system turn: one 'system prompt' change holding the wrapper around it."""
    a = record("<u>hi</u>", [("wrapper", 0, 3), ("query", 3, 5), ("wrapper", 5, 9)])
    b = record("<s>be brief</s><u>hi</u>", [("wrapper", 0, 3), ("system", 3, 11), ("wrapper", 11, 18), ("query", 18, 20), ("wrapper", 20, 24)])
    report = diff_records(RecordSet("A", [a]), RecordSet("B", [b]))
    [change] = report.changed[0].changes
    assert (change.label, change.kind, change.note) == ("system prompt", "system prompt", "only in B, shown with the wrapper around it")
    assert piece_diff(change) == "(only in B, shown with the wrapper around it) {+<s>be brief</s>+}<u>"


def test_chat_pieces_on_one_side_and_roles():
    """Chat messages: a system message only in B is reported as such; a system text moved into a user message notes the role."""
    report = diff_records(RecordSet("A", [chat(None, "hi")]), RecordSet("B", [chat("be brief", "hi")]))
    assert [(c.label, c.before, c.after) for c in report.changed[0].changes] == [("system prompt", None, "be brief")]
    report = diff_records(RecordSet("A", [chat("be brief", "hi")]), RecordSet("B", [chat("be brief", "hi", system_role="user")]))
    assert [(c.label, c.note) for c in report.changed[0].changes] == [("system prompt", "role system → user")]


def test_files_of_the_same_two_models_pair_by_model_and_id():
    """Both sides hold models m1 and m2: each model's prompt is paired with its own, not reported as a repeated id."""
    a = [record("x", model="m1"), record("y", model="m2")]
    b = [record("x", model="m1"), record("z", model="m2")]
    report = diff_records(RecordSet("A", a), RecordSet("B", b))
    assert (report.identical, [p.id for p in report.changed]) == (1, ["d/0"])


def test_record_fields_are_compared_only_when_asked():
    """A changed gold answer is no prompt change for diff; a snapshot (fields=True) reports it as a record field."""
    a, b = RecordSet("A", [record("x", gold="4")]), RecordSet("B", [record("x", gold="5")])
    assert not diff_records(a, b).differs
    [change] = diff_records(a, b, fields=True).changed[0].changes
    assert (change.label, change.kind, change.before, change.after) == ("record field 'gold'", "record field", '"4"', '"5"')


def test_provenance_names_the_inputs_that_changed():
    """Provenance hashes that differ are named with the prompt: which input changed."""
    a = record("x", fingerprint="sha256:1", provenance={"template": "t", "chat_template": "c1", "row": "r"})
    b = record("y", fingerprint="sha256:2", provenance={"template": "t", "chat_template": "c2", "row": "r"})
    assert diff_records(RecordSet("A", [a]), RecordSet("B", [b])).changed[0].inputs == ("chat_template",)


def test_equal_fingerprints_are_identical_prompts():
    """Two records with the same fingerprint are identical without their texts being compared."""
    a, b = record("x", fingerprint="sha256:1"), record("x", fingerprint="sha256:1")
    assert diff_records(RecordSet("A", [a]), RecordSet("B", [b])).identical == 1


@given(st.text(alphabet="ab \n<|>.", max_size=40), st.text(alphabet="ab \n<|>.", max_size=40))
def test_the_runs_rebuild_both_texts(before, after):
    """The equal and deleted runs are the text before, the equal and inserted runs the text after."""
    runs = diff_runs(before, after)
    assert "".join(text for tag, text in runs if tag != "insert") == before
    assert "".join(text for tag, text in runs if tag != "delete") == after
