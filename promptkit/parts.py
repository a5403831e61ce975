"""Content parts of a multimodal message: text, image, audio and video, OpenAI-style.

A :class:`Part` holds exactly the dict a chat request carries —
``{"type": "text", "text": ...}`` or ``{"type": "image_url", "image_url":
{"url": ..., "detail": ...}}`` (the url may also be a plain string, as some
servers accept) — and stays immutable and hashable, so PromptLists holding
parts can be compared and memoised like text-only ones.

>>> p = Part.media("image", "file:///data/cat.png")
>>> p.dump()
{'type': 'image_url', 'image_url': {'url': 'file:///data/cat.png'}}
>>> p.modality, p.url
('image', 'file:///data/cat.png')
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

__all__ = ["MODALITIES", "Part", "media_key"]

#: The modalities of ``prompt_mm``, in the order AISBench documents them.
MODALITIES = ("text", "image", "audio", "video")


def media_key(modality: str) -> str:
    """The part ``type`` (and key of its url) of a media modality: ``image`` → ``image_url``."""
    return f"{modality}_url"


_MODALITY_OF_TYPE = {"text": "text", **{media_key(m): m for m in MODALITIES[1:]}}


class Part:
    """One content part; build it with :meth:`text`, :meth:`media` or :meth:`from_dict`."""

    __slots__ = ("_data", "_key", "modality")

    def __init__(self, data: Mapping[str, Any], modality: str) -> None:
        self._data = copy.deepcopy(dict(data))
        self.modality = modality
        self._key: str | None = None

    @classmethod
    def text(cls, text: str) -> Part:
        return cls({"type": "text", "text": text}, "text")

    @classmethod
    def media(cls, modality: str, url: str) -> Part:
        key = media_key(modality)
        return cls({"type": key, key: {"url": url}}, modality)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Part:
        """A part from an OpenAI-style dict; its ``type`` must be text or ``<modality>_url``."""
        modality = _MODALITY_OF_TYPE.get(data.get("type"))  # type: ignore[arg-type]
        if modality is None:
            raise ValueError(f"a content part's type must be one of {sorted(_MODALITY_OF_TYPE)} (got {data.get('type')!r})")
        return cls(data, modality)

    @property
    def url(self) -> str | None:
        """The media URL (``None`` for text parts)."""
        if self.modality == "text":
            return None
        value = self._data.get(media_key(self.modality))
        return value.get("url") if isinstance(value, Mapping) else value

    @property
    def text_value(self) -> str:
        """The text of a text part (``''`` for media parts)."""
        return self._data.get("text", "") if self.modality == "text" else ""

    def with_url(self, url: str) -> Part:
        """This part with another URL, every other key kept."""
        data = copy.deepcopy(self._data)
        key = media_key(self.modality)
        if isinstance(data.get(key), Mapping):
            data[key]["url"] = url
        else:
            data[key] = url
        return Part(data, self.modality)

    def dump(self) -> dict[str, Any]:
        """A fresh copy of the part's dict, safe for the caller to change."""
        return copy.deepcopy(self._data)

    def _canonical(self) -> str:
        if self._key is None:
            self._key = json.dumps(self._data, sort_keys=True, ensure_ascii=False, default=repr)
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Part) and self._canonical() == other._canonical()

    def __hash__(self) -> int:
        return hash(self._canonical())

    def __repr__(self) -> str:
        return f"Part({self._data!r})"

    def describe(self) -> str:
        """A short line for people: the text, or the modality and its URL (data URLs abridged)."""
        if self.modality == "text":
            return repr(self.text_value)
        url = self.url or ""
        if url.startswith("data:"):
            header, _, payload = url.partition(",")
            url = f"{header},… ({len(payload)} base64 chars)"
        return f"[{self.modality}] {url}"
