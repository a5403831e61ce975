"""BFCLTemplate and BFCLV3FunctionCallInferencer: BFCL's turns, its prompt style and held-out functions, as a chat model receives them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from promptkit import BFCLTemplate, BFCLV3FunctionCallInferencer, ChatModel, ConfigError, Renderer, TemplateError, load_datasets
from promptkit.cli.main import main

ADD = {"name": "add_note", "description": "Add a note.", "parameters": {"type": "dict", "properties": {"title": {"type": "string", "description": "Title."}}}}
DELETE = {"name": "delete_note", "description": "Delete a note.", "parameters": {"type": "dict", "properties": {}}}
ENTRY = {
    "id": "multi_turn_miss_func_0",
    "question": [[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "List my notes."}], [], [{"role": "user", "content": "Anything left?"}]],
    "function": [ADD],
    "missed_function": {"1": [DELETE]},
    "ground_truth": [["list_notes()"], ["delete_note(title='x')"], ["list_notes()"]],
}


def messages(template: BFCLTemplate, row: dict, turn: int, replies: list[str]) -> list[dict]:
    """What a chat model receives for ``turn``."""
    return ChatModel(abbr="m").render(template.render_turn(row, turn, replies=replies), "gen")


def test_a_later_turn_holds_the_earlier_turns_and_the_models_replies():
    """Turn 2: turn 0, reply 0, the held-out turn's holdout_message, reply 1, turn 2; turns counted from question."""
    template = BFCLTemplate(holdout_message="More functions now.")
    assert template.count_turns(ENTRY) == 3
    assert messages(template, ENTRY, 2, ["r0", "r1"]) == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "List my notes."},
        {"role": "assistant", "content": "r0"},
        {"role": "user", "content": "More functions now."},
        {"role": "assistant", "content": "r1"},
        {"role": "user", "content": "Anything left?"},
    ]


def test_the_held_out_functions_join_the_row_from_their_turn_on():
    """row_at: turn 0 has the row's functions; turns 1 and 2 those plus the held-out one (function calling only)."""
    template = BFCLTemplate(holdout_message="More functions now.")
    assert template.row_at(ENTRY, 0)["function"] == [ADD]
    assert template.row_at(ENTRY, 2)["function"] == [ADD, DELETE]
    assert BFCLTemplate(system_prompt="F: {functions}", holdout_message="m").row_at(ENTRY, 2)["function"] == [ADD]


def test_prompt_style_writes_the_functions_into_the_first_system_message():
    """{functions} ← the processed documents in Python's notation, the row's system text after a blank line; the held-out
    turn is the held-out documents, a newline and holdout_message."""
    template = BFCLTemplate(system_prompt="F: {functions} {literal}", holdout_message="More functions now.")
    got = messages(template, ENTRY, 1, ["r0"])
    docs = [{**ADD, "description": "Add a note. Note that the provided function is in Python 3 syntax."}]
    assert got[0] == {"role": "system", "content": f"F: {docs} {{literal}}\n\nBe brief."}
    assert got[-1] == {"role": "user", "content": f"{[DELETE]}\nMore functions now."}


def test_single_turn_rows_render_their_first_turn_without_replies():
    """A row whose id is not multi-turn has one turn, whatever its question holds."""
    row = {"id": "simple_0", "question": [[{"role": "user", "content": "Hi"}], [{"role": "user", "content": "unused"}]], "function": []}
    template = BFCLTemplate()
    assert template.count_turns(row) == 1
    assert ChatModel(abbr="m").render(template.render(row), "gen") == [{"role": "user", "content": "Hi"}]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: BFCLTemplate(holdout_message=None).render_turn(ENTRY, 1, replies=["r0"]),
         "BFCL row 'multi_turn_miss_func_0' holds functions out until turn 1, whose user message is holdout_message: set "
         "BFCLV3FunctionCallInferencer(holdout_message=...) (bfcl-eval's DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC)"),
        (lambda: BFCLTemplate(holdout_message="m").render_turn(ENTRY, 2, replies=["r0"]),
         "turn 2 of BFCL row 'multi_turn_miss_func_0' follows the model's replies to turns 0-1; 1 given"),
        (lambda: BFCLTemplate().render({"id": "simple_0", "question": "Hi"}),
         "column 'question' must hold BFCL's turns: a list of lists of messages (got 'Hi')"),
        (lambda: BFCLTemplate(system_prompt="no placeholder"),
         "system_prompt must be a str with the placeholder {functions} for the functions (got 'no placeholder')"),
    ],
)
def test_template_errors_say_what_to_give(make, message: str):
    """A held-out turn without holdout_message, too few replies, a question that is not turns, a system prompt without {functions}."""
    with pytest.raises(TemplateError) as caught:
        make()
    assert caught.value.message == message


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"returns_tool_calls": False}, "returns_tool_calls=False is BFCL's prompt style, which writes the functions into a system prompt: give "
         "system_prompt='...{functions}...' (bfcl-eval's DEFAULT_SYSTEM_PROMPT; promptkit ships none of BFCL's texts)"),
        ({"system_prompt": "{functions}"}, "system_prompt is BFCL's prompt style, which sends the functions in the system message instead of as tools: "
         "set returns_tool_calls=False with it, or drop it"),
        ({"returns_tool_calls": "yes"}, "returns_tool_calls must be True or False (got 'yes')"),
    ],
)
def test_inferencer_refuses_a_style_without_its_pieces(kwargs: dict, message: str):
    """The prompt style needs system_prompt; function calling refuses one."""
    with pytest.raises(ConfigError) as caught:
        BFCLV3FunctionCallInferencer(**kwargs)
    assert caught.value.message == message


CONFIG = """datasets = [dict(
    abbr='bfcl_mt', type='BFCLDataset', path='rows.jsonl', class_docs=dict(Notebook='notebook.jsonl'),
    tools=dict(column='function', style='bfcl_fc'),
    reader_cfg=dict(input_columns=['id', 'question', 'function'], output_column='ground_truth'),
    infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template='{question}'), retriever=dict(type='ZeroRetriever'),
                   inferencer=dict(type='BFCLV3FunctionCallInferencer', holdout_message='More functions now.')))]
"""


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """A multi-turn miss_func dataset of one row, its class documents beside it."""
    (tmp_path / "notebook.jsonl").write_text(json.dumps(ADD) + "\n" + json.dumps(DELETE) + "\n", encoding="utf-8")
    row = {key: value for key, value in ENTRY.items() if key != "function"} | {"involved_classes": ["Notebook"], "missed_function": {"1": ["delete_note"]}}
    (tmp_path / "rows.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    (tmp_path / "bfcl_mt.py").write_text(CONFIG, encoding="utf-8")
    return tmp_path / "bfcl_mt.py"


def test_render_gives_one_record_per_turn_with_that_turns_tools_and_gold(config: Path):
    """Records turn 0..2, ids …/turn<k>, each turn's calls as gold; delete_note among the tools from turn 1 on."""
    renderer = Renderer(load_datasets(config)[0], ChatModel(abbr="m"), replies={0: ["r0", "r1"]})
    records = [prompt.to_record() for prompt in renderer.prompts()]
    assert [(r["turn"], r["id"], r["gold"]) for r in records] == [
        (0, "bfcl_mt/0/turn0", ["list_notes()"]), (1, "bfcl_mt/0/turn1", ["delete_note(title='x')"]), (2, "bfcl_mt/0/turn2", ["list_notes()"])
    ]
    assert [[tool["function"]["name"] for tool in r["tools"]] for r in records] == [["add_note"], ["add_note", "delete_note"], ["add_note", "delete_note"]]


def test_render_without_replies_is_an_error_naming_the_option(config: Path, capsys: pytest.CaptureFixture[str]):
    """A multi-turn entry's later turns need the model's replies: exit 1 and the --replies hint."""
    assert main(["render", str(config)]) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("promptkit: error: ") and "pass replies (promptkit render --replies FILE" in err
