"""Hostile media: decompression bombs, files that are not regular files, and paths that leave the media root.

Every case is checked through the library and through the CLI (one line, exit 1,
no traceback, and no hang: the CLI runs with a timeout so a regression fails).
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from promptkit import ConfigError, DatasetError, Renderer, load_datasets, load_models
from promptkit.media import MediaPolicy, describe_media

# A dataset in the style of configs/datasets/vqa_demo: a text part, then an image part from the `image` column.
CONFIG = """\
datasets = [
    dict(
        abbr='hostile',
        type='JsonlDataset',
        path='data/rows.jsonl',
        media={media!r},
        reader_cfg=dict(input_columns=['question', 'image'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(
                type='MMPromptTemplate',
                template=dict(round=[
                    dict(role='HUMAN', prompt_mm={{
                        'text': {{'type': 'text', 'text': '{{question}}'}},
                        'image': {{'type': 'image_url', 'image_url': {{'url': '{{image}}'}}}},
                    }}),
                ]),
            ),
            retriever=dict(type='ZeroRetriever'),
            inferencer=dict(type='GenInferencer'),
        ),
    )
]
"""
BOMB_SIDE = 20_000
TIMEOUT = 30  # seconds; far beyond a normal run, so only a hang reaches it


@pytest.fixture(scope="module")
def bomb(tmp_path_factory) -> Path:
    """A 20000×20000 1-bit PNG: 400 million pixels in about 48 KB."""
    path = tmp_path_factory.mktemp("bomb") / "bomb.png"
    Image.new("1", (BOMB_SIDE, BOMB_SIDE)).save(path, optimize=True)
    assert path.stat().st_size < 100_000
    return path


def dataset(tmp_path: Path, image: str, media: dict | None = None) -> Path:
    """A config at tmp_path/cfg.py over tmp_path/data/rows.jsonl: row 0 a good image, row 1 the image ``image``."""
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    Image.new("RGB", (8, 6), (0, 90, 200)).save(data / "ok.png")
    rows = [{"question": "fine?", "image": "ok.png", "answer": "yes"}, {"question": "and this?", "image": image, "answer": "no"}]
    (data / "rows.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    config = tmp_path / "cfg.py"
    config.write_text(CONFIG.format(media=media or {}), encoding="utf-8")
    (tmp_path / "model.py").write_text("models = [dict(abbr='chat', type='ChatModel')]\n", encoding="utf-8")
    return config


def renderer(config: Path) -> Renderer:
    [spec] = load_datasets(config)
    [model] = load_models(config.parent / "model.py")
    return Renderer(spec, model)


def cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "promptkit", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=Path(__file__).parents[2],
        env={**os.environ, "COLUMNS": "500"},  # preview's lines unwrapped, whatever the paths' length
    )


def assert_one_line_error(run: subprocess.CompletedProcess[str], expected: str) -> None:
    assert (run.returncode, run.stdout, run.stderr) == (1, "", f"promptkit: error: {expected}\n")


def preview(config: Path) -> subprocess.CompletedProcess[str]:
    return cli("preview", config, "--model", config.parent / "model.py", "--index", "1", "--color", "never")


def shown(run: subprocess.CompletedProcess[str]) -> list[str]:
    """preview's lines without the panels' and tables' borders."""
    return [line.strip(" │┃║") for line in run.stdout.splitlines()]


# -- decompression bombs ------------------------------------------------------------


def test_a_decompression_bomb_is_refused_in_inline_mode(tmp_path, bomb):
    """The 48 KB bomb is a DatasetError naming the row and the file, not Pillow's DecompressionBombError."""
    config = dataset(tmp_path, str(bomb), dict(mode="inline", allow_outside_root=True))
    limit = Image.MAX_IMAGE_PIXELS
    with pytest.raises(DatasetError) as caught:
        renderer(config).render(1)
    assert str(caught.value) == (
        f"config {config}, dataset 'hostile', model 'chat', row 1, key '{bomb}': the image file '{bomb}' ({bomb}) cannot be used: "
        f"it is 20000×20000 = 400,000,000 pixels, over the decode limit of {limit:,} (Pillow's Image.MAX_IMAGE_PIXELS); "
        "promptkit does not decode it"
    )
    assert limit == Image.MAX_IMAGE_PIXELS  # promptkit never changed Pillow's global


def test_max_decode_pixels_lowers_the_decode_limit(tmp_path):
    """``media.max_decode_pixels`` refuses images above it from their header; ``max_pixels`` still only resizes."""
    config = dataset(tmp_path, "wide.png", dict(mode="inline", max_decode_pixels=1000, max_pixels=20))
    Image.new("RGB", (50, 30)).save(tmp_path / "data" / "wide.png")
    with pytest.raises(DatasetError) as caught:
        renderer(config).render(1)
    assert caught.value.message == (
        f"the image file 'wide.png' ({tmp_path / 'data' / 'wide.png'}) cannot be used: "
        "it is 50×30 = 1,500 pixels, over the decode limit of 1,000 (media.max_decode_pixels); promptkit does not decode it"
    )
    [message] = renderer(config).render(0)[0].prompt
    assert message["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_an_image_between_pillows_limit_and_twice_it_is_refused_without_a_warning(tmp_path):
    """Pillow only warns there (an error under these tests' filters); promptkit refuses it itself, or decodes it when allowed."""
    over = Image.MAX_IMAGE_PIXELS + 1
    data = tmp_path / "data"
    data.mkdir()
    Image.new("1", (over, 1)).save(data / "band.png", optimize=True)
    with pytest.raises(DatasetError, match=rf"it is {over}×1 = {over:,} pixels, over the decode limit of {over - 1:,} \(Pillow's Image.MAX_IMAGE_PIXELS\)"):
        renderer(dataset(tmp_path, "band.png", dict(mode="inline"))).render(1)
    allowed = renderer(dataset(tmp_path, "band.png", dict(mode="inline", max_decode_pixels=over)))
    [message] = allowed.render(1)[0].prompt
    assert message["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert over - 1 == Image.MAX_IMAGE_PIXELS


@pytest.mark.parametrize("mode", ["keep", "resolve", "inline"])
def test_max_decode_pixels_applies_in_every_mode(tmp_path, mode):
    """The decode limit holds wherever promptkit looks at an image: preview looks in every mode, keep included."""
    Image.new("RGB", (5, 4)).save(tmp_path / "a.png")
    policy = MediaPolicy.from_config(dict(mode=mode, max_decode_pixels=10), None)
    with pytest.raises(DatasetError) as caught:
        describe_media("image", "a.png", tmp_path, policy)
    assert str(caught.value) == (
        f"key 'a.png': the image file 'a.png' ({tmp_path / 'a.png'}) cannot be used: "
        "it is 5×4 = 20 pixels, over the decode limit of 10 (media.max_decode_pixels); promptkit does not decode it"
    )


@pytest.mark.parametrize("value", [0, -1, 1.5, True, "many"])
def test_max_decode_pixels_must_be_a_positive_int(value):
    """A decode limit that is not a positive int is a ConfigError naming the key."""
    with pytest.raises(ConfigError, match=rf"^key 'media.max_decode_pixels': media.max_decode_pixels must be a positive int \(got {value!r}\)$"):
        MediaPolicy.from_config(dict(max_decode_pixels=value), None)


def test_a_decompression_bomb_in_a_data_url_is_refused(tmp_path, bomb):
    """Base64 in the row is checked like a file: inline refuses it, preview's description refuses it too."""
    url = "data:image/png;base64," + base64.b64encode(bomb.read_bytes()).decode()
    config = dataset(tmp_path, url, dict(mode="inline"))
    with pytest.raises(DatasetError, match=r"row 1, key 'url': the image 'data:image/png;base64,.*' cannot be used: it is 20000×20000 = 400,000,000 pixels"):
        renderer(config).render(1)
    with pytest.raises(DatasetError, match=r"^key 'url': the image 'data:image/png;base64,.*' cannot be used: it is 20000×20000 = 400,000,000 pixels"):
        describe_media("image", url, tmp_path)


def test_the_cli_refuses_a_bomb_in_one_line(tmp_path, bomb):
    """render (inline) and preview (keep) both end with one line naming the row and the file, exit 1."""
    limit = f"over the decode limit of {Image.MAX_IMAGE_PIXELS:,} (Pillow's Image.MAX_IMAGE_PIXELS); promptkit does not decode it"
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "bomb.png").write_bytes(bomb.read_bytes())
    inline = dataset(tmp_path, "bomb.png", dict(mode="inline"))
    resolved = tmp_path / "data" / "bomb.png"
    assert_one_line_error(
        cli("render", inline, "--model", tmp_path / "model.py", "--indices", "1"),
        f"config {inline}, dataset 'hostile', model 'chat', row 1, key 'bomb.png': the image file 'bomb.png' ({resolved}) cannot be used: "
        f"it is 20000×20000 = 400,000,000 pixels, {limit}",
    )
    keep = dataset(tmp_path, "bomb.png")
    assert_one_line_error(
        preview(keep),
        f"config {keep}, dataset 'hostile', model 'chat', row 1, key 'bomb.png': the image file 'bomb.png' ({resolved}) cannot be used: "
        f"it is 20000×20000 = 400,000,000 pixels, {limit}",
    )


# -- only regular files --------------------------------------------------------------


def make_special(kind: str, path: Path) -> None:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:  # a Unix socket; bound from its folder, as socket paths are limited to about 100 characters
        here = Path.cwd()
        os.chdir(path.parent)
        try:
            sock = socket.socket(socket.AF_UNIX)
            sock.bind(path.name)
            sock.close()
        finally:
            os.chdir(here)


SPECIAL = {"fifo": "a FIFO", "folder": "a folder", "device": "a character device", "socket": "a socket"}


@pytest.fixture(params=sorted(SPECIAL))
def special(request, tmp_path) -> Iterator[tuple[str, Path]]:
    """A media path in the data folder that is not a regular file; ``device`` is a symlink to /dev/zero."""
    (tmp_path / "data").mkdir()
    path = tmp_path / "data" / "pic.png"
    make_special(request.param, path)
    yield request.param, path


@pytest.mark.parametrize("mode", ["resolve", "inline"])
def test_only_regular_files_are_read_or_passed_on(special, mode, tmp_path):
    """A FIFO, a folder, a socket or /dev/zero is a DatasetError naming the row and the path, and what it is."""
    kind, path = special
    config = dataset(tmp_path, "pic.png", dict(mode=mode, allow_outside_root=True))
    with pytest.raises(DatasetError) as caught:
        renderer(config).render(1)
    assert str(caught.value) == (
        f"config {config}, dataset 'hostile', model 'chat', row 1, key 'pic.png': the image file 'pic.png' is {SPECIAL[kind]}, not a regular file "
        f"(resolved to {path.resolve()})"
    )


def test_preview_looks_only_at_regular_files(special, tmp_path):
    """keep mode: preview refuses a FIFO, a folder, a socket or /dev/zero in one line instead of hanging on it."""
    kind, path = special
    config = dataset(tmp_path, "pic.png", dict(allow_outside_root=True))
    assert_one_line_error(
        preview(config),
        f"config {config}, dataset 'hostile', model 'chat', row 1, key 'pic.png': the image file 'pic.png' is {SPECIAL[kind]}, not a regular file "
        f"(resolved to {path.resolve()})",
    )


def test_render_refuses_a_fifo_in_one_line(tmp_path):
    """inline mode through the CLI: a FIFO among the images ends the run with one line instead of blocking."""
    (tmp_path / "data").mkdir()
    os.mkfifo(tmp_path / "data" / "pic.png")
    config = dataset(tmp_path, "pic.png", dict(mode="inline"))
    assert_one_line_error(
        cli("render", config, "--model", tmp_path / "model.py", "--indices", "1"),
        f"config {config}, dataset 'hostile', model 'chat', row 1, key 'pic.png': the image file 'pic.png' is a FIFO, not a regular file "
        f"(resolved to {tmp_path / 'data' / 'pic.png'})",
    )


def test_a_fifo_swapped_in_after_the_check_does_not_block(tmp_path):
    """The opened file is checked too, and opened without blocking: a FIFO that passed no check still cannot hang."""
    os.mkfifo(tmp_path / "pipe")
    code = (
        "import sys; from pathlib import Path; from promptkit.media.files import MediaFileError, open_regular\n"
        "try:\n    open_regular(Path(sys.argv[1]))\nexcept MediaFileError as error:\n    print(error)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "pipe")], capture_output=True, text=True, timeout=TIMEOUT, cwd=Path(__file__).parents[2]
    )
    assert (run.returncode, run.stdout, run.stderr) == (0, "it is a FIFO, not a regular file\n", "")


# -- the media root ------------------------------------------------------------------


def test_preview_in_keep_mode_does_not_look_outside_the_media_root(tmp_path):
    """A path outside the data folder (think /etc/shadow) is shown as refused: its size is never printed."""
    secret = tmp_path / "secret.txt"
    secret.write_bytes(b"x" * 4321)
    config = dataset(tmp_path, str(secret))
    run = preview(config)
    root = tmp_path / "data"
    assert (run.returncode, run.stderr) == (0, "")
    assert f"image {secret} · refused: outside the media root {root}" in shown(run)
    assert "4,321" not in run.stdout
    assert describe_media("image", str(secret), root) == f"{secret} · refused: outside the media root {root}"
    assert describe_media("image", "/dev/zero", root) == f"/dev/zero · refused: outside the media root {root}"
    assert describe_media("image", "file://../secret.txt", root) == f"file://../secret.txt · refused: outside the media root {root}"


def test_preview_shows_files_outside_the_root_when_allowed(tmp_path):
    """media.allow_outside_root=True lets preview describe the file, as it lets resolve and inline read it."""
    outside = tmp_path / "outside.png"
    Image.new("RGB", (4, 3)).save(outside)
    size = outside.stat().st_size
    run = preview(dataset(tmp_path, str(outside), dict(allow_outside_root=True)))
    assert run.returncode == 0
    assert f"image {outside} · image/png · {size:,} bytes · 4×3" in shown(run)


@pytest.mark.parametrize("mode", ["resolve", "inline"])
def test_a_symlink_out_of_the_root_is_refused(tmp_path, mode):
    """The real path is what counts: a link in the data folder to a file outside it is refused."""
    (tmp_path / "data").mkdir()
    outside = tmp_path / "outside.png"
    Image.new("RGB", (4, 3)).save(outside)
    (tmp_path / "data" / "link.png").symlink_to(outside)
    config = dataset(tmp_path, "link.png", dict(mode=mode))
    root = tmp_path / "data"
    with pytest.raises(DatasetError) as caught:
        renderer(config).render(1)
    assert caught.value.message == (
        f"the image path 'link.png' resolves to {outside}, outside the dataset's folder {root}; "
        "move the file there, set media.root, or set media.allow_outside_root=True"
    )
    assert describe_media("image", "link.png", root) == f"link.png · refused: outside the media root {root}"


def test_preview_refuses_a_symlink_to_dev_zero_without_hanging(tmp_path):
    """A link in the data folder to /dev/zero leads outside the root: shown as refused, never opened."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "zero.png").symlink_to("/dev/zero")
    run = preview(dataset(tmp_path, "zero.png"))
    assert (run.returncode, run.stderr) == (0, "")
    assert f"image zero.png · refused: outside the media root {tmp_path / 'data'}" in shown(run)
