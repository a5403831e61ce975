"""Small previews of image parts for people: a downscaled copy as a ``data:`` URL, read under the dataset's media policy.

A thumbnail is read as an inlined part is (:mod:`promptkit.media.policy`): a
local path must stay inside the media root, only regular files are opened and
the decode limit is checked before any pixel is decoded; remote URLs are never
fetched.  Whatever cannot be shown gives ``None``; :func:`describe_media`
says why.
"""

from __future__ import annotations

import base64
import binascii
import io
from pathlib import Path
from typing import TYPE_CHECKING

from promptkit.media.files import ImageLimits, MediaFileError, open_image, open_regular, target_size
from promptkit.media.policy import MediaPolicy, confine, local_path

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["thumbnail"]

#: The longest edge of a thumbnail, in pixels.
EDGE = 160


def thumbnail(url: str, root: Path | None, policy: MediaPolicy | None = None, edge: int = EDGE) -> str | None:
    """The image at ``url`` (a ``data:`` URL, ``file://`` URL or path) shrunk to ``edge`` pixels as a PNG or JPEG ``data:`` URL.

    ``None`` for a remote URL, a path outside the media root, a missing or
    unreadable file, or bytes that are not an image within the decode limit.

    >>> import io; from PIL import Image
    >>> png = io.BytesIO(); Image.new("RGB", (640, 320), "red").save(png, "PNG")
    >>> url = "data:image/png;base64," + base64.b64encode(png.getvalue()).decode()
    >>> small = thumbnail(url, None, edge=64)
    >>> Image.open(io.BytesIO(base64.b64decode(small.partition(",")[2]))).size
    (64, 32)
    """
    from PIL import Image, UnidentifiedImageError  # Pillow, imported when a page has an image to show

    policy = policy or MediaPolicy()
    data = _read(url, root, policy)
    if data is None:
        return None
    limits = policy.limits
    try:
        with open_image(io.BytesIO(data), limits) as image:
            size = target_size(image.width, image.height, ImageLimits(max_edge=edge))
            image.draft("RGB", size)  # JPEG decodes at a reduced scale; other formats ignore it
            small = image.convert("RGBA" if _has_alpha(image) else "RGB").resize(size, Image.Resampling.LANCZOS)
    except (MediaFileError, UnidentifiedImageError, OSError, SyntaxError, ValueError):
        return None
    out = io.BytesIO()
    if small.mode == "RGBA":
        small.save(out, "PNG", optimize=True)
        mime = "image/png"
    else:
        small.save(out, "JPEG", quality=80)
        mime = "image/jpeg"
    return f"data:{mime};base64,{base64.b64encode(out.getvalue()).decode('ascii')}"


def _read(url: str, root: Path | None, policy: MediaPolicy) -> bytes | None:
    if url.startswith("data:"):
        header, _, payload = url.partition(",")
        if not header.endswith(";base64"):
            return None
        try:
            return base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError):
            return None
    path = local_path(url)
    if path is None:
        return None  # remote: never fetched
    file, inside = confine(path, (root or Path.cwd()).resolve(), policy.allow_outside_root)
    if not inside:
        return None
    try:
        with open_regular(file) as opened:
            return opened.read()
    except (OSError, MediaFileError):
        return None


def _has_alpha(image: Image.Image) -> bool:
    return image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info)
