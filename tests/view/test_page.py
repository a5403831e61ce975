"""The HTML page's content without a browser: escaping, no outside resources, the data each prompt carries."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from promptkit import Renderer, load_datasets, load_models
from promptkit.view import HtmlView

ROOT = Path(__file__).parents[2]
MODELS = ROOT / "configs" / "models"
VQA = ROOT / "configs" / "datasets" / "vqa_demo" / "vqa_demo_columns_gen.py"
MTBENCH = ROOT / "configs" / "datasets" / "mtbench_demo" / "mtbench_demo_every_with_gt.py"


def page_data(page: str) -> dict:
    match = re.search(r'<script id="pk-data" type="application/json">(.*?)</script>', page, flags=re.DOTALL)
    assert match is not None
    return json.loads(match.group(1))


def view_of(config: Path, *models: str, **options) -> HtmlView:
    view = HtmlView()
    for model in [load_models(MODELS / f"{name}.py")[0] for name in models] or [None]:
        for dataset in load_datasets(config):
            view.add(Renderer(dataset, model, **options))
    return view


def test_row_text_never_becomes_markup(evil_config, evil_text):
    """A row holding </script><img onerror=…> stays inside the JSON: the page has its two script elements and no <img> tag."""
    page = view_of(evil_config).html()
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert "<img" not in page and "<b>" not in page
    prompts = page_data(page)["prompts"]
    data = page_data(page)
    assert data["texts"][prompts[1]["pl"][1][2]] == evil_text
    assert prompts[1]["gold"] == evil_text


def test_the_page_loads_nothing_from_elsewhere():
    """No src= or href= attribute, no URL scheme but data:, and a policy that blocks everything else."""
    page = view_of(VQA, "gpt_4o_api", "llava_1_5_7b").html()
    assert re.search(r"\b(?:src|href)\s*=", page.replace("img.src = media.src", "")) is None
    assert re.search(r"https?://", page) is None
    assert "default-src 'none'; img-src data:" in page


def test_media_become_thumbnails_and_never_base64_text():
    """Each image is stored once as a small thumbnail; prompts and records name it by a cut-short data: URL."""
    data = view_of(VQA, "gpt_4o_api", "llava_1_5_7b").data()
    media = data["media"]
    assert len(media) == 6  # six image files, used by 12 prompts
    assert all(row["src"].startswith("data:image/") for row in media)
    assert media[0]["desc"] == "data:image/png;base64,… (368 base64 chars) · image/png · 274 bytes · 64×48"
    shown = json.dumps(data["prompts"])
    assert re.search(r"base64,[A-Za-z0-9+/]{16}", shown) is None
    chat = data["prompts"][0]
    image = chat["f"][1]["content"][1]
    assert image == {"type": "image_url", "image_url": {"url": "data:image/png;base64,… (368 base64 characters)", "detail": "low"}}
    assert chat["refs"] == [0]
    llava = [p for p in data["prompts"] if p["m"] == 1]
    assert llava[0]["mm"] == [0]  # the same file as the chat model's: one thumbnail
    assert len(set(llava[2]["mm"])) == 3


def test_completion_media_prompts_have_their_pieces_located():
    """A completion model's image placeholders stand in for the parts: the system, query and wrapper spans are found."""
    data = view_of(VQA, "llava_1_5_7b").data()
    first = data["prompts"][0]
    assert "spx" not in first
    pieces = [span[0] for span in first["sp"]]
    assert pieces == ["system", "wrapper", "query", "wrapper", "answer_slot"]
    query = next(span for span in first["sp"] if span[0] == "query")
    assert first["f"][query[1] : query[2]] == "What shape is in the image?<image>\n"


def test_five_shot_ppl_prompts_carry_shot_spans_and_the_scored_continuation(five_shot_ppl):
    """Each label's prompt has spans for the five shots and their answers, and where the labels part (the continuation)."""
    data = view_of(five_shot_ppl, "llama3_8b_instruct").data()
    row = [p for p in data["prompts"] if p["i"] == 0]
    assert [p["label"] for p in row] == ["A", "B", "C", "D"]
    pieces = {span[0] for span in row[0]["sp"]}
    assert {f"shot[{n}]" for n in range(5)} | {f"shot[{n}].answer" for n in range(5)} | {"query", "answer_slot", "wrapper"} == pieces
    finals = [p["f"] for p in row]
    cont = row[0]["cont"]
    assert all(p["cont"] == cont for p in row)
    assert len({f[:cont] for f in finals}) == 1 and len({f[cont] for f in finals}) > 1
    assert row[0]["gold"] == "A" and row[0]["shots"] == [0, 1, 2, 3, 4]
    assert row[0]["rec"] == {**row[0]["rec"], "dataset": "science_5shot_ppl", "mode": "ppl", "label": "A", "prompt": None}


def test_dialogue_turns_show_their_own_gold_answer():
    """A dialogue's turn shows the answer column's element for that turn; the model's control tokens are listed."""
    data = view_of(MTBENCH, "llama3_8b_instruct").data()
    turns = [p for p in data["prompts"] if p["i"] == 1]
    assert [(p["turn"], p["gold"]) for p in turns] == [(0, "144"), (1, "48")]
    assert {"history", "history.answer", "query", "system"} <= {span[0] for span in turns[1]["sp"]}
    assert "<|eot_id|>" in data["models"][0]["tokens"]


def test_token_counts_per_segment_with_a_tokenizer(five_shot_ppl):
    """With a token counter each prompt has the pipeline's segments and each span its own count."""
    words = lambda text: len(text.split())  # noqa: E731
    data = view_of(five_shot_ppl, "llama3_8b_instruct", token_counter=words).data()
    first = data["prompts"][0]
    assert first["tok"]["total"] == words(first["f"]) and len(first["tok"]["shots"]) == 5
    query = next(span for span in first["sp"] if span[0] == "query")
    assert query[4] == words(first["f"][query[1] : query[2]])


def test_without_a_counter_there_are_no_token_counts(five_shot_ppl):
    """No tokenizer: no segments, and spans carry no count."""
    first = view_of(five_shot_ppl).data()["prompts"][0]
    assert "tok" not in first and all(len(span) == 3 for span in first["sp"])


@pytest.mark.parametrize("model", ["gpt_4o_api", "llama3_8b_instruct"])
def test_the_record_is_the_render_record_with_the_prompt_stored_once(model):
    """The entry's record is to_record() with its prompt left for the page to put back from the final input."""
    dataset = load_datasets(MTBENCH)[0]
    renderer = Renderer(dataset, load_models(MODELS / f"{model}.py")[0])
    view = HtmlView()
    view.add(renderer, [0])
    entries = view.data()["prompts"]
    records = [p.to_record() for p in renderer.render(0)]
    assert [{**e["rec"], "prompt": e["f"]} for e in entries] == records
