"""The media policy: keep, resolve and inline (MIME from bytes, resize, re-encode, caps), and each bad-file error."""

from __future__ import annotations

import base64
import io
import wave
from pathlib import Path

import pytest
from PIL import Image

from promptkit import ConfigError, DatasetError
from promptkit.media import describe_media

INFER = dict(
    prompt_template=dict(
        type="MMPromptTemplate",
        template=dict(round=[dict(role="HUMAN", prompt_mm={
            "text": {"type": "text", "text": "{question}"},
            "image": {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,{image}"}},
        })]),
    ),
    retriever=dict(type="ZeroRetriever"),
    inferencer=dict(type="GenInferencer"),
)
FILE_INFER = {**INFER, "prompt_template": dict(type="MMPromptTemplate", template=dict(round=[dict(role="HUMAN", prompt_mm={
    "image": {"type": "image_url", "image_url": {"url": "file://{image}"}},
    "audio": {"type": "audio_url", "audio_url": {"url": "file://{audio}"}},
})]))}
READER = dict(input_columns=["question", "image"], output_column=None)
CHAT = dict(type="ChatModel")


def png(path: Path, size=(40, 30), colour=(200, 10, 10)) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path, format="PNG")
    return path


def image_urls(renderer, index=0) -> list[str]:
    [message] = renderer.render(index)[0].prompt
    return [part["image_url"]["url"] for part in message["content"] if part["type"] == "image_url"]


def decode(url: str) -> tuple[str, Image.Image]:
    header, _, payload = url.partition(",")
    return header, Image.open(io.BytesIO(base64.b64decode(payload)))


def test_keep_is_the_default_and_fills_the_template_as_given(make_renderer):
    renderer = make_renderer([{"question": "q", "image": "no/such.png"}], INFER, READER, model=CHAT)
    assert image_urls(renderer) == ["data:image/jpeg;base64,no/such.png"]


def test_inline_sniffs_the_mime_type_from_the_bytes(make_renderer, tmp_path):
    """A PNG named .jpg, under a template that says image/jpeg, is sent as image/png, bytes unchanged."""
    source = png(tmp_path / "pics" / "looks_like.jpg")
    renderer = make_renderer([{"question": "q", "image": "pics/looks_like.jpg"}], INFER, READER, model=CHAT, media=dict(mode="inline"))
    header, image = decode(image_urls(renderer)[0])
    assert header == "data:image/png;base64"
    assert base64.b64decode(image_urls(renderer)[0].partition(",")[2]) == source.read_bytes()
    assert image.size == (40, 30)


def test_inline_resizes_within_bounds_keeping_the_aspect(make_renderer, tmp_path):
    png(tmp_path / "big.png", size=(400, 100))
    rows = [{"question": "q", "image": "big.png"}]
    by_edge = make_renderer(rows, INFER, READER, model=CHAT, media=dict(mode="inline", max_edge=100))
    assert decode(image_urls(by_edge)[0])[1].size == (100, 25)
    by_pixels = make_renderer(rows, INFER, READER, model=CHAT, media=dict(mode="inline", max_pixels=10_000))
    width, height = decode(image_urls(by_pixels)[0])[1].size
    assert width * height <= 10_000 and width == 4 * height
    never_enlarged = make_renderer(rows, INFER, READER, model=CHAT, media=dict(mode="inline", max_edge=1000))
    assert decode(image_urls(never_enlarged)[0])[1].size == (400, 100)


def test_inline_re_encodes_when_asked(make_renderer, tmp_path):
    png(tmp_path / "a.png")
    renderer = make_renderer([{"question": "q", "image": "a.png"}], INFER, READER, model=CHAT, media=dict(mode="inline", image_format="webp", quality=50))
    header, image = decode(image_urls(renderer)[0])
    assert header == "data:image/webp;base64" and image.format == "WEBP"


def test_inline_also_takes_data_urls(make_renderer, tmp_path):
    """A row holding base64 already: decoded, checked, resized like a file."""
    data = base64.b64encode(png(tmp_path / "x.png", size=(300, 300)).read_bytes()).decode()
    renderer = make_renderer([{"question": "q", "image": data}], INFER, READER, model=CHAT, media=dict(mode="inline", max_edge=30))
    header, image = decode(image_urls(renderer)[0])
    assert header == "data:image/png;base64" and image.size == (30, 30)


def test_size_caps_per_part_and_per_prompt(make_renderer, tmp_path):
    size = len(png(tmp_path / "a.png").read_bytes())
    row = [{"question": "q", "image": "a.png"}]
    with pytest.raises(DatasetError, match=rf"row 0, key 'media.max_part_bytes': the image 'a.png' is {size} bytes after encoding, over media.max_part_bytes=10"):
        make_renderer(row, INFER, READER, model=CHAT, media=dict(mode="inline", max_part_bytes=10)).render(0)
    two = {**INFER, "prompt_template": dict(type="MMPromptTemplate", template=dict(round=[dict(role="HUMAN", prompt_mm={
        "image": {"type": "image_url", "image_url": {"url": "{image}"}}})]))}
    renderer = make_renderer([{"question": "q", "image": ["a.png", "a.png"]}], two, READER, model=CHAT, media=dict(mode="inline", max_prompt_bytes=size + 1))
    with pytest.raises(DatasetError, match=rf"the prompt's media add up to {2 * size} bytes, over media.max_prompt_bytes={size + 1}"):
        renderer.render(0)


def test_paths_outside_the_dataset_folder_are_refused_unless_allowed(make_renderer, tmp_path):
    outside = png(tmp_path.parent / f"{tmp_path.name}_outside.png")
    row = [{"question": "q", "image": f"../{outside.name}"}]
    with pytest.raises(DatasetError, match=r"row 0, key '\.\./.*_outside\.png': the image path '\.\./.*_outside.png' resolves to .*, outside the dataset's folder"):
        make_renderer(row, INFER, READER, model=CHAT, media=dict(mode="inline")).render(0)
    allowed = make_renderer(row, INFER, READER, model=CHAT, media=dict(mode="inline", allow_outside_root=True))
    assert image_urls(allowed)[0].startswith("data:image/png;base64,")
    absolute = make_renderer([{"image": str(outside), "audio": None}], FILE_INFER, dict(input_columns=["image"], output_column=None), model=CHAT, media=dict(mode="resolve"))
    with pytest.raises(DatasetError, match=r"outside the dataset's folder .*set media.allow_outside_root=True"):
        absolute.render(0)


def test_resolve_makes_local_paths_absolute_and_checked(make_renderer, tmp_path):
    png(tmp_path / "img" / "a.png")
    wav = tmp_path / "img" / "a.wav"
    with wave.open(str(wav), "wb") as out:
        out.setnchannels(1), out.setsampwidth(1), out.setframerate(8000), out.writeframes(bytes(800))
    renderer = make_renderer([{"image": "img/a.png", "audio": "img/a.wav"}], FILE_INFER, dict(input_columns=["image", "audio"], output_column=None), model=CHAT, media=dict(mode="resolve"))
    [message] = renderer.render(0)[0].prompt
    assert message["content"] == [
        {"type": "image_url", "image_url": {"url": f"file://{(tmp_path / 'img' / 'a.png').resolve()}"}},
        {"type": "audio_url", "audio_url": {"url": f"file://{wav.resolve()}"}},
    ]
    inline = make_renderer([{"image": "img/a.png", "audio": "img/a.wav"}], FILE_INFER, dict(input_columns=["image", "audio"], output_column=None), model=CHAT, media=dict(mode="inline"))
    [message] = inline.render(0)[0].prompt
    assert message["content"][1]["audio_url"]["url"].startswith("data:audio/x-wav;base64,UklGR")


@pytest.mark.parametrize(
    ("make_file", "message"),
    [
        (None, r"the image file 'pic.png' does not exist \(resolved to .*pic.png\)"),
        (lambda p: p.mkdir(), r"the image file 'pic.png' is a folder"),
        (lambda p: p.write_bytes(b"hello, not an image"), r"key 'pic.png': the image file 'pic.png' \(.*pic.png\) cannot be used: it is not an image Pillow can read"),
        (lambda p: p.write_bytes(png(p.with_suffix(".full.png")).read_bytes()[:60]), r"key 'pic.png': the image file 'pic.png' \(.*pic.png\) cannot be used: it is truncated or corrupt"),
    ],
)
def test_bad_files_fail_with_the_row_and_the_path(make_renderer, tmp_path, make_file, message):
    if make_file is not None:
        make_file(tmp_path / "pic.png")
    renderer = make_renderer([{"question": "ok", "image": "x"}, {"question": "q", "image": "pic.png"}], INFER, READER, model=CHAT, media=dict(mode="inline"))
    with pytest.raises(DatasetError, match=r"dataset 'demo', model 'ChatModel', row 1, .*" + message):
        renderer.render(1)


def test_a_file_of_the_wrong_modality(make_renderer, tmp_path):
    png(tmp_path / "a.png")
    renderer = make_renderer([{"image": "a.png", "audio": "a.png"}], FILE_INFER, dict(input_columns=["image", "audio"], output_column=None), model=CHAT, media=dict(mode="inline"))
    with pytest.raises(DatasetError, match=r"row 0, key 'a.png': the audio file 'a.png' \(.*a.png\) cannot be used: it holds image/png, not audio"):
        renderer.render(0)


@pytest.mark.parametrize(
    ("media", "message"),
    [
        ("inline", r"media must be a dict such as dict\(mode='inline', max_edge=1024\)"),
        (dict(mode="embed"), r"media.mode must be one of 'keep', 'resolve', 'inline' \(got 'embed'\)"),
        (dict(mode="inline", max_edeg=5), r"unknown key 'max_edeg' in media \(did you mean 'max_edge'\?\)"),
        (dict(mode="inline", max_edge=0), r"media.max_edge must be a positive int"),
        (dict(mode="inline", image_format="gif"), r"media.image_format must be one of 'JPEG', 'PNG', 'WEBP'"),
        (dict(max_edge=512), r"media.max_edge applies only with mode='inline' \(mode is 'keep'\)"),
    ],
)
def test_media_config_errors(make_renderer, media, message):
    with pytest.raises(ConfigError, match=message):
        make_renderer([{"question": "q", "image": "x"}], INFER, READER, model=CHAT, media=media)


def test_describe_media_for_people(tmp_path):
    source = png(tmp_path / "a.png", size=(64, 48))
    size = len(source.read_bytes())
    assert describe_media("image", "file://a.png", tmp_path) == f"file://a.png · image/png · {size:,} bytes · 64×48"
    data_url = "data:image/png;base64," + base64.b64encode(source.read_bytes()).decode()
    assert describe_media("image", data_url, None).endswith(f"base64 chars) · image/png · {size:,} bytes · 64×48")
    assert "cannot read" in describe_media("image", "missing.png", tmp_path)
    assert describe_media("image", "https://example.org/a.png", None) == "https://example.org/a.png · remote, not fetched"
