"""The HTML view in a real browser: Debian's chromium driven by playwright, on pages `promptkit view` writes.

No browser is downloaded: the system's ``chromium`` runs headless with a fresh
profile and no network features.  Without it (or without playwright, of the
``test-full`` extra) the tests are skipped locally; ``.ci/run`` installs both and
sets ``PROMPTKIT_REQUIRE_EXTRAS=1``, which turns a missing browser into a failure.  ``PROMPTKIT_WRITE_SCREENSHOT=1`` also writes
the README's screenshot, docs/images/view.png.
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from PIL import Image

from promptkit.cli.main import main

ROOT = Path(__file__).parents[2]
MODELS = ROOT / "configs" / "models"
DATASETS = ROOT / "configs" / "datasets"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install '.[test-full]', and apt-get install chromium)"
    if CHROMIUM is None:
        return "no chromium on PATH (apt-get install chromium)"
    return None


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A headless chromium context with a fresh profile, shared by the module's tests."""
    reason = _missing()
    if reason is not None:
        if os.environ.get("PROMPTKIT_REQUIRE_EXTRAS") == "1":
            pytest.fail(f"PROMPTKIT_REQUIRE_EXTRAS=1 but {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")),
            executable_path=CHROMIUM,
            args=ARGS,
            headless=True,
            viewport={"width": 1400, "height": 900},
            offline=True,
        )
        yield context
        context.close()


@pytest.fixture
def open_page(browser, tmp_path):
    """``open_page(configs, models, *options)``: runs `promptkit view` and opens the page; script errors fail the test."""
    pages = []

    def open_(configs: list[Path], models: list[str], *options: str):
        out = tmp_path / f"view{len(pages)}.html"
        argv = ["view", *map(str, configs), "--out", str(out), *options]
        for model in models:
            argv += ["--model", str(MODELS / f"{model}.py")]
        assert main(argv) == 0
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(out.as_uri())
        page.wait_for_selector("body[data-ready=true]")
        pages.append((page, errors, requests))
        return page

    yield open_
    for page, errors, requests in pages:
        page.close()
        assert errors == []
        assert [url for url in requests if not url.startswith(("file:", "data:"))] == []


def first_row(page):
    return page.locator("details.row").first


def non_blank(png: bytes) -> bool:
    return len(Image.open(io.BytesIO(png)).convert("RGB").getcolors(1 << 24) or []) > 1


def test_multimodal_page_shows_images_as_thumbnails(open_page):
    """A VQA row: the chat model's message and the completion model's media list show <img> thumbnails, no base64 text."""
    page = open_page([DATASETS / "vqa_demo" / "vqa_demo_columns_gen.py"], ["gpt_4o_api", "llava_1_5_7b"])
    row = first_row(page)
    assert row.get_attribute("open") is not None
    columns = row.locator("section.col")
    assert columns.evaluate_all("cols => cols.map(c => c.dataset.model)") == ["gpt-4o-2024-08-06", "llava-1.5-7b-hf"]
    for column in range(2):
        thumbs = columns.nth(column).locator(".final img.thumb")
        assert thumbs.count() == 1
        assert thumbs.first.evaluate("img => img.complete && img.naturalWidth") == 64
    assert columns.nth(1).locator(".tok", has_text="<image>").count() == 1  # the placeholder, a control token of the model
    assert "base64," not in row.inner_text().replace("base64,…", "")
    assert non_blank(page.screenshot())


def test_dialogue_page_puts_models_side_by_side_with_coloured_spans(open_page):
    """An MT-Bench dialogue for two models: one column each, history, query, system and wrapper spans, control tokens marked."""
    page = open_page([DATASETS / "mtbench_demo" / "mtbench_demo_every_with_gt.py"], ["llama3_8b_instruct", "qwen2_5_7b_instruct"])
    row = first_row(page)
    columns = row.locator("section.col")
    assert columns.count() == 2
    second_turn = columns.first.locator("article.prompt").nth(1)
    assert second_turn.locator("h4").inner_text() == "turn 1"
    final = second_turn.locator(".final")
    for piece in ("k-system", "k-history", "k-history-answer", "k-query", "k-wrapper"):
        assert final.locator(f".sp.{piece}").count() >= 1, piece
    assert final.locator(".k-history").first.inner_text() == "Write a two-line poem about the sea."
    assert final.locator(".tok", has_text="<|eot_id|>").count() >= 3
    assert final.locator(".ws.nl").count() >= 1
    assert second_turn.locator(".goldline").inner_text().startswith("gold: The sea rolls in, so deep and blue,")
    boxes = [columns.nth(k).bounding_box() for k in range(2)]
    assert boxes[0]["x"] + boxes[0]["width"] <= boxes[1]["x"] and abs(boxes[0]["y"] - boxes[1]["y"]) < 1  # side by side
    page.locator("#pk-models input[value='qwen2.5-7b-instruct']").uncheck()
    assert columns.nth(1).is_hidden() and columns.first.is_visible()


def test_five_shot_ppl_page_marks_shots_labels_and_the_record(open_page, five_shot_ppl):
    """Each label's prompt colours five shots and their answers, underlines the scored continuation; the record is one click away."""
    page = open_page([five_shot_ppl], ["llama3_8b_instruct"])
    row = first_row(page)
    prompts = row.locator("article.prompt")
    assert prompts.locator("h4").all_inner_texts() == ["label A", "label B", "label C", "label D"]
    label_b = prompts.nth(1)
    pieces = label_b.locator(".final .sp").evaluate_all("spans => spans.map(s => s.dataset.piece)")
    for n in range(5):
        assert f"shot[{n}]" in pieces and f"shot[{n}].answer" in pieces
    assert label_b.locator(".k-shot.s-odd").count() == 2 and label_b.locator(".k-shot.s-even").count() == 3
    assert label_b.locator(".k-answer").inner_text().startswith("Answer: ")
    assert "".join(label_b.locator(".final .cont").all_inner_texts()).startswith("leaves")  # label B of test row 0
    label_b.locator("details.rec > summary").click()
    record = label_b.locator("pre.record").inner_text()
    assert '"label": "B"' in record and '"prompt": "<|begin_of_text|>' in record and '"ice_idx": [' in record


def test_search_and_filters_narrow_the_rows(open_page, five_shot_ppl):
    """Text search keeps the one row holding the text; the row and dataset filters combine with it."""
    page = open_page([five_shot_ppl, DATASETS / "mtbench_demo" / "mtbench_demo_every_with_gt.py"], ["llama3_8b_instruct"])
    from playwright.sync_api import expect

    rows = page.locator("#pk-rows details.row")
    assert rows.count() == 20
    page.fill("#pk-search", "ABSORBS most of the water")
    expect(rows).to_have_count(1)
    assert rows.first.get_attribute("data-index") == "0" and rows.first.get_attribute("data-dataset") == "science_5shot_ppl"
    assert page.locator("#pk-count").inner_text() == "1 of 20 rows match"
    page.fill("#pk-search", "")
    page.select_option("#pk-dataset", label="mtbench_demo_every_with_gt")
    page.fill("#pk-rows-filter", "2-4,7")
    expect(rows).to_have_count(4)
    assert rows.evaluate_all("rows => rows.map(r => r.dataset.index)") == ["2", "3", "4", "7"]
    page.fill("#pk-rows-filter", "2-")
    assert page.locator("#pk-rows-filter.invalid").count() == 1


def test_row_text_stays_text_in_the_browser(open_page, evil_config, evil_text):
    """A row holding </script><img onerror=…> shows as text: no element is made of it and no handler runs."""
    page = open_page([evil_config], [], "--indices", "1")
    row = first_row(page)
    assert page.locator("img").count() == 0 and page.locator("b", has_text="bold").count() == 0
    assert evil_text in row.locator(".final").inner_text()
    assert page.evaluate("window.__pwned") is None


def test_invisible_characters_are_marked(open_page, evil_config):
    """A tab, trailing spaces before a newline and a zero-width space each get a visible mark in the final input."""
    page = open_page([evil_config], [], "--indices", "2")
    final = first_row(page).locator(".final")
    assert final.locator(".ws.tab").count() == 1
    assert final.locator(".ws.trail").inner_text() == "··"
    assert final.locator(".ws.nl").count() == 1
    assert final.locator(".zw").inner_text() == "U+200B"
    assert final.locator(".zw").get_attribute("title") == "U+200B ZERO WIDTH SPACE"


def test_screenshot_of_the_view(open_page):
    """The README's picture: a dialogue row for two models side by side, non-blank (written when PROMPTKIT_WRITE_SCREENSHOT=1)."""
    page = open_page([DATASETS / "mtbench_demo" / "mtbench_demo_every_with_gt.py"], ["llama3_8b_instruct", "gpt_4o_api"], "--indices", "0")
    page.set_viewport_size({"width": 1280, "height": 760})
    png = page.screenshot()
    assert non_blank(png)
    if os.environ.get("PROMPTKIT_WRITE_SCREENSHOT") == "1":
        target = ROOT / "docs" / "images" / "view.png"
        target.parent.mkdir(exist_ok=True)
        Image.open(io.BytesIO(png)).convert("P", palette=Image.Palette.ADAPTIVE, colors=128).save(target, optimize=True)
