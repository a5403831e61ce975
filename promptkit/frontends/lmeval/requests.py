"""The requests lm-eval 0.4.x builds for one document (``ConfigurableTask.construct_requests``), as prompt specs.

Each record carries lm-eval's request: ``request_type``, ``idx``, ``continuation`` (the likelihood kinds) or
``generation_kwargs`` (generation), and ``target`` (``doc_to_target``, also the record's ``gold``); the record's
``prompt`` is lm-eval's context and its ``index`` the ``doc_id``.  Per ``output_type``:

* ``multiple_choice`` — one ``loglikelihood`` request per choice of *that* document, ``idx`` the choice's index, the
  continuation ``target_delimiter + choice``; the context is rendered once.  In chat mode the delimiter is dropped
  unless the task's ``gen_prefix`` (its text as written) is set and does not end in whitespace.  With several inputs
  (winogrande) there is one context per choice and one continuation, ``delimiter + target``.  With
  ``acc_mutual_info`` among the metrics, one more request per choice follows, its context empty
  (``"unconditional": true``), ``idx`` counting on;
* ``loglikelihood`` — one request, the continuation ``doc_to_target`` itself (no delimiter);
* ``loglikelihood_rolling`` — one request scoring ``doc_to_target`` alone: ``"context": null``; the record's prompt is
  the context lm-eval builds for the document and does not send;
* ``generate_until`` — one request with the task's ``generation_kwargs`` (``until`` always there); its engine request
  (``--as vllm``, ``--as openai-batch``) stops at ``until``, takes ``max_gen_toks`` as ``max_tokens`` and
  ``do_sample: false`` as temperature 0.  ``repeats`` above 1 is the record's ``repeats`` and the request's ``n``.

Likelihood records are in ``ppl`` mode (engines' generation formats refuse them); generation ones in ``gen``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from promptkit.data.reader import ReaderConfig
from promptkit.errors import ConfigError
from promptkit.frontends.lmeval.prompt import UNCONDITIONAL, TaskPrompt
from promptkit.frontends.lmeval.task import Task
from promptkit.plan.inferencers import Inferencer, Run
from promptkit.plan.spec import PromptSpec
from promptkit.templates.protocol import Template
from promptkit.types import Row

__all__ = ["TaskRequests"]


class TaskRequests(Inferencer):
    """What each document of a task becomes (see the module docstring), for a :class:`~promptkit.plan.inferencers.Run`."""

    mode = "gen"
    lays_out_shots = True
    continuation_follows = True

    def __init__(self, task: Task, run: Run | None = None) -> None:
        super().__init__()
        self.task = task
        self.run = run
        config = task.config
        #: Whether contexts go through a chat template or meta template (lm-eval's ``--apply_chat_template``).
        self.chat = run is not None and run.turns
        prefix = config.gen_prefix
        self.delimiter = config.target_delimiter if not self.chat or (prefix and not prefix[-1].isspace()) else ""
        kwargs = config.generation_kwargs
        self._request = _engine_request(kwargs, config.repeats) if kwargs is not None else None

    def for_run(self, run: Run) -> TaskRequests:
        shots = run.controls.shots
        if shots == "as_turns" and not run.turns:
            raise ConfigError(
                "--shots as_turns lays the shots out as chat turns (lm-eval's --fewshot_as_multiturn), which needs a model that takes "
                "turns: a chat-template or chat model config, or one with a meta template (--model)",
                key="shots",
            )
        return TaskRequests(self.task, run)

    def select_template(self, prompt_template: Template | None, ice_template: Template | None, reader: ReaderConfig) -> Template:
        """The task's contexts laid out for the run (plain text, turns, or one user turn)."""
        run = self.run
        if run is None or not run.turns:
            return TaskPrompt(self.task, "plain", run.controls.system_prompt if run is not None else None)
        return TaskPrompt(self.task, "one_turn" if run.controls.shots == "in_user_turn" else "turns", run.controls.system_prompt)

    def row_specs(self, row: Row, test_rows: Sequence[Row]) -> Sequence[PromptSpec]:
        config = self.task.config
        fields = self.task.loaded.fields
        target = fields.target(row)
        kind = config.output_type
        if kind == "generate_until":
            assert config.generation_kwargs is not None  # completed for generate_until
            request: dict[str, Any] = {"request_type": kind, "idx": 0, "generation_kwargs": copy.deepcopy(dict(config.generation_kwargs)), "target": target}
            if config.repeats != 1:
                request["repeats"] = config.repeats
            return (PromptSpec(mode="gen", gold=target, fields=request, request=self._request),)
        if kind == "loglikelihood":
            return (PromptSpec(mode="ppl", gold=target, fields={"request_type": kind, "idx": 0, "continuation": target, "target": target}),)
        if kind == "loglikelihood_rolling":
            return (PromptSpec(mode="ppl", gold=target, fields={"request_type": kind, "idx": 0, "context": None, "continuation": target, "target": target}),)
        choices = fields.choices(row)
        delimiter = self.delimiter
        specs = []
        if self.task.loaded.multiple_input:
            for i in range(len(choices)):
                fields_i = {"request_type": "loglikelihood", "idx": i, "continuation": f"{delimiter}{target}", "target": target}
                specs.append(PromptSpec(mode="ppl", label=i, suffix=f"/{i}", gold=target, fields=fields_i))
        else:
            for i, choice in enumerate(choices):
                fields_i = {"request_type": "loglikelihood", "idx": i, "continuation": f"{delimiter}{choice}", "target": target}
                specs.append(PromptSpec(mode="ppl", suffix=f"/{i}", gold=target, fields=fields_i))
        if config.mutual_info:
            count = len(specs)
            for i, choice in enumerate(choices):
                fields_i = {"request_type": "loglikelihood", "idx": count + i, "continuation": f"{delimiter}{choice}", "target": target, "unconditional": True}
                specs.append(PromptSpec(mode="ppl", label=UNCONDITIONAL, suffix=f"/{count + i}", gold=target, fields=fields_i))
        return specs

    def __repr__(self) -> str:
        return f"TaskRequests({self.task.config.task!r}, {self.task.config.output_type!r})"


def _engine_request(kwargs: Mapping[str, Any], repeats: int) -> dict[str, Any]:
    """lm-eval's ``generation_kwargs`` under the engines' names (see the module docstring)."""
    out: dict[str, Any] = {}
    for key, value in kwargs.items():
        if key == "until":
            out["stop"] = list(value) if isinstance(value, (list, tuple)) else [value]
        elif key == "max_gen_toks":
            out["max_tokens"] = value
        elif key == "do_sample":
            if value is False:
                out["temperature"] = 0.0
        elif not (key == "temperature" and kwargs.get("do_sample") is False):
            out[key] = value
    if repeats != 1:
        out["n"] = repeats
    return out
