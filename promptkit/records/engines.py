"""Rendered prompts as engine inputs: lines of an OpenAI Batch API file, and vLLM requests.

``promptkit render --as openai-batch`` and ``--as vllm`` write one of these per
prompt (docs/cli.md shows both shapes):

* :class:`OpenAIBatch` — ``{"custom_id", "method": "POST", "url", "body"}``: chat messages go to
  ``/v1/chat/completions`` as ``messages``, completion strings to ``/v1/completions`` as ``prompt``;
  the body has the request block's ``model`` and the parameters OpenAI's API takes. Audio parts
  become OpenAI's ``input_audio`` (``{"data": base64, "format": "wav" | "mp3"}``), which needs the
  media inlined (``media=dict(mode='inline')``); images must be ``http(s)`` or inlined ``data:`` URLs,
  files (OpenAI's ``file`` parts) inlined ``data:`` URLs (``file_data``).
* :class:`VLLMRequests` — ``{"custom_id", "model", "prompts" | "messages", "sampling_params",
  "tokenization_kwargs" | "tools"}``: the keyword arguments of ``LLM.generate`` / ``LLM.chat``
  (``sampling_params`` as the fields of ``SamplingParams``); the body for vLLM's OpenAI-compatible
  server is ``model``, ``prompt`` or ``messages``, then ``sampling_params``, ``tokenization_kwargs``
  and ``tools`` merged in (its completions endpoint takes ``add_special_tokens``).

Both write generation requests: a likelihood (ppl) prompt, or a completion prompt whose media
travel beside the text, is refused with the reason. A request parameter the target does not take
is left out of every line and named in :attr:`dropped`, for one warning per run.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from promptkit.errors import ConfigError
from promptkit.meta_templates.protocol import FinalInput
from promptkit.records.json_text import JsonText
from promptkit.records.line_text import LineMaker, LineText, line_text
from promptkit.records.record import RenderedPrompt

__all__ = ["ENGINE_FORMATS", "EngineFormat", "OpenAIBatch", "VLLMRequests", "engine_format"]

#: The request parameters OpenAI's APIs take, by endpoint (what the request block may hold).
_OPENAI_PARAMS = {
    "/v1/chat/completions": frozenset(
        {"max_tokens", "max_completion_tokens", "stop", "temperature", "top_p", "n", "seed", "presence_penalty", "frequency_penalty",
         "logit_bias", "logprobs", "top_logprobs", "tools", "tool_choice", "parallel_tool_calls", "response_format", "user",
         "reasoning_effort"}
    ),
    "/v1/completions": frozenset(
        {"max_tokens", "stop", "temperature", "top_p", "n", "seed", "presence_penalty", "frequency_penalty", "logit_bias", "logprobs",
         "echo", "best_of", "suffix", "user"}
    ),
}
#: The fields of vLLM's ``SamplingParams`` the request block may hold (vLLM 0.33; tests check them against its source).
_VLLM_SAMPLING = frozenset(
    {"n", "presence_penalty", "frequency_penalty", "repetition_penalty", "temperature", "top_p", "top_k", "min_p", "seed", "stop",
     "stop_token_ids", "ignore_eos", "max_tokens", "min_tokens", "logprobs", "prompt_logprobs", "skip_special_tokens",
     "spaces_between_special_tokens", "include_stop_str_in_output", "logit_bias", "allowed_token_ids", "bad_words"}
)
#: Request block keys that are not sampling parameters: where each target puts them is its own business.
_NOT_SAMPLING = frozenset({"model", "add_special_tokens", "tools", "tool_choice"})
_DATA_URL = re.compile(r"data:audio/([\w.+-]+);base64,(.*)", re.DOTALL)
_AUDIO_FORMATS = {"wav": "wav", "x-wav": "wav", "wave": "wav", "vnd.wave": "wav", "mpeg": "mp3", "mp3": "mp3"}


class EngineFormat(ABC):
    """One line per prompt for an engine (see the module docstring); ``custom_id`` values must not repeat in a file.

    What a line takes from a prompt's request block (the model name, the parameters the target takes) is worked out
    once per block, into a function that builds the block's lines: the prompts of a renderer share one block object
    (or one per row whose dataset adds fields).  :meth:`text` is what ``promptkit render`` writes: the line's JSON
    text, put together from the block's constant text and the prompt's (:mod:`promptkit.records.line_text`).
    """

    name: ClassVar[str]

    def __init__(self) -> None:
        #: Request parameters left out because the target does not take them, in the order met.
        self.dropped: dict[str, None] = {}
        self._seen: set[str] = set()
        #: (id of a request block, whether the prompt is chat messages) → what its lines are made with.
        self._blocks: dict[tuple[int, bool], _Block] = {}
        self._last: _Block | None = None  # the block of the prompt before

    def line(self, prompt: RenderedPrompt) -> dict[str, Any]:
        """The line for ``prompt``; a ``ConfigError`` names the prompt when it cannot be sent."""
        return self._block(prompt).line(prompt.id, prompt.prompt)

    def text(self, prompt: RenderedPrompt, encode: JsonText, nulls: list[str]) -> str:
        """``encode(self.line(prompt), nulls)`` and its newline: the line's JSON text, put together from its request
        block's text and the prompt's where it can be (:mod:`promptkit.records.line_text`), else encoded whole."""
        block = self._block(prompt)
        texts = block.texts
        compact = encode.compact
        if compact not in texts:
            texts[compact] = line_text(block.line, block.chat, encode)
        maker = texts[compact]
        text = maker(prompt.id, prompt.prompt) if maker is not None else None
        return text if text is not None else encode(block.line(prompt.id, prompt.prompt), nulls) + "\n"

    def _block(self, prompt: RenderedPrompt) -> _Block:
        """What the lines of ``prompt``'s request block are made with, once the prompt is checked — a generation prompt,
        no media beside a completion string, an id not met before — and its id noted as met."""
        spec = prompt.spec
        if spec.mode == "ppl" or (spec.mode == "calib" and spec.label is not None):
            raise ConfigError(
                f"--as {self.name} writes generation requests, and prompt {prompt.id!r} is scored for likelihood (ppl); write the "
                "records (without --as) and score them with the engine's log-probabilities"
            )
        if prompt.media:
            raise ConfigError(
                f"prompt {prompt.id!r} is a completion string with media beside it (a multimodal template for a completion model), "
                f"which --as {self.name} cannot carry: use a chat model config, whose messages hold the media as content parts"
            )
        ident = prompt.id
        seen = self._seen
        count = len(seen)
        seen.add(ident)
        if len(seen) == count:
            raise ConfigError(
                f"custom_id {ident!r} appears twice: a request file holds one request per id; render one model per file "
                "(a model config with one model) and give the datasets different abbrs"
            )
        request = prompt.request
        chat = type(prompt.prompt) is not str
        block = self._last  # (consecutive prompts nearly always share their block)
        if block is None or block.request is not request or block.chat is not chat:
            block = self._blocks.get((id(request), chat))
            if block is None or block.request is not request:
                block = self._blocks[id(request), chat] = _Block(request, chat, self._maker(dict(request or {"model": None}), chat))
            self._last = block
        return block

    @abstractmethod
    def _maker(self, request: dict[str, Any], chat: bool) -> LineMaker:
        """The line maker of a request block (``request`` a copy, the format's to change): what every line of the block
        takes from it, bound once; the parameters the target does not take are noted in :attr:`dropped` here."""

    def _drop(self, keys: Sequence[str]) -> None:
        for key in keys:
            self.dropped[key] = None


class OpenAIBatch(EngineFormat):
    """A line of the OpenAI Batch API's input file."""

    name = "openai-batch"

    def _maker(self, request: dict[str, Any], chat: bool) -> LineMaker:
        model = request.pop("model")
        if not model:
            raise ConfigError(
                f"--as {self.name}: the request body needs the model's name, and the model config has none; give it path= (or "
                "model=) with the API's model name, e.g. path='gpt-4o-mini'"
            )
        url = "/v1/chat/completions" if chat else "/v1/completions"
        allowed = _OPENAI_PARAMS[url]
        # add_special_tokens is vLLM's (and Hugging Face's): OpenAI's API has no such switch, so it is not reported.
        self._drop([key for key in request if key not in allowed and key != "add_special_tokens"])
        parameters = {key: value for key, value in request.items() if key in allowed}

        def line(ident: str, final: FinalInput) -> dict[str, Any]:
            body: dict[str, Any] = {"model": model}
            if isinstance(final, str):
                body["prompt"] = final
            else:
                body["messages"] = [_openai_message(message, ident) for message in final]
            if parameters:
                body.update(parameters)
            return {"custom_id": ident, "method": "POST", "url": url, "body": body}

        return line


class VLLMRequests(EngineFormat):
    """The keyword arguments of vLLM's ``LLM.generate`` / ``LLM.chat`` for one prompt, with its id and model."""

    name = "vllm"

    def _maker(self, request: dict[str, Any], chat: bool) -> LineMaker:
        model = request.pop("model")
        sampling = {key: value for key, value in request.items() if key in _VLLM_SAMPLING}
        self._drop([key for key in request if key not in _VLLM_SAMPLING and key not in _NOT_SAMPLING])
        extra: dict[str, Any] = {}
        if chat:
            if "tools" in request:
                extra["tools"] = request["tools"]
            if "tool_choice" in request:
                self._drop(["tool_choice"])  # LLM.chat takes tools, not tool_choice
        elif "add_special_tokens" in request:
            extra["tokenization_kwargs"] = {"add_special_tokens": request["add_special_tokens"]}
        prompt_key = "messages" if chat else "prompts"
        extra_items = tuple(extra.items())

        def line(ident: str, final: FinalInput) -> dict[str, Any]:
            # Each line its own dicts: a caller may change one line.
            out = {"custom_id": ident, "model": model, prompt_key: final, "sampling_params": sampling.copy()}
            for key, value in extra_items:
                out[key] = value.copy() if isinstance(value, dict) else value
            return out

        return line


@dataclass(frozen=True, eq=False, slots=True)
class _Block:
    """What the lines of one request block are made with."""

    #: The request block (kept alive: blocks are found by its id).
    request: Mapping[str, Any] | None
    #: Whether its prompts are chat messages.
    chat: bool
    line: LineMaker
    #: The block's line text maker by the encoder's compactness (``None``: lines are encoded whole), made when first asked.
    texts: dict[bool, LineText | None] = field(default_factory=dict)


#: The ``--as`` choices besides the records themselves.
ENGINE_FORMATS: dict[str, type[EngineFormat]] = {OpenAIBatch.name: OpenAIBatch, VLLMRequests.name: VLLMRequests}


def engine_format(name: str) -> EngineFormat:
    """A fresh writer of the format ``name`` (one of :data:`ENGINE_FORMATS`)."""
    if name not in ENGINE_FORMATS:
        raise ConfigError(f"unknown engine format {name!r}; the formats are {', '.join(sorted(ENGINE_FORMATS))}")
    return ENGINE_FORMATS[name]()


def _openai_message(message: Mapping[str, Any], where: str) -> dict[str, Any]:
    content = message.get("content")
    if isinstance(content, str) or content is None:
        return dict(message)
    return {**message, "content": [_openai_part(part, where) for part in content]}


def _openai_part(part: Mapping[str, Any], where: str) -> dict[str, Any]:
    kind = part.get("type")
    if kind == "text":
        return dict(part)
    if kind == "audio_url":
        url = _url(part, "audio_url")
        match = _DATA_URL.fullmatch(url)
        audio_format = _AUDIO_FORMATS.get(match.group(1).lower()) if match else None
        if match is None or audio_format is None:
            shown = url if len(url) < 80 else url[:77] + "..."
            raise ConfigError(
                f"prompt {where!r}: OpenAI's chat API takes audio as input_audio, base64 WAV or MP3 data, but the audio part is "
                f"{shown!r}; inline the media (media=dict(mode='inline') in the dataset config) with .wav or .mp3 files"
            )
        return {"type": "input_audio", "input_audio": {"data": match.group(2), "format": audio_format}}
    if kind == "image_url":
        url = _url(part, "image_url")
        if not url.startswith(("http://", "https://", "data:")):
            raise ConfigError(
                f"prompt {where!r}: OpenAI's API fetches images from http(s) URLs or takes data: URLs, not {url!r}; inline the "
                "media (media=dict(mode='inline') in the dataset config)"
            )
        value = part["image_url"]
        return {"type": "image_url", "image_url": dict(value) if isinstance(value, Mapping) else {"url": value}}
    if kind == "file":
        file = part.get("file")
        if isinstance(file, Mapping) and "file_data" in file:
            return {"type": "file", "file": dict(file)}
        given = file.get("file_url") if isinstance(file, Mapping) else file
        raise ConfigError(
            f"prompt {where!r}: OpenAI's chat API takes a file as its base64 data (file_data), not {given!r}; inline the media "
            "(media=dict(mode='inline') in the dataset config)"
        )
    raise ConfigError(f"prompt {where!r}: OpenAI's chat API has no {kind!r} content part (it takes text, image_url, input_audio and file)")


def _url(part: Mapping[str, Any], key: str) -> str:
    value = part.get(key)
    url = value.get("url") if isinstance(value, Mapping) else value
    return url if isinstance(url, str) else ""
