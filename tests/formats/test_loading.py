"""Format loaders: rows and their columns, embedded shots, splits, defaults, calibration and request fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from promptkit import ConfigError, DatasetError, PromptTemplate, RetrieverError, build_dataset, load_datasets

GPT4O = Path(__file__).parents[2] / "configs" / "models" / "gpt_4o_api.py"


def text(role: str, value: str) -> dict:
    return {"role": role, "content": [{"type": "text", "text": value}]}


SHOT = {"messages": [text("user", "1 + 1?")], "references": ["2"]}
QA = {"schema_version": "v1", "id": "a", "messages": [text("user", "2 + 2?")], "references": ["4"], "few_shot_examples": [SHOT]}
MC = {
    "schema_version": "v1",
    "id": "b",
    "question_type": "multiple-choice",
    "messages": [text("user", "Pick {answer}")],
    "options": [{"id": "A", "content": "x"}, {"id": "B", "content": "y"}],
    "references": ["B"],
    "few_shot_examples": [SHOT],
    "raw_assets": {"image": ["secret.jpg"]},
    "custom_field": 7,
}


def test_standard_rows_expose_natural_columns(render_records):
    """A sample's row has question, options, choices, letters, answer, task_type (from question_type) and its extras."""
    row = render_records("StandardSampleDataset", [QA, MC]).test_rows[1]
    assert row["question"] == "Pick {answer}"
    assert row["options"] == [{"id": "A", "content": "x"}, {"id": "B", "content": "y"}]
    assert (row["choices"], row["letters"], row["answer"], row["task_type"]) == ("A. x\nB. y", "A,B", "B", "multiple-choice")
    assert row["extra"] == {"custom_field": 7} and "raw_assets" not in row


def test_identical_embedded_shots_are_one_pool_row(render_records):
    """Two records with the same few-shot example share one row of the few_shot split."""
    renderer = render_records("StandardSampleDataset", [QA, MC])
    assert len(renderer.pool) == 1 and renderer.ice_indices == [[0], [0]]


def test_message_text_stays_literal_and_answer_is_masked(render_records):
    """'{answer}' in a message is text, and the item's own answer never shows; the shot's answer does."""
    prompt = render_records("StandardSampleDataset", [MC], GPT4O).render(0)[0].prompt
    assert prompt == [
        {"role": "user", "content": "1 + 1?"},
        {"role": "assistant", "content": "2"},
        {"role": "user", "content": "Pick {answer}\nA. x\nB. y"},
    ]


def test_ppl_mode_scores_each_label_and_its_calibration(render_records):
    """With PPLInferencer over the defaults, each label fills the BOT turn, and calib prompts follow per label."""
    record = {**MC, "unconditioned_input": "Answer:"}
    renderer = render_records(
        "StandardSampleDataset",
        [record],
        GPT4O,
        reader_cfg=dict(input_columns=["question"], output_column="answer", train_split="few_shot"),
        infer_cfg=dict(
            ice_template=dict(type="MessagesTemplate"),
            prompt_template=dict(type="MessagesTemplate"),
            retriever=dict(type="EmbeddedShotsRetriever"),
            inferencer=dict(type="PPLInferencer", labels=["A", "B"]),
        ),
    )
    records = [p.to_record() for p in renderer.render(0)]
    assert [(r["mode"], r["label"]) for r in records] == [("ppl", "A"), ("ppl", "B"), ("calib", "A"), ("calib", "B")]
    assert records[2]["prompt"][-2:] == [{"role": "user", "content": "Answer:\nA. x\nB. y"}, {"role": "assistant", "content": "A"}]


def test_calib_blank_derives_calibration_from_the_template(render_records):
    """calib_blank=['question'] renders a calib prompt with the question emptied, shots and options kept."""
    task = {"task_id": "t", "category": "summary", "prompt": "Summarize: long text", "targets": ["short"], "metric_name": "f1", "post_process": "none",
            "few_shot_examples": [{"prompt": "Summarize: a", "completion": "b"}]}
    gen, calib = render_records("TaskSpecDataset", [task], calib_blank=["question"]).render(0)
    assert (gen.prompt, calib.prompt, calib.mode) == ("Summarize: a b\n\nSummarize: long text", "Summarize: a b\n\n", "calib")
    gen, calib = render_records("StandardSampleDataset", [MC], GPT4O, calib_blank=["question"]).render(0)
    assert calib.prompt[-1] == {"role": "user", "content": "A. x\nB. y"}


def test_ordinary_prompt_template_uses_format_rows(render_records):
    """A plain PromptTemplate config renders format rows through their columns ({question}, {choices}, {letters})."""
    renderer = render_records(
        "StandardSampleDataset",
        [MC],
        reader_cfg=dict(input_columns=["question"], output_column="answer"),
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template="Q: {question}\n{choices}\nOne of {letters}: {answer}"),
            retriever=dict(type="ZeroRetriever"),
            inferencer=dict(type="GenInferencer"),
        ),
    )
    assert renderer.render(0)[0].prompt == "Q: Pick {answer}\nA. x\nB. y\nOne of A,B: "


def test_embedded_shots_need_the_few_shot_split(render_records):
    """EmbeddedShotsRetriever refuses another pool: its ids index the few_shot split."""
    renderer = render_records(
        "StandardSampleDataset",
        [QA],
        reader_cfg=dict(input_columns=["question"], output_column="answer", train_split="train"),
        infer_cfg=dict(ice_template=dict(type="MessagesTemplate"), prompt_template=dict(type="MessagesTemplate"),
                       retriever=dict(type="EmbeddedShotsRetriever"), inferencer=dict(type="GenInferencer")),
    )
    with pytest.raises(RetrieverError, match="set reader_cfg train_split='few_shot' \\(got 'train'\\) and no train_range"):
        renderer.render(0)


def test_split_files_and_reserved_split_name(tmp_path, write_jsonl):
    """path may map splits to files; 'few_shot' is reserved for the embedded examples."""
    path = write_jsonl([QA])
    spec = build_dataset(dict(abbr="s", type="StandardSampleDataset", path=dict(test=str(path), dev=str(path))))
    splits = spec.loader.load()
    assert [len(splits.get(name)) for name in ("test", "dev", "few_shot")] == [1, 1, 1]
    with pytest.raises(ConfigError, match="the split name 'few_shot' is reserved"):
        build_dataset(dict(abbr="s", type="StandardSampleDataset", path=dict(test=str(path), few_shot=str(path))))


def test_format_files_must_be_jsonl(tmp_path):
    """A .json file for a format dataset is an error naming the file."""
    path = tmp_path / "x.json"
    path.write_text("[]", encoding="utf-8")
    spec = build_dataset(dict(abbr="s", type="XpertFormatDataset", path=str(path)))
    with pytest.raises(DatasetError, match="a xpert dataset is a JSON Lines file"):
        spec.loader.load()


def test_bundled_format_configs_use_the_defaults():
    """The bundled format configs give no reader_cfg/infer_cfg; the loader's defaults fill them in."""
    root = Path(__file__).parents[2] / "configs" / "datasets"
    [standard] = load_datasets(root / "standard_sample_demo" / "standard_sample_demo_gen.py")
    assert type(standard.prompt_template).__name__ == "MessagesTemplate" and standard.reader.train_split == "few_shot"


def test_tools_are_request_fields_of_chat_records_and_of_records_without_a_model(render_records):
    """tools/tool_choice go into the chat model's record, and into the record of a render without a model (nothing writes them)."""
    record = {**QA, "tools": [{"type": "function", "function": {"name": "f"}}], "tool_choice": {"type": "function", "function": {"name": "f"}}}
    chat = render_records("StandardSampleDataset", [record], GPT4O).render(0)[0]
    assert chat.to_record()["tool_choice"] == {"type": "function", "function": {"name": "f"}}
    bare = render_records("StandardSampleDataset", [record]).render(0)[0]
    assert bare.request_fields == {
        "tools": [{"type": "function", "function": {"name": "f"}}],
        "tool_choice": {"type": "function", "function": {"name": "f"}},
        "sample": {"references": ["4"]},
    }


def test_import_promptkit_does_not_compile_the_format_schemas():
    """The formats' pydantic models are compiled on first use, not by `import promptkit` (runners import it for speed)."""
    import subprocess
    import sys

    code = "import sys, promptkit; print('pydantic' in sys.modules, 'promptkit.formats.standard' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False False\n"


def test_mm_prompt_template_uses_the_media_columns(render_records):
    """An MMPromptTemplate config renders an XpertFormat row's `images` column: one image part per path."""
    record = {"id": "v", "query": "What is shown?", "response": "a cat", "files": [{"path": "images/cat.jpg", "type": "image"}]}
    renderer = render_records(
        "XpertFormatDataset",
        [record],
        GPT4O,
        reader_cfg=dict(input_columns=["question", "images"], output_column="answer"),
        infer_cfg=dict(
            prompt_template=dict(type="MMPromptTemplate", template=dict(round=[dict(role="HUMAN", prompt_mm={
                "text": {"type": "text", "text": "{question}"}, "image": {"type": "image_url", "image_url": {"url": "{images}"}}})])),
            retriever=dict(type="ZeroRetriever"),
            inferencer=dict(type="GenInferencer"),
        ),
    )
    assert renderer.render(0)[0].prompt == [
        {"role": "user", "content": [{"type": "text", "text": "What is shown?"}, {"type": "image_url", "image_url": {"url": "images/cat.jpg"}}]}
    ]


def test_embedded_shots_work_with_any_ice_template(render_records):
    """A string ice_template renders a sample's own examples through their columns, before the question."""
    record = {**QA, "few_shot_examples": [SHOT, {"messages": [text("user", "3 + 3?")], "references": ["6"]}]}
    renderer = render_records(
        "StandardSampleDataset",
        [record],
        reader_cfg=dict(input_columns=["question"], output_column="answer", train_split="few_shot"),
        infer_cfg=dict(
            ice_template=dict(type="PromptTemplate", template="Q: {question}\nA: {answer}"),
            prompt_template=dict(type="PromptTemplate", template="</E>Q: {question}\nA: {answer}", ice_token="</E>"),
            retriever=dict(type="EmbeddedShotsRetriever", ice_separator="\n\n", ice_eos_token="\n\n"),
            inferencer=dict(type="GenInferencer"),
        ),
    )
    assert renderer.render(0)[0].prompt == "Q: 1 + 1?\nA: 2\n\nQ: 3 + 3?\nA: 6\n\nQ: 2 + 2?\nA: "


def test_history_column_holds_the_earlier_turns(render_records):
    """A dialogue sample's row has the turns before the last user message as history (system left out)."""
    record = {"schema_version": "v1", "id": "d", "messages": [text("system", "s"), text("user", "a"), text("assistant", "b"), text("user", "c")]}
    row = render_records("StandardSampleDataset", [record]).test_rows[0]
    assert (row["question"], row["history"]) == ("c", [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}])
