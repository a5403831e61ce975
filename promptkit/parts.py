"""Content parts of a multimodal message: text, image, audio and video, OpenAI-style.

A :class:`Part` holds the dict a chat request carries — ``{"type": "text",
"text": ...}`` or ``{"type": "image_url", "image_url": {"url": ...,
"detail": ...}}`` (the url may also be a plain string, as some servers
accept) — as a frozen value: the dict is read once, at construction, into
nested tuples (:func:`freeze`), and :meth:`Part.dump` builds a fresh dict at
the edge.  Parts are hashable, so PromptLists holding them can be compared and
memoised like text-only ones.

>>> p = Part.media("image", "file:///data/cat.png")
>>> p.dump()
{'type': 'image_url', 'image_url': {'url': 'file:///data/cat.png'}}
>>> p.modality, p.url
('image', 'file:///data/cat.png')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["MEDIA", "MODALITIES", "Frozen", "FrozenDict", "Part", "freeze", "media_key", "thaw"]

#: The modalities of ``prompt_mm``, in the order AISBench documents them.
MODALITIES = ("text", "image", "audio", "video")
#: What a media part may carry: the media of ``prompt_mm``, and document files (a standardized Sample's ``file_url``
#: parts), which a chat request carries as OpenAI's ``file`` parts (:meth:`Part.to_openai`).
MEDIA = (*MODALITIES[1:], "file")


def media_key(modality: str) -> str:
    """The part ``type`` (and key of its url) of a media modality: ``image`` → ``image_url``."""
    return f"{modality}_url"


_MODALITY_OF_TYPE = {"text": "text", **{media_key(m): m for m in MEDIA}}


class FrozenDict(tuple):  # type: ignore[type-arg]  # a tuple of (key, frozen value) pairs
    """A JSON object as an immutable tuple of ``(key, value)`` pairs, in the dict's order (see :func:`freeze`)."""

    __slots__ = ()

    def get(self, key: str, default: Any = None) -> Any:
        for name, value in self:
            if name == key:
                return value
        return default

    def replace(self, key: str, value: Any) -> FrozenDict:
        """This object with ``key`` set to ``value`` (appended when absent), every other pair kept."""
        if any(name == key for name, _ in self):
            return FrozenDict((name, value if name == key else old) for name, old in self)
        return FrozenDict((*self, (key, value)))


#: A frozen JSON value: str, number, bool, None, a tuple (JSON array) or a :class:`FrozenDict` (JSON object).
Frozen = Any


def freeze(value: Any) -> Frozen:
    """A JSON-like value as immutable nested tuples: mappings become :class:`FrozenDict`, lists and tuples tuples."""
    if isinstance(value, Mapping):
        return FrozenDict((key, freeze(item)) for key, item in value.items())
    if isinstance(value, (list, tuple)) and not isinstance(value, FrozenDict):
        return tuple(freeze(item) for item in value)
    return value


def thaw(value: Frozen) -> Any:
    """The plain value of a frozen one: fresh dicts and lists, safe for the caller to change."""
    if type(value) is FrozenDict:
        return {key: thaw(item) for key, item in value}
    if type(value) is tuple:
        return [thaw(item) for item in value]
    return value


def _canonical(value: Frozen) -> Frozen:
    """Key order does not matter for equality (the JSON objects are equal)."""
    if type(value) is FrozenDict:
        return ("{}", tuple(sorted(((key, _canonical(item)) for key, item in value), key=lambda pair: pair[0])))
    if type(value) is tuple:
        return ("[]", tuple(_canonical(item) for item in value))
    return value


class Part:
    """One content part; build it with :meth:`text`, :meth:`media` or :meth:`from_dict`.

    ``Part(data, modality)`` reads ``data`` once into its frozen form; parts are never changed afterwards.
    """

    __slots__ = ("_frozen", "_key", "modality")

    _frozen: FrozenDict
    modality: str

    def __init__(self, data: Mapping[str, Any], modality: str) -> None:
        self._frozen = data if type(data) is FrozenDict else freeze(data)
        self.modality = modality
        self._key: Any = None

    @classmethod
    def _of(cls, frozen: FrozenDict, modality: str) -> Part:
        part = cls.__new__(cls)
        part._frozen = frozen
        part.modality = modality
        part._key = None
        return part

    @classmethod
    def text(cls, text: str) -> Part:
        return cls._of(FrozenDict((("type", "text"), ("text", text))), "text")

    @classmethod
    def media(cls, modality: str, url: str) -> Part:
        key = media_key(modality)
        return cls._of(FrozenDict((("type", key), (key, FrozenDict((("url", url),))))), modality)

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
        value = self._frozen.get(media_key(self.modality))
        return value.get("url") if type(value) is FrozenDict else value

    @property
    def text_value(self) -> str:
        """The text of a text part (``''`` for media parts)."""
        return self._frozen.get("text", "") if self.modality == "text" else ""  # type: ignore[no-any-return]

    def with_url(self, url: str) -> Part:
        """This part with another URL, every other key kept (nothing is copied but the pairs on the way)."""
        key = media_key(self.modality)
        value = self._frozen.get(key)
        new = value.replace("url", url) if type(value) is FrozenDict else url
        return Part._of(self._frozen.replace(key, new), self.modality)

    def dump(self) -> dict[str, Any]:
        """A fresh copy of the part's dict, safe for the caller to change."""
        return thaw(self._frozen)  # type: ignore[no-any-return]

    def to_openai(self) -> dict[str, Any]:
        """The part as an OpenAI chat request carries it: :meth:`dump`, except that a ``file_url`` part is OpenAI's
        ``file`` part: a ``data:`` URL (the media inlined) as its ``file_data``, any other URL as ``file_url``, with
        the file's name when the URL has one.

        >>> Part.from_dict({"type": "file_url", "file_url": {"url": "docs/report.pdf"}}).to_openai()
        {'type': 'file', 'file': {'file_url': 'docs/report.pdf', 'filename': 'report.pdf'}}
        """
        if self.modality != "file":
            return self.dump()
        url = self.url or ""
        if url.startswith("data:"):
            return {"type": "file", "file": {"file_data": url}}
        name = url.rstrip("/").rpartition("/")[2].partition("?")[0]
        return {"type": "file", "file": {"file_url": url, **({"filename": name} if name else {})}}

    def _canonical(self) -> Any:
        if self._key is None:
            self._key = _canonical(self._frozen)
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Part) and (self._frozen == other._frozen or self._canonical() == other._canonical())

    def __hash__(self) -> int:
        return hash(self._canonical())

    def __repr__(self) -> str:
        return f"Part({self.dump()!r})"

    def describe(self) -> str:
        """A short line for people: the text, or the modality and its URL (data URLs abridged)."""
        if self.modality == "text":
            return repr(self.text_value)
        url = self.url or ""
        if url.startswith("data:"):
            header, _, payload = url.partition(",")
            url = f"{header},… ({len(payload)} base64 chars)"
        return f"[{self.modality}] {url}"

