"""AdapterDataset: record_to_row from the config, and EvalScope MultiChoice placeholders {choices} and {letters}."""

from __future__ import annotations

from pathlib import Path

import pytest

from promptkit import ConfigError, DatasetError, Renderer, build_dataset, load_datasets

CONFIG = Path(__file__).parents[2] / "configs" / "datasets" / "adapter_demo" / "adapter_demo_gen.py"


def test_bundled_adapter_config_formats_choices_and_letters():
    """The bundled config's record_to_row maps MMLU-Pro-like records; the template shows the derived placeholders."""
    [dataset] = load_datasets(CONFIG)
    prompt = Renderer(dataset).render(0)[0].prompt
    assert "LETTER is one of A,B,C,D." in prompt
    assert prompt.endswith("Question:\nWhich data structure uses first-in, first-out order?\nOptions:\nA. Stack\nB. Queue\nC. Tree\nD. Graph\n")


def test_record_to_row_errors_name_the_record(write_jsonl):
    """An exception in record_to_row becomes a DatasetError naming the file and the record."""
    path = write_jsonl([{"q": "a"}, {"x": 1}])
    spec = build_dataset(dict(abbr="a", type="AdapterDataset", path=str(path), record_to_row=lambda r: {"question": r["q"]},
                              reader_cfg=dict(input_columns=["question"]), infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="{question}"),
                              retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))))
    with pytest.raises(DatasetError) as caught:
        len(Renderer(spec))
    assert str(caught.value).endswith(f"file {path}: record_to_row failed on record 2 (counting from 1): KeyError: 'q'")


def test_without_record_to_row_records_are_rows(write_jsonl):
    """Records pass through as rows; a list of option texts under 'choices' still gets the placeholders."""
    path = write_jsonl([{"question": "2+2?", "choices": ["3", "4"], "answer": "B"}])
    spec = build_dataset(dict(abbr="a", type="AdapterDataset", path=str(path), reader_cfg=dict(input_columns=["question"], output_column="answer"),
                              infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="{question}\n{choices}\n({letters}) {answer}"),
                                             retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))))
    renderer = Renderer(spec)
    assert renderer.render(0)[0].prompt == "2+2?\nA. 3\nB. 4\n(A,B) "
    assert renderer.test_rows[0]["options"] == [{"id": "A", "content": "3"}, {"id": "B", "content": "4"}]


def test_calib_blank_renders_a_calibration_prompt_per_row(write_jsonl):
    """calib_blank=['question'] adds a calib prompt with the question emptied and the choices kept."""
    path = write_jsonl([{"question": "2+2?", "choices": ["3", "4"], "answer": "B"}])
    spec = build_dataset(dict(abbr="a", type="AdapterDataset", path=str(path), calib_blank=["question"],
                              reader_cfg=dict(input_columns=["question"], output_column="answer"),
                              infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="Q: {question}\n{choices}\nA: {answer}"),
                                             retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))))
    gen, calib = Renderer(spec).render(0)
    assert (gen.mode, gen.prompt) == ("gen", "Q: 2+2?\nA. 3\nB. 4\nA: ")
    assert (calib.mode, calib.prompt) == ("calib", "Q: \nA. 3\nB. 4\nA: ")
    with pytest.raises(ConfigError, match="calib_blank must be a list of column names \\(got 'question'\\)"):
        build_dataset(dict(abbr="a", type="AdapterDataset", path=str(path), calib_blank="question",
                           reader_cfg=dict(input_columns=["question"]), infer_cfg=dict(prompt_template=dict(type="PromptTemplate", template="{question}"),
                           retriever=dict(type="ZeroRetriever"), inferencer=dict(type="GenInferencer"))))
