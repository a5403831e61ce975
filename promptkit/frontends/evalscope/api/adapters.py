"""``evalscope.api.benchmark``'s adapters as adapter files subclass them: ``DefaultDataAdapter`` and ``MultiChoiceAdapter``.

An adapter is EvalScope's pipeline with hooks.  promptkit reads the rows itself (the loader subsets, splits, limits,
filters and shuffles: :mod:`promptkit.frontends.evalscope.pipeline`) and runs the hooks that build prompts, in
EvalScope's order:

* ``record_to_sample(record)`` → a :class:`~promptkit.frontends.evalscope.api.samples.Sample` (or a list of them);
  ``sample_filter(sample)`` keeps it or not;
* per test sample, ``process_sample_str_input`` (a string input: the few-shot or zero-shot text, then
  ``[system?, user]``) or ``process_sample_messages_input`` (messages: sent as built, the system prompt added when
  they have no system message);
* ``process_sample_input``: with ``few_shot_num > 0``, every few-shot sample of the subset through
  ``sample_to_fewshot``, joined by a blank line, into ``format_fewshot_template(fewshot, sample)``; else
  ``format_prompt_template(sample)``.

The defaults format ``prompt_template`` with ``question`` and ``few_shot_prompt_template`` with ``fewshot`` and
``question``; :class:`MultiChoiceAdapter` formats with ``question``, ``choices`` and ``letters``
(:mod:`~promptkit.frontends.evalscope.api.multi_choices`), falls back to an English few-shot header before
``prompt_template``, and writes shots as the question, the choice lines and ``ANSWER: X``.

Hooks of inference, scoring and reports (``_on_inference``, ``extract_answer``, ``match_score`` …) are EvalScope's
business: defining them changes nothing here, and the front end refuses an adapter whose inference hooks build the
request (:data:`INFERENCE_HOOKS`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from promptkit.frontends.evalscope.api.messages import ChatMessageSystem, ChatMessageUser
from promptkit.frontends.evalscope.api.meta import BenchmarkMeta
from promptkit.frontends.evalscope.api.multi_choices import FEW_SHOT_TEMPLATE, format_example, prompt, valid_template
from promptkit.frontends.evalscope.api.samples import Sample

__all__ = ["INFERENCE_HOOKS", "LOADING_HOOKS", "DataAdapter", "DefaultDataAdapter", "LocalLoader", "MultiChoiceAdapter", "RunConfig"]

#: Hooks that build the request when the model is called: promptkit calls no model, so it cannot run them.
INFERENCE_HOOKS = ("run_inference", "_on_inference_start", "_on_inference")
#: Hooks that load the rows: promptkit reads the local layouts and ``--rows`` itself.
LOADING_HOOKS = ("load_dataset", "load", "load_from_remote", "load_subsets", "load_subset", "load_fewshot_subset", "_should_load_fewshot")


@dataclass(frozen=True)
class RunConfig:
    """What an adapter reads of EvalScope's ``TaskConfig`` while it builds prompts: the seed (few-shot and choice
    shuffling), the limit (test rows per subset: a count, or a fraction in [0, 1]); each sample is rendered once
    (``repeats`` 1), for an OpenAI-compatible API."""

    seed: int | None = 42
    limit: int | float | None = None
    repeats: int = 1
    eval_type: str = "openai_api"


@dataclass(frozen=True)
class LocalLoader:
    """What :meth:`DefaultDataAdapter.load_from_disk` answers: whether a local folder is read with EvalScope's local
    file loader (``<subset>_<split>.jsonl`` …) rather than as a Hugging Face ``datasets`` folder."""

    use_local_loader: bool


class DataAdapter:
    """The base of every adapter: the benchmark's declaration as attributes, and the loading state."""

    def __init__(self, benchmark_meta: BenchmarkMeta, task_config: RunConfig | None = None, **kwargs: Any) -> None:
        self._benchmark_meta = benchmark_meta
        self._task_config = task_config if task_config is not None else RunConfig()
        #: Whether the one loaded subset (``default_subset``) is regrouped by ``Sample.subset_key``.
        self.reformat_subset = False
        #: Whether each subset name is a split name (of the loader subset ``default_subset``).
        self.split_as_subset = False
        self.category_map: dict[str, Any] = {}
        #: The subset being loaded (``record_to_sample`` may read it; empty when subsets are regrouped).
        self.current_subset_name = ""
        self.test_dataset: dict[str, list[Sample]] | None = None
        self.fewshot_dataset: dict[str, list[Sample]] | None = None
        self._validate_few_shot_config()

    def _validate_few_shot_config(self) -> None:
        if self.few_shot_num == 0:
            return
        if self.few_shot_mode == "disabled" or (self.few_shot_mode == "auto" and self.train_split is None):
            raise ValueError(f"Benchmark {self.name!r} does not support few-shot evaluation; set few_shot_num=0.")
        allowed = self.allowed_few_shot_nums
        if allowed is not None and self.few_shot_num not in allowed:
            raise ValueError(f"Benchmark {self.name!r} supports few_shot_num values: {', '.join(map(str, allowed))}; got {self.few_shot_num}.")

    @property
    def benchmark_meta(self) -> BenchmarkMeta:
        return self._benchmark_meta

    @property
    def name(self) -> str:
        return self._benchmark_meta.name

    @property
    def dataset_id(self) -> str:
        return self._benchmark_meta.dataset_id

    @property
    def seed(self) -> int | None:
        return self._task_config.seed

    @property
    def limit(self) -> int | float | None:
        return self._task_config.limit

    @property
    def repeats(self) -> int:
        return self._task_config.repeats

    @property
    def eval_type(self) -> str:
        return self._task_config.eval_type

    @property
    def extra_params(self) -> dict[str, Any]:
        return self._benchmark_meta.get_extra_params()

    @property
    def few_shot_mode(self) -> str:
        return self._benchmark_meta.few_shot_mode

    @property
    def allowed_few_shot_nums(self) -> tuple[int, ...] | None:
        return self._benchmark_meta.allowed_few_shot_nums

    @property
    def few_shot_prompt_template(self) -> str | None:
        return self._benchmark_meta.few_shot_prompt_template

    @property
    def query_template(self) -> str | None:
        return self._benchmark_meta.query_template

    @property
    def pretty_name(self) -> str | None:
        return self._benchmark_meta.pretty_name

    @property
    def tags(self) -> list[str]:
        return self._benchmark_meta.tags

    @property
    def metric_list(self) -> list[Any]:
        return self._benchmark_meta.metric_list

    # The fields an adapter's __init__ may set (EvalScope's setters write them to the declaration).
    subset_list = property(lambda self: self._benchmark_meta.subset_list, lambda self, value: setattr(self._benchmark_meta, "subset_list", value))
    default_subset = property(lambda self: self._benchmark_meta.default_subset, lambda self, value: setattr(self._benchmark_meta, "default_subset", value))
    few_shot_num = property(lambda self: self._benchmark_meta.few_shot_num, lambda self, value: setattr(self._benchmark_meta, "few_shot_num", value))
    few_shot_random = property(lambda self: self._benchmark_meta.few_shot_random)
    train_split = property(lambda self: self._benchmark_meta.train_split, lambda self, value: setattr(self._benchmark_meta, "train_split", value))
    eval_split = property(lambda self: self._benchmark_meta.eval_split, lambda self, value: setattr(self._benchmark_meta, "eval_split", value))
    prompt_template = property(lambda self: self._benchmark_meta.prompt_template, lambda self, value: setattr(self._benchmark_meta, "prompt_template", value))
    system_prompt = property(lambda self: self._benchmark_meta.system_prompt, lambda self, value: setattr(self._benchmark_meta, "system_prompt", value))
    shuffle = property(lambda self: self._benchmark_meta.shuffle, lambda self, value: setattr(self._benchmark_meta, "shuffle", value))
    shuffle_choices = property(lambda self: self._benchmark_meta.shuffle_choices, lambda self, value: setattr(self._benchmark_meta, "shuffle_choices", value))

    @contextlib.contextmanager
    def _temporary_attribute(self, name: str, value: Any) -> Iterator[None]:
        """``name`` set to ``value`` for the block, then restored."""
        had = hasattr(self, name)
        old = getattr(self, name, None)
        setattr(self, name, value)
        try:
            yield
        finally:
            if had:
                setattr(self, name, old)
            else:
                delattr(self, name)


class DefaultDataAdapter(DataAdapter):
    """The template pipeline of EvalScope's ``DefaultDataAdapter`` (see the module docstring)."""

    def load_from_disk(self, use_local_loader: bool = False) -> Any:
        """Which loader reads a local folder: an override calling ``super().load_from_disk(use_local_loader=True)`` picks
        EvalScope's local file loader (as ``general_qa`` does)."""
        return LocalLoader(use_local_loader)

    def record_to_sample(self, record: dict[str, Any]) -> Sample | list[Sample]:
        """The hook every adapter defines: a data record as a ``Sample``; the base class has none, as EvalScope's."""
        raise NotImplementedError(f"{type(self).__name__} defines no record_to_sample(record): define it in the adapter file, returning a Sample")

    def sample_filter(self, sample: Sample) -> bool:
        return True

    def sample_to_fewshot(self, sample: Sample) -> str:
        """A shot's text, for adapters that render shots themselves; the base class has none, as EvalScope's."""
        raise NotImplementedError(
            f"{type(self).__name__} defines no sample_to_fewshot(sample), which writes a shot: define it in the adapter file, or give "
            "few_shot_num=0 (--num-fewshot 0)"
        )

    def format_prompt_template(self, sample: Sample) -> str:
        return self.prompt_template.format(question=sample.input)  # type: ignore[union-attr]  # None fails as in EvalScope

    def format_fewshot_template(self, fewshot: str, sample: Sample) -> str:
        return self.few_shot_prompt_template.format(fewshot=fewshot, question=sample.input)  # type: ignore[union-attr]  # None fails as in EvalScope

    def process_sample_input(self, sample: Sample, subset: str) -> str:
        """The text of a string input: few-shot or zero-shot (see the module docstring)."""
        if self.few_shot_num > 0:
            if self.fewshot_dataset is not None:
                shots = self.fewshot_dataset.get(subset)
                if shots is None:
                    shots = self.fewshot_dataset[next(iter(self.fewshot_dataset))]
                assert len(shots) >= self.few_shot_num, (
                    f"The dataset only have ({len(shots)}) few-shot samples, but requested ({self.few_shot_num}) fewshot samples, "
                    "please reduce 'few_shot_num'."
                )
                fewshot = "\n\n".join(self.sample_to_fewshot(shot) for shot in shots)
            else:
                fewshot = ""  # fixed few-shot: the format hook writes the benchmark's own examples
            return self.format_fewshot_template(fewshot=fewshot, sample=sample)
        return self.format_prompt_template(sample=sample)

    def process_sample_str_input(self, sample: Sample, subset: str) -> list[Any]:
        """``[system?, user]`` with the text of :meth:`process_sample_input`."""
        messages: list[Any] = [ChatMessageUser(content=self.process_sample_input(sample, subset=subset))]
        if self.system_prompt is not None:
            messages.insert(0, ChatMessageSystem(content=self.system_prompt))
        return messages

    def process_sample_messages_input(self, sample: Sample, subset: str) -> list[Any]:
        """The sample's messages, with the system prompt first when none of them is a system message."""
        messages = list(sample.input)
        if self.system_prompt is not None and not any(message.role == "system" for message in messages):
            messages = [ChatMessageSystem(content=self.system_prompt), *messages]
        return messages

    def _post_process_samples(self) -> None:
        """Every test sample's input as the messages it sends."""
        assert self.test_dataset is not None
        for subset, samples in self.test_dataset.items():
            for sample in samples:
                if isinstance(sample.input, str):
                    sample.input = self.process_sample_str_input(sample, subset)
                elif isinstance(sample.input, list):
                    sample.input = self.process_sample_messages_input(sample, subset)


class MultiChoiceAdapter(DefaultDataAdapter):
    """EvalScope's ``MultiChoiceAdapter``: templates with ``{question}``, ``{choices}`` and ``{letters}``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: Whether a sample may have more than one correct choice (scoring; the template says what to answer).
        self.multiple_correct = False

    def format_prompt_template(self, sample: Sample) -> str:
        template = self.prompt_template
        assert valid_template(template), "Prompt template is not valid"  # type: ignore[arg-type]
        return prompt(question=sample.input, choices=sample.choices or [], template=template)  # type: ignore[arg-type]

    def format_fewshot_template(self, fewshot: str, sample: Sample) -> str:
        template = self.few_shot_prompt_template or (FEW_SHOT_TEMPLATE + self.prompt_template)  # type: ignore[operator]
        assert valid_template(template), "Few-shot prompt template is not valid"
        return prompt(question=sample.input, choices=sample.choices or [], template=template, fewshot=fewshot)

    def sample_to_fewshot(self, sample: Sample) -> str:
        return format_example(question=sample.input, choices=sample.choices or [], answer=sample.target)
