"""The dataset's media policy: what happens to the URLs of image, audio and video parts.

A dataset config may give ``media=dict(...)``:

=====================  ==========================================================
``mode``               ``'keep'`` (default): URLs and paths exactly as the template
                       built them, no file read — AISBench's behaviour.
                       ``'resolve'``: local paths become absolute paths under the
                       dataset's folder, checked to exist.
                       ``'inline'``: local files (and ``data:`` URLs) are sent as
                       ``data:<mime>;base64,…``, the MIME type sniffed from the bytes.
                       A template ``data:image/jpeg;base64,{image}`` takes base64 or a
                       path in ``{image}``: either way the MIME type is the sniffed one.
``root``               the folder relative paths resolve against (default: the
                       folder of the dataset's data file)
``allow_outside_root`` accept paths that resolve outside ``root`` (default False)
``max_decode_pixels``  every mode: refuse images with more pixels than this, from
                       their header, before decoding (default: Pillow's
                       ``Image.MAX_IMAGE_PIXELS``, which promptkit never changes)
``max_edge``           inline: shrink images so the longer edge is at most this
``max_pixels``         inline: shrink images to at most this many pixels
``image_format``       inline: re-encode images as ``'JPEG'``, ``'PNG'`` or ``'WEBP'``
``quality``            inline: JPEG/WebP quality (default 90)
``max_part_bytes``     inline: the largest media part, in bytes, after encoding
``max_prompt_bytes``   inline: the most media bytes in one prompt
=====================  ==========================================================

Remote URLs (``https://…``) are never fetched.  Local means a plain path or a
``file://`` URL.  A local path is confined to ``root`` by its real path
(symlinks followed), and only regular files are read: see :func:`confine`.
"""

from __future__ import annotations

import base64
import binascii
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from promptkit.data.sources.regular import not_regular
from promptkit.errors import ConfigError, DatasetError, check_keys
from promptkit.media.files import ENCODINGS, ImageLimits, MediaFileError, Prepared, open_regular, prepare
from promptkit.parts import Part
from promptkit.promptlist import PromptList, RoleItem

__all__ = ["MEDIA_MODES", "MediaPolicy", "MediaResolver", "confine", "file_problem", "local_path", "shown_url"]

MEDIA_MODES = ("keep", "resolve", "inline")
_KEYS = ("mode", "root", "allow_outside_root", "max_decode_pixels", "max_edge", "max_pixels", "image_format", "quality", "max_part_bytes", "max_prompt_bytes")


@dataclass(frozen=True)
class MediaPolicy:
    """A dataset's ``media=dict(...)``, checked (see the module docstring)."""

    mode: str = "keep"
    root: Path | None = None
    allow_outside_root: bool = False
    limits: ImageLimits = ImageLimits()
    max_part_bytes: int | None = None
    max_prompt_bytes: int | None = None

    @classmethod
    def from_config(cls, cfg: Mapping[str, Any] | None, config_dir: Path | None) -> MediaPolicy:
        if cfg is None:
            return cls()
        if not isinstance(cfg, Mapping):
            raise ConfigError(f"media must be a dict such as dict(mode='inline', max_edge=1024) (got {cfg!r})", key="media")
        check_keys(cfg, _KEYS, "media", key_prefix="media.")
        mode = cfg.get("mode", "keep")
        if mode not in MEDIA_MODES:
            raise ConfigError(f"media.mode must be one of {', '.join(map(repr, MEDIA_MODES))} (got {mode!r})", key="media.mode")
        for key in ("max_decode_pixels", "max_edge", "max_pixels", "max_part_bytes", "max_prompt_bytes"):
            value = cfg.get(key)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value <= 0):
                raise ConfigError(f"media.{key} must be a positive int (got {value!r})", key=f"media.{key}")
        quality = cfg.get("quality", 90)
        if not isinstance(quality, int) or not 1 <= quality <= 100:
            raise ConfigError(f"media.quality must be an int from 1 to 100 (got {quality!r})", key="media.quality")
        encode = cfg.get("image_format")
        if encode is not None and (not isinstance(encode, str) or encode.upper() not in ENCODINGS):
            raise ConfigError(f"media.image_format must be one of {', '.join(map(repr, ENCODINGS))} (got {encode!r})", key="media.image_format")
        limits = ImageLimits(cfg.get("max_edge"), cfg.get("max_pixels"), encode.upper() if encode else None, quality, cfg.get("max_decode_pixels"))
        if mode != "inline":
            pixel_keys = [key for key in ("max_edge", "max_pixels", "image_format", "max_part_bytes", "max_prompt_bytes") if cfg.get(key) is not None]
            if pixel_keys:
                raise ConfigError(f"media.{pixel_keys[0]} applies only with mode='inline' (mode is {mode!r})", key=f"media.{pixel_keys[0]}")
        root = cfg.get("root")
        if root is not None:
            root = Path(root).expanduser()
            if not root.is_absolute() and config_dir is not None:
                root = config_dir / root
        return cls(mode, root, bool(cfg.get("allow_outside_root", False)), limits, cfg.get("max_part_bytes"), cfg.get("max_prompt_bytes"))


def local_path(url: str) -> str | None:
    """The path of a local URL (a ``file://`` URL or a plain path), or ``None`` for remote and ``data:`` URLs."""
    if url.startswith("file://"):
        return url[len("file://") :]
    if url.startswith("data:") or "://" in url:
        return None
    return url


def confine(path: str, root: Path, allow_outside_root: bool) -> tuple[Path, bool]:
    """Where the local ``path`` leads (relative to ``root``, symlinks followed), and whether it stays in ``root``.

    ``root`` must be a real path.  A path that leaves ``root`` as written is not
    looked up at all; one that stays is followed through its symlinks, and its
    real path is what must stay in ``root``.  ``allow_outside_root`` lets every
    path through (the real path is still returned).
    """
    candidate = Path(path).expanduser()
    joined = candidate if candidate.is_absolute() else root / candidate
    if not allow_outside_root and not Path(os.path.normpath(joined)).is_relative_to(root):
        return Path(os.path.normpath(joined)), False
    real = joined.resolve()
    return real, allow_outside_root or real.is_relative_to(root)


def file_problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as media (``'does not exist'``, ``'is a FIFO, not a regular file'``…), or ``None``."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "does not exist"
    except OSError as error:
        return f"cannot be looked at ({error.strerror})"
    return not_regular(mode)


class MediaResolver:
    """Applies a :class:`MediaPolicy` to the parts of rendered prompts; files are read once (LRU cache)."""

    #: Distinct files kept encoded in memory (shots and repeated images are read once).
    CACHE_SIZE = 256

    def __init__(self, policy: MediaPolicy, default_root: Path | None) -> None:
        self.policy = policy
        self.root = (policy.root or default_root or Path.cwd()).resolve()
        self._inline_file = lru_cache(maxsize=self.CACHE_SIZE)(self._inline_file_uncached)

    def __getstate__(self) -> dict[str, Any]:
        # The cache of files read stays behind (a bound lru_cache does not pickle); a loaded resolver reads files as it meets them.
        return {"policy": self.policy, "root": self.root}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.policy = state["policy"]
        self.root = state["root"]
        self._inline_file = lru_cache(maxsize=self.CACHE_SIZE)(self._inline_file_uncached)

    def apply(self, prompt: PromptList) -> PromptList:
        if self.policy.mode == "keep":
            return prompt
        total = 0
        items = []
        for item in prompt.items:
            if type(item) is RoleItem and item.parts is not None:
                parts = []
                for part in item.parts:
                    if part.modality != "text":
                        part, size = self._part(part)
                        total += size
                        if self.policy.max_prompt_bytes is not None and total > self.policy.max_prompt_bytes:
                            raise DatasetError(
                                f"the prompt's media add up to {total} bytes, over media.max_prompt_bytes={self.policy.max_prompt_bytes}; "
                                "lower max_edge or quality, or raise the cap",
                                key="media.max_prompt_bytes",
                            )
                    parts.append(part)
                item = RoleItem(item.role, item.prompt, item.fallback_role, item.begin, item.end, tuple(parts))
            items.append(item)
        return PromptList._of(tuple(items))

    def _part(self, part: Part) -> tuple[Part, int]:
        url = part.url or ""
        path = local_path(url)
        if self.policy.mode == "resolve":
            if path is None:
                return part, 0
            absolute = str(self.resolve(path, part.modality))
            return part.with_url("file://" + absolute if url.startswith("file://") else absolute), 0
        shown = shown_url(url)
        if url.startswith("data:"):
            data = self._base64_payload(url, part.modality)
            if data is None:  # the payload is a path, as with a data: template over a column of paths
                path = url.partition(",")[2]
            else:
                encoded, size = self._encode(data, part.modality, shown)
        if path is not None:
            shown = repr(path)
            resolved = self.resolve(path, part.modality)
            try:
                encoded, size = self._inline_file(str(resolved), part.modality)
            except OSError as error:
                raise DatasetError(f"cannot read the {part.modality} file {shown} ({resolved}): {error.strerror}", key=path) from None
            except MediaFileError as error:
                raise DatasetError(f"the {part.modality} file {shown} ({resolved}) cannot be used: {error}", key=path) from None
        elif not url.startswith("data:"):
            return part, 0  # remote: never fetched
        if self.policy.max_part_bytes is not None and size > self.policy.max_part_bytes:
            raise DatasetError(
                f"the {part.modality} {shown} is {size} bytes after encoding, over media.max_part_bytes={self.policy.max_part_bytes}; "
                "lower max_edge or quality, or raise the cap",
                key="media.max_part_bytes",
            )
        return part.with_url(encoded), size

    def resolve(self, path: str, modality: str) -> Path:
        """``path``'s real path against the root (see :func:`confine`); refused outside it unless allowed; must be a regular file."""
        resolved, inside = confine(path, self.root, self.policy.allow_outside_root)
        if not inside:
            raise DatasetError(
                f"the {modality} path {path!r} resolves to {resolved}, outside the dataset's folder {self.root}; "
                "move the file there, set media.root, or set media.allow_outside_root=True",
                key=path,
            )
        problem = file_problem(resolved)
        if problem is not None:
            raise DatasetError(f"the {modality} file {path!r} {problem} (resolved to {resolved})", key=path)
        return resolved

    def _inline_file_uncached(self, path: str, modality: str) -> tuple[str, int]:
        """The file as a data: URL and its encoded size; raises OSError or MediaFileError for the caller to place."""
        with open_regular(Path(path)) as file:
            data = file.read()
        prepared = prepare(modality, data, self.policy.limits)
        return _data_url(prepared), len(prepared.data)

    @staticmethod
    def _base64_payload(url: str, modality: str) -> bytes | None:
        """The bytes of a base64 ``data:`` URL, or ``None`` when its payload is not base64 (then it is taken as a path)."""
        header, _, payload = url.partition(",")
        if not header.endswith(";base64"):
            raise DatasetError(f"the {modality} {shown_url(url)} is a data: URL without ;base64; promptkit inlines base64 data only", key="url")
        try:
            return base64.b64decode(payload, validate=True)
        except (binascii.Error, ValueError):
            return None

    def _encode(self, data: bytes, modality: str, shown: str) -> tuple[str, int]:
        try:
            prepared = prepare(modality, data, self.policy.limits)
        except MediaFileError as error:
            raise DatasetError(f"the {modality} {shown} cannot be used: {error}", key="url") from None
        return _data_url(prepared), len(prepared.data)


def _data_url(prepared: Prepared) -> str:
    return f"data:{prepared.mime};base64,{base64.b64encode(prepared.data).decode('ascii')}"


def shown_url(url: str) -> str:
    """``url`` quoted, cut to 60 characters (a data: URL's base64 would fill the screen)."""
    return repr(url) if len(url) <= 60 else repr(url[:57] + "...")
