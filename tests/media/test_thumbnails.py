"""Thumbnails of image parts: shrunk copies as data: URLs, read under the media policy, None for what cannot be shown."""

from __future__ import annotations

import base64
import io
from pathlib import Path

from PIL import Image

from promptkit.media import MediaPolicy
from promptkit.media.files import ImageLimits
from promptkit.media.thumbnails import thumbnail


def decoded(url: str) -> Image.Image:
    header, _, payload = url.partition(",")
    assert header in ("data:image/jpeg;base64", "data:image/png;base64")
    return Image.open(io.BytesIO(base64.b64decode(payload)))


def write_image(path: Path, size: tuple[int, int], mode: str = "RGB") -> Path:
    Image.new(mode, size, (200, 30, 30, 128) if mode == "RGBA" else "red").save(path)
    return path


def test_a_large_photo_becomes_a_small_jpeg(tmp_path):
    """A 1200×900 JPEG file is read by path relative to the root and shrunk to 160 pixels on its long edge."""
    write_image(tmp_path / "photo.jpg", (1200, 900))
    small = decoded(thumbnail("photo.jpg", tmp_path))
    assert (small.format, small.size) == ("JPEG", (160, 120))


def test_transparency_is_kept_as_png(tmp_path):
    """An image with alpha stays PNG (a JPEG would turn its transparent pixels black); a small one is not enlarged."""
    write_image(tmp_path / "icon.png", (40, 20), "RGBA")
    small = decoded(thumbnail(f"file://{tmp_path / 'icon.png'}", tmp_path))
    assert (small.format, small.mode, small.size) == ("PNG", "RGBA", (40, 20))


def test_what_cannot_be_shown_gives_none(tmp_path):
    """Remote URLs are not fetched; paths outside the root, missing files, non-images and bad base64 give no thumbnail."""
    outside = write_image(tmp_path / "outside.png", (10, 10))
    root = tmp_path / "root"
    root.mkdir()
    (root / "notes.png").write_text("not an image")
    assert thumbnail("https://example.com/cat.png", root) is None
    assert thumbnail(str(outside), root) is None
    assert thumbnail("missing.png", root) is None
    assert thumbnail("notes.png", root) is None
    assert thumbnail("data:image/png;base64,!!!", root) is None
    assert thumbnail(str(outside), root, MediaPolicy(allow_outside_root=True)) is not None


def test_the_decode_limit_is_kept(tmp_path):
    """An image over the policy's decode limit is not decoded for a thumbnail either."""
    write_image(tmp_path / "big.png", (300, 300))
    assert thumbnail("big.png", tmp_path, MediaPolicy(limits=ImageLimits(max_decode_pixels=1000))) is None
