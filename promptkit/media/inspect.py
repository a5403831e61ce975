"""What a person needs to judge a media part: where it is, its type, size and (images) dimensions — never its base64."""

from __future__ import annotations

import base64
import binascii
import io
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from promptkit.media.files import sniff_mime
from promptkit.media.policy import local_path

__all__ = ["describe_media"]


def describe_media(modality: str, url: str, root: Path | None) -> str:
    """One line: ``'file:///d/cat.png · image/png · 1,234 bytes · 64×48'``, or what is wrong with it."""
    path = local_path(url)
    if url.startswith("data:"):
        header, _, payload = url.partition(",")
        where = f"{header},… ({len(payload):,} base64 chars)"
        try:
            data = base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError):
            return f"{where} · invalid base64"
    elif path is not None:
        file = Path(path).expanduser()
        if not file.is_absolute() and root is not None:
            file = root / file
        where = url
        try:
            data = file.read_bytes()
        except OSError as error:
            return f"{where} · cannot read {file}: {error.strerror}"
    else:
        return f"{url} · remote, not fetched"
    return f"{where} · {_details(modality, data)}"


def _details(modality: str, data: bytes) -> str:
    if modality == "image":
        try:
            with Image.open(io.BytesIO(data)) as image:
                return f"{Image.MIME.get(image.format or '', image.format)} · {len(data):,} bytes · {image.width}×{image.height}"
        except (UnidentifiedImageError, OSError):
            return f"{len(data):,} bytes · not a readable image"
    return f"{sniff_mime(data) or 'unknown type'} · {len(data):,} bytes"
