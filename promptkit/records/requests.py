"""What a request carries besides the prompt, from the model and inferencer configs: the ``request`` block of a record.

promptkit calls no model, so these settings are config keys it keeps and does
not use (the ``runtime`` of a model or inferencer, see :class:`~promptkit.Model`):

* ``model`` — the engine-facing model name: the model config's ``model`` (AISBench's
  served name), else its ``path`` (OpenCompass's: ``'gpt-4o'``, ``'Qwen/Qwen2.5-7B-Instruct'``),
  never the ``abbr``; ``None`` without either;
* ``max_tokens`` — ``max_out_len`` of ``infer_cfg.inferencer``, else of the model config
  (OpenCompass's infer task fills the inferencer's from the model's only when it has none);
* ``stop`` — the model config's ``stop_words``, then the inferencer's ``stopping_criteria``
  (OpenCompass's vLLM models send both), each once, in order;
* sampling — the model config's ``temperature``, then its ``generation_kwargs``, then the
  inferencer's own sampling keys (:data:`INFERENCER_SAMPLING`: MT-Bench's configs set ``temperature``
  on the inferencer), then the inferencer's ``generation_kwargs`` (OpenCompass's ``SCInferencer``
  passes them last); a later one wins.  Under the
  engines' names: ``max_new_tokens`` → ``max_tokens``, ``num_return_sequences`` → ``n``,
  ``eos_token_id`` → ``stop_token_ids`` (a list), ``do_sample=False`` → ``temperature=0`` unless a
  temperature is given (``do_sample`` itself is dropped); other keys pass as they are;
* ``n`` — ``SCInferencer``'s ``sc_size`` (the samples drawn per prompt);
* ``add_special_tokens`` (completion strings only; the pipeline sets it per prompt) — ``False`` when the
  text already starts with the tokenizer's BOS (:func:`bos_tokens`), so that the engine does not add a
  second one (vLLM's completions endpoint and ``LLM.generate`` add it by default), else ``True``.

Keys the configs do not give are left out: the engine's own default applies.  A key an engine
format does not take is left out of its lines and named in one warning (:mod:`promptkit.records.engines`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from promptkit.errors import ConfigError
from promptkit.meta_templates import Model
from promptkit.plan.inferencers import Inferencer, SCInferencer

__all__ = ["BOS_TOKENS", "INFERENCER_SAMPLING", "bos_tokens", "engine_model_name", "request_settings"]

#: The BOS tokens of common model families, as a meta template writes them (Llama 3, Llama 2 / Mistral, Gemma,
#: DeepSeek, GLM, Yi-style ``<|startoftext|>``): a control token of the model that is one of these is its BOS.
BOS_TOKENS = frozenset({"<|begin_of_text|>", "<s>", "<bos>", "<｜begin▁of▁sentence｜>", "[gMASK]", "<|startoftext|>"})

#: Sampling settings an inferencer config may carry beside ``generation_kwargs`` (Hugging Face ``generate``'s and the
#: engines' names), which reach the request.
INFERENCER_SAMPLING = (
    "temperature", "top_p", "top_k", "min_p", "seed", "do_sample", "repetition_penalty", "presence_penalty", "frequency_penalty",
    "max_new_tokens", "num_return_sequences", "stop_token_ids", "eos_token_id",
)

#: generation_kwargs names (Hugging Face ``generate``'s) → the engines' request names (OpenAI's, vLLM's).
_RENAMED = {"max_new_tokens": "max_tokens", "num_return_sequences": "n", "eos_token_id": "stop_token_ids"}


def engine_model_name(model: Model | None) -> str | None:
    """The name an engine serves the model under: the config's ``model``, else its ``path`` (see the module docstring)."""
    if model is None:
        return None
    runtime = _runtime(model)
    for key in ("model", "path"):
        value = runtime.get(key) if key in runtime else getattr(model, key, None)
        if isinstance(value, str) and value:
            return value
    return None


def bos_tokens(model: Model) -> tuple[str, ...]:
    """What a completion string starting with one of means the BOS is in the text: the tokenizer's ``bos_token`` when
    the model knows it (a chat template's folder or ``special_tokens``), else the model's control tokens among
    :data:`BOS_TOKENS`."""
    chat = getattr(model, "chat_template", None)
    bos = chat.special_tokens.get("bos_token") if chat is not None else None
    if bos:
        return (bos,)
    return tuple(token for token in model.token_guard.tokens if token in BOS_TOKENS)


def request_settings(model: Model | None, inferencer: Inferencer) -> dict[str, Any]:
    """The ``request`` block every prompt of a dataset × model shares (see the module docstring)."""
    runtime = _runtime(model) if model is not None else {}
    settings: dict[str, Any] = {"model": engine_model_name(model)}
    max_out_len = inferencer.runtime.get("max_out_len", runtime.get("max_out_len"))
    if max_out_len is not None:
        settings["max_tokens"] = _positive_int(max_out_len, "max_out_len")
    stop = [*_words(runtime.get("stop_words"), "stop_words"), *_words(inferencer.runtime.get("stopping_criteria"), "stopping_criteria")]
    if stop:
        settings["stop"] = list(dict.fromkeys(stop))
    if "temperature" in runtime:
        settings["temperature"] = runtime["temperature"]
    own = {key: inferencer.runtime[key] for key in INFERENCER_SAMPLING if key in inferencer.runtime}
    for kwargs in (runtime.get("generation_kwargs"), own or None, inferencer.runtime.get("generation_kwargs")):
        settings.update(_sampling(kwargs, settings))
    if isinstance(inferencer, SCInferencer):
        settings["n"] = inferencer.sc_size
    return settings


def _sampling(kwargs: Any, settings: Mapping[str, Any]) -> dict[str, Any]:
    if kwargs is None:
        return {}
    if not isinstance(kwargs, Mapping):
        raise ConfigError(f"generation_kwargs must be a dict (got {kwargs!r})", key="generation_kwargs")
    out: dict[str, Any] = {}
    for key, value in kwargs.items():
        if key == "do_sample":
            if value is False and "temperature" not in kwargs and "temperature" not in settings:
                out["temperature"] = 0
            continue
        name: str = _RENAMED.get(key) or key
        if name == "stop_token_ids":
            value = list(value) if isinstance(value, (list, tuple)) else [value]
        out[name] = value
    return out


def _words(value: Any, key: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(word, str) for word in value):
        raise ConfigError(f"{key} must be a list of strings (got {value!r})", key=key)
    return list(value)


def _positive_int(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{key} must be a positive int, the most tokens to generate (got {value!r})", key=key)
    return value


def _runtime(model: Model) -> Mapping[str, Any]:
    """The config keys a model keeps without using them (``ModelBase.runtime``); a model of another class may have none."""
    runtime = getattr(model, "runtime", None)
    return runtime if isinstance(runtime, Mapping) else {}
