"""Reading media bytes: regular files only, what a file is (sniffed from its bytes), images checked, resized and re-encoded.

Only regular files are opened: a FIFO, a device such as ``/dev/zero``, a
socket or a folder would block or never end.  An image's size is read from its
header and checked against the decode limit before any pixel is decoded, so a
small file that decodes to gigabytes (a decompression bomb) is refused.

Audio and video are passed on as their bytes with the sniffed MIME type; no
decoding is needed for that.  Frame sampling for video would go here, beside
:func:`prepare_image`, and nothing else would change.
"""

from __future__ import annotations

import io
import math
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, BinaryIO

from promptkit.data.sources import regular

if TYPE_CHECKING:
    from PIL import ImageFile

__all__ = [
    "ImageLimits",
    "MediaFileError",
    "Prepared",
    "decode_limit",
    "open_image",
    "open_regular",
    "prepare",
    "sniff_mime",
]

#: Formats an image can be re-encoded to, by the name a config gives.
ENCODINGS = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}


class MediaFileError(Exception):
    """The bytes are not what the part needs (not an image, truncated, unknown type); the caller adds where."""


@dataclass(frozen=True, slots=True)
class ImageLimits:
    """Resize (aspect kept, never enlarged) and re-encode settings for images, and the most pixels decoded."""

    max_edge: int | None = None
    max_pixels: int | None = None  # the resize target, not a refusal: see max_decode_pixels
    encode: str | None = None  # one of ENCODINGS; None keeps the file's own format
    quality: int = 90
    max_decode_pixels: int | None = None  # images with more pixels are refused; None: Pillow's Image.MAX_IMAGE_PIXELS


@dataclass(frozen=True, slots=True)
class Prepared:
    """Media bytes ready to be sent, with their MIME type (and size in pixels for images)."""

    data: bytes
    mime: str
    width: int | None = None
    height: int | None = None


def open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading, if it is a regular file; else :class:`MediaFileError`.

    The check is :mod:`promptkit.data.sources.regular`'s, made on the opened file, which is opened without blocking
    and without following a final symlink: a FIFO or a link swapped in after the caller's checks is refused instead
    of hanging or leading elsewhere.
    """
    try:
        return regular.open_regular(path, follow_symlinks=False)
    except regular.NotRegularError as error:
        raise MediaFileError(str(error)) from None


def decode_limit(limits: ImageLimits) -> tuple[int | None, str]:
    """The most pixels an image may have, and where that number comes from (for messages)."""
    if limits.max_decode_pixels is not None:
        return limits.max_decode_pixels, "media.max_decode_pixels"
    from PIL import Image  # Pillow and filetype are imported where media is read: `import promptkit` reads neither

    pillow = Image.MAX_IMAGE_PIXELS
    return (int(pillow) if pillow is not None else None), "Pillow's Image.MAX_IMAGE_PIXELS"


def open_image(fp: IO[bytes], limits: ImageLimits) -> ImageFile.ImageFile:
    """The image in ``fp`` with only its header read; :class:`MediaFileError` if it has more pixels than the decode limit."""
    from PIL import Image

    try:
        image = _identify(fp)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:  # a plugin's own check, while reading a header
        raise MediaFileError(f"Pillow refuses to decode it ({error})") from None
    limit, source = decode_limit(limits)
    pixels = image.width * image.height
    if limit is not None and pixels > limit:
        image.close()
        raise MediaFileError(
            f"it is {image.width}×{image.height} = {pixels:,} pixels, over the decode limit of {limit:,} ({source}); promptkit does not decode it"
        )
    return image


def _identify(fp: IO[bytes]) -> ImageFile.ImageFile:
    """``Image.open`` without its decompression-bomb check, through Pillow's own registry of formats.

    Above twice Pillow's limit that check raises without the image's size, and
    between the limit and twice it, it warns through the process's warning
    filters, which promptkit must not change (they are global, and swapping
    them is not thread-safe); :func:`open_image` makes the check itself, with
    the size in its message and the dataset's own limit.
    """
    from PIL import Image, UnidentifiedImageError

    Image.init()
    prefix = fp.read(16)
    for format_id in Image.ID:
        factory, accept = Image.OPEN[format_id]
        try:  # a plugin's accept() may itself fail on a short prefix (struct.error from BMP's on an empty file)
            verdict = accept(prefix) if accept is not None else True
            if not verdict or isinstance(verdict, str):  # a str is Pillow's "almost this format" note
                continue
            fp.seek(0)
            return factory(fp, "")
        except (SyntaxError, IndexError, TypeError, struct.error):  # what Image.open takes for "not this format"
            continue
    raise UnidentifiedImageError("cannot identify image file")


def sniff_mime(data: bytes) -> str | None:
    """The MIME type the bytes' signature shows, or ``None``."""
    import filetype  # type: ignore[import-untyped]

    kind = filetype.guess(data)
    return kind.mime if kind is not None else None


def prepare(modality: str, data: bytes, limits: ImageLimits) -> Prepared:
    """Check ``data`` fits ``modality`` and, for images, apply ``limits``."""
    if not data:
        raise MediaFileError("it is empty (0 bytes)")
    if modality == "image":
        return prepare_image(data, limits)
    mime = sniff_mime(data)
    if modality == "file":  # a document: any type, PDF the one OpenAI's file parts take
        return Prepared(data, mime or "application/octet-stream")
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
    from PIL import Image, UnidentifiedImageError

    try:
        with open_image(io.BytesIO(data), limits) as image:
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
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:  # a plugin's own check, while decoding
        raise MediaFileError(f"Pillow refuses to decode it ({error})") from None
    except (OSError, SyntaxError, ValueError) as error:  # Pillow's errors for truncated or corrupt data
        raise MediaFileError(f"it is truncated or corrupt ({error})") from None
