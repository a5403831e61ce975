"""One rendered prompt as the page's data: PromptList, final input, spans, token counts, media, gold answer, record.

Everything here is plain JSON; the page script turns it into elements, and only
ever as text (``textContent``), so row text cannot become markup.  Media parts
are replaced by a reference into a shared table of thumbnails and descriptions,
and PromptList texts by one into a table of texts (:class:`PageTables`): base64
never reaches the page as text, and an image or shot used by many prompts is
stored once.
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from promptkit.errors import PromptkitError
from promptkit.media import MediaPolicy, describe_media
from promptkit.media.thumbnails import thumbnail
from promptkit.meta_templates import CompletionModel, Model
from promptkit.meta_templates.completion import parts_to_text
from promptkit.meta_templates.spans import find_spans
from promptkit.parts import MODALITIES, Part, media_key
from promptkit.promptlist import Item, Marker, PromptList, RoleItem
from promptkit.records.record import RenderedPrompt
from promptkit.render.renderer import Renderer

__all__ = ["PageTables", "prompt_entries"]

Entry = dict[str, Any]

#: The ``type`` of a media content part (``image_url``, ``audio_url``, ``video_url``).
_MEDIA_TYPES = frozenset(media_key(modality) for modality in MODALITIES if modality != "text")


class PageTables:
    """What many prompts share, stored once: media (modality, thumbnail, description) and the PromptList's texts."""

    def __init__(self) -> None:
        self.media: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self._media: dict[tuple[str, str, Path | None], int] = {}
        self._texts: dict[str, int] = {}

    def media_ref(self, modality: str, url: str, root: Path | None, policy: MediaPolicy) -> int:
        """The index of the part at ``url`` (looked at once per URL and media root)."""
        key = (modality, url, root)
        found = self._media.get(key)
        if found is None:
            found = self._media[key] = len(self.media)
            src = thumbnail(url, root, policy) if modality == "image" else None
            self.media.append({"kind": modality, "src": src, "desc": describe_media(modality, url, root, policy)})
        return found

    def text_ref(self, text: str) -> int:
        """The index of ``text``: a shot's or system prompt's text is stored once for every prompt that holds it."""
        found = self._texts.get(text)
        if found is None:
            found = self._texts[text] = len(self.texts)
            self.texts.append(text)
        return found


def prompt_entries(renderer: Renderer, index: int, dataset: int, model: int, tables: PageTables) -> list[Entry]:
    """The entries of test row ``index``'s prompts; ``dataset`` and ``model`` are the page's indices of the pair."""
    prompts = renderer.render(index)
    builder = _Builder(renderer, tables)
    gold = _gold(renderer, index)
    continuation = _continuation(prompts)
    out = []
    for prompt in prompts:
        entry = builder.entry(prompt)
        entry.update(d=dataset, m=model, i=index)
        turn_gold = _turn_gold(gold, prompt.turn)
        if turn_gold is not None:
            entry["gold"] = turn_gold
        if continuation is not None and prompt.mode == "ppl":
            entry["cont"] = continuation
        out.append(entry)
    return out


class _Builder:
    def __init__(self, renderer: Renderer, tables: PageTables) -> None:
        self.renderer = renderer
        self.model: Model = renderer.model or CompletionModel(abbr=None)
        self.tables = tables
        self.root = renderer.media_root
        self.policy = renderer.dataset.media

    def entry(self, prompt: RenderedPrompt) -> Entry:
        refs: list[int] = []
        entry: Entry = {"mode": prompt.mode, "shots": prompt.ice_idx}
        if prompt.label is not None:
            entry["label"] = _shown(prompt.label)
        if prompt.turn is not None:
            entry["turn"] = prompt.turn
        flags = [name for name in ("truncated", "over_limit") if getattr(prompt, name)]
        if prompt.escaped_tokens:
            flags.append("escaped " + ", ".join(prompt.escaped_tokens))
        if flags:
            entry["flags"] = flags
        entry["pl"] = self._promptlist(prompt.intermediate)
        final = self._scrubbed(prompt.prompt, refs)
        entry["f"] = final
        if prompt.media is not None:
            entry["mm"] = [self._ref(Part.from_dict(part)) for part in prompt.media]
        if refs:
            entry["refs"] = refs
        self._spans(prompt, entry)
        segments = self.renderer.token_segments(prompt)
        if segments is not None:
            entry["tok"] = {"total": segments.total, "system": segments.system, "shots": segments.shots, "rest": segments.rest}
        record = prompt.to_record()
        record["prompt"] = None  # the page puts `f` back: the final input is stored once
        if "media" in record:
            record["media"] = self._scrubbed(record["media"], [])
        entry["rec"] = record
        return entry

    def _ref(self, part: Part) -> int:
        return self.tables.media_ref(part.modality, part.url or "", self.root, self.policy)

    def _promptlist(self, intermediate: str | PromptList) -> list[list[Any]]:
        """``["t", text]``, ``["m", section, pos]`` and ``["r", role, text, fallback_role, parts]`` per item (texts as table refs)."""
        text = self.tables.text_ref
        if isinstance(intermediate, str):
            return [["t", text(intermediate)]]
        items: list[list[Any]] = []
        for item in intermediate:
            if isinstance(item, Marker):
                items.append(["m", item.section, item.pos])
            elif isinstance(item, RoleItem):
                parts = None
                if item.parts is not None:
                    parts = [["text", text(part.text_value)] if part.modality == "text" else [part.modality, self._ref(part)] for part in item.parts]
                items.append(["r", item.role, None if item.prompt is None else text(item.prompt), item.fallback_role, parts])
            else:
                items.append(["t", text(item)])
        return items

    def _scrubbed(self, value: Any, refs: list[int]) -> Any:
        """``value`` (a final input or media list) with each media part's ``data:`` URL cut short; refs in order of parts."""
        if isinstance(value, str):
            return value
        if isinstance(value, Mapping):
            if value.get("type") in _MEDIA_TYPES:
                part = Part.from_dict(value)
                refs.append(self._ref(part))
                url = part.url or ""
                if url.startswith("data:"):
                    header = url.partition(",")[0]
                    return part.with_url(f"{header},… ({len(url) - len(header) - 1:,} base64 characters)").dump()
                return part.dump()
            return {key: self._scrubbed(item, refs) for key, item in value.items()}
        if isinstance(value, Sequence):
            return [self._scrubbed(item, refs) for item in value]
        return value

    def _spans(self, prompt: RenderedPrompt, entry: Entry) -> None:
        """``sp``: ``[piece, start, end, message, tokens]`` per span (trailing ``None``s left out); or ``spx``: why not."""
        mode = self.renderer.plan.mode  # how the prompt rendered (a calibration prompt's, an lm-eval likelihood context's: the plan's)
        try:
            spans = find_spans(self.model, self._text_only(prompt, mode), mode, render=self.renderer.plan.span_render)
        except PromptkitError as error:
            entry["spx"] = str(error)
            return
        counter = self.renderer.token_counter
        final = prompt.prompt
        rows = []
        for span in spans:
            text = final if isinstance(final, str) else final[span.message or 0]["content"]
            piece = text[span.start : span.end]
            row: list[Any] = [span.piece, span.start, span.end]
            if counter is not None:
                row += [span.message, counter(piece) if piece else 0]
            elif span.message is not None:
                row.append(span.message)
            rows.append(row)
        entry["sp"] = rows


    def _text_only(self, prompt: RenderedPrompt, mode: str) -> str | PromptList:
        """The prompt to locate pieces in: for a completion model's media, a copy with each part as its placeholder text.

        The copy is used only when it renders to the very same string; otherwise :func:`find_spans` says why it cannot.
        """
        intermediate = prompt.intermediate
        model = self.model
        if prompt.media is None or not isinstance(intermediate, PromptList) or not isinstance(model, CompletionModel):
            return intermediate
        items: list[Item] = []
        for item in intermediate.items:
            if type(item) is RoleItem and item.parts is not None:
                item = RoleItem(item.role, parts_to_text(item.parts, model.mm_placeholders, []), item.fallback_role, item.begin, item.end)
            items.append(item)
        copy = PromptList(items)
        return copy if model.render(copy, mode) == prompt.prompt else intermediate


def _gold(renderer: Renderer, index: int) -> Any:
    column = renderer.output_column
    if column is None or index < 0:
        return None
    return renderer.test_rows[index].get(column)


def _turn_gold(gold: Any, turn: int | None) -> str | None:
    """The gold answer as text; a dialogue's turn shows its own answer when the column holds one per turn."""
    if gold is None:
        return None
    if turn is not None and isinstance(gold, Sequence) and not isinstance(gold, str) and turn < len(gold):
        gold = gold[turn]
    return _shown(gold)


def _shown(value: Hashable | Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _continuation(prompts: list[RenderedPrompt]) -> int | None:
    """Where the ppl labels' completion strings part: the scored continuation starts at the longest common prefix."""
    finals = [p.prompt for p in prompts if p.mode == "ppl"]
    if len(finals) < 2 or not all(isinstance(f, str) for f in finals):
        return None
    return len(os.path.commonprefix(finals))  # type: ignore[arg-type]  # strings, checked above
