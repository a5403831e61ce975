"""What a person needs to judge a media part: where it is, its type, size and (images) dimensions — never its base64.

Looking obeys the dataset's media policy as reading does: a local path outside
the media root is shown as refused and never looked up, only regular files are
opened, and an image's header is read, never its pixels (its pixel count is
checked against the decode limit).
"""

from __future__ import annotations

import base64
import binascii
import io
import os
from pathlib import Path
from typing import IO

from promptkit.data.sources.regular import not_regular
from promptkit.errors import DatasetError
from promptkit.media.files import MediaFileError, open_image, open_regular, sniff_mime
from promptkit.media.policy import MediaPolicy, confine, local_path, shown_url

__all__ = ["describe_media"]

#: Bytes read from an audio or video file to sniff its type (filetype looks at no more).
_SNIFF_BYTES = 8192


def describe_media(modality: str, url: str, root: Path | None, policy: MediaPolicy | None = None) -> str:
    """One line: ``'file:///d/cat.png · image/png · 1,234 bytes · 64×48'``, or what is wrong with it.

    ``root`` is the media root (default: the working folder); ``policy`` gives
    ``allow_outside_root`` and the decode limit.  A file that is not a regular
    file, or an image over the decode limit, is a :class:`DatasetError`, as
    when the file is read.
    """
    policy = policy or MediaPolicy()
    path = local_path(url)
    if url.startswith("data:"):
        header, _, payload = url.partition(",")
        where = f"{header},… ({len(payload):,} base64 chars)"
        try:
            data = base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError):
            return f"{where} · invalid base64"
        try:
            return f"{where} · {_details(modality, io.BytesIO(data), len(data), policy)}"
        except MediaFileError as error:
            raise DatasetError(f"the {modality} {shown_url(url)} cannot be used: {error}", key="url") from None
    if path is None:
        return f"{url} · remote, not fetched"
    real_root = (root or Path.cwd()).resolve()
    file, inside = confine(path, real_root, policy.allow_outside_root)
    if not inside:
        return f"{url} · refused: outside the media root {real_root}"
    try:
        problem = not_regular(os.stat(file).st_mode)
    except OSError as error:  # keep mode does not need the file here: say so, do not fail
        return f"{url} · cannot read {file}: {error.strerror}"
    if problem is not None:
        raise DatasetError(f"the {modality} file {path!r} {problem} (resolved to {file})", key=path)
    try:
        with open_regular(file) as opened:
            return f"{url} · {_details(modality, opened, os.fstat(opened.fileno()).st_size, policy)}"
    except OSError as error:
        return f"{url} · cannot read {file}: {error.strerror}"
    except MediaFileError as error:
        raise DatasetError(f"the {modality} file {path!r} ({file}) cannot be used: {error}", key=path) from None


def _details(modality: str, data: IO[bytes], size: int, policy: MediaPolicy) -> str:
    if modality == "image":
        from PIL import Image, UnidentifiedImageError  # Pillow is imported where an image is read

        try:
            with open_image(data, policy.limits) as image:
                return f"{Image.MIME.get(image.format or '', image.format)} · {size:,} bytes · {image.width}×{image.height}"
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
            return f"{size:,} bytes · not a readable image"
    return f"{sniff_mime(data.read(_SNIFF_BYTES)) or 'unknown type'} · {size:,} bytes"
