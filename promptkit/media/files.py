"""Reading media bytes: what a file is (sniffed from its bytes), and images resized and re-encoded with Pillow.

Audio and video are passed on as their bytes with the sniffed MIME type; no
decoding is needed for that.  Frame sampling for video would go here, beside
:func:`prepare_image`, and nothing else would change.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import filetype  # type: ignore[import-untyped]
from PIL import Image, UnidentifiedImageError

__all__ = ["ImageLimits", "MediaFileError", "Prepared", "prepare", "sniff_mime"]

#: Formats an image can be re-encoded to, by the name a config gives.
ENCODINGS = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}


class MediaFileError(Exception):
    """The bytes are not what the part needs (not an image, truncated, unknown type); the caller adds where."""


@dataclass(frozen=True, slots=True)
class ImageLimits:
    """Resize (aspect kept, never enlarged) and re-encode settings for images."""

    max_edge: int | None = None
    max_pixels: int | None = None
    encode: str | None = None  # one of ENCODINGS; None keeps the file's own format
    quality: int = 90


@dataclass(frozen=True, slots=True)
class Prepared:
    """Media bytes ready to be sent, with their MIME type (and size in pixels for images)."""

    data: bytes
    mime: str
    width: int | None = None
    height: int | None = None


def sniff_mime(data: bytes) -> str | None:
    """The MIME type the bytes' signature shows, or ``None``."""
    kind = filetype.guess(data)
    return kind.mime if kind is not None else None


def prepare(modality: str, data: bytes, limits: ImageLimits) -> Prepared:
    """Check ``data`` fits ``modality`` and, for images, apply ``limits``."""
    if modality == "image":
        return prepare_image(data, limits)
    mime = sniff_mime(data)
    if mime is None:
        raise MediaFileError(f"its bytes match no known {modality} format")
    if not mime.startswith(f"{modality}/"):
        raise MediaFileError(f"it holds {mime}, not {modality}")
    return Prepared(data, mime)


def target_size(width: int, height: int, limits: ImageLimits) -> tuple[int, int]:
    """The largest size within ``limits`` with the image's aspect ratio (the image's own if it fits)."""
    scale = 1.0
    if limits.max_edge is not None and max(width, height) > limits.max_edge:
        scale = limits.max_edge / max(width, height)
    if limits.max_pixels is not None and width * height * scale * scale > limits.max_pixels:
        scale = math.sqrt(limits.max_pixels / (width * height))
    if scale >= 1.0:
        return width, height
    return max(1, math.floor(width * scale)), max(1, math.floor(height * scale))


def prepare_image(data: bytes, limits: ImageLimits) -> Prepared:
    """Decode fully (so truncation shows), resize within ``limits``, re-encode when asked or when resized."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            source_format = image.format or ""
            size = target_size(image.width, image.height, limits)
            if source_format == "JPEG" and size != image.size:
                image.draft("RGB", size)  # decode at a reduced scale: much faster for big photos
            image.load()
            if size == image.size and (limits.encode is None or limits.encode == source_format):
                mime = Image.MIME.get(source_format)
                if mime is None:
                    raise MediaFileError(f"Pillow reads it as {source_format or 'an unknown format'}, which has no MIME type")
                return Prepared(data, mime, image.width, image.height)
            resized = image.resize(size, Image.Resampling.LANCZOS) if size != image.size else image
            encoding = limits.encode or (source_format if source_format in ENCODINGS else "PNG")
            if encoding == "JPEG" and resized.mode not in ("RGB", "L"):
                resized = resized.convert("RGB")
            out = io.BytesIO()
            resized.save(out, format=encoding, quality=limits.quality)
            return Prepared(out.getvalue(), ENCODINGS[encoding], resized.width, resized.height)
    except UnidentifiedImageError:
        raise MediaFileError("it is not an image Pillow can read") from None
    except (OSError, SyntaxError, ValueError) as error:  # Pillow's errors for truncated or corrupt data
        raise MediaFileError(f"it is truncated or corrupt ({error})") from None
