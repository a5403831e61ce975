"""``evalscope.api.benchmark.BenchmarkMeta``: what ``@register_benchmark(BenchmarkMeta(...))`` declares about a benchmark.

Every field of EvalScope 1.x is accepted, so that an adapter file loads unchanged; those that shape prompts are
``subset_list``, ``default_subset``, ``few_shot_num``, ``few_shot_mode``, ``allowed_few_shot_nums``,
``few_shot_random``, ``train_split``, ``eval_split``, ``prompt_template``, ``few_shot_prompt_template``,
``system_prompt``, ``shuffle``, ``shuffle_choices`` and ``extra_params`` (the values of the benchmark's switches).
:meth:`BenchmarkMeta._update` applies a run's ``dataset_args`` as EvalScope does.

>>> meta = BenchmarkMeta(name='quiz', dataset_id='my-org/quiz', few_shot_num=2, train_split='train',
...                      extra_params={'use_cot': {'type': 'bool', 'description': '...', 'value': False}})
>>> meta._update({'few_shot_num': 0, 'extra_params': {'use_cot': True}})
>>> meta.few_shot_num, meta.get_extra_params()
(0, {'use_cot': True})
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PROTECTED_FIELDS", "BenchmarkMeta"]

#: Fields a benchmark declares and ``dataset_args`` may not change (EvalScope refuses them too).
PROTECTED_FIELDS = ("allowed_few_shot_nums", "evaluation_version", "few_shot_mode", "supports_choice")


@dataclass
class BenchmarkMeta:
    """A benchmark's declaration (see the module docstring)."""

    name: str
    dataset_id: str
    data_adapter: Any = None
    output_types: list[str] = field(default_factory=lambda: ["generation"])
    subset_list: list[str] = field(default_factory=lambda: ["default"])
    default_subset: str = "default"
    few_shot_num: int = 0
    few_shot_mode: str = "auto"
    allowed_few_shot_nums: tuple[int, ...] | None = None
    few_shot_random: bool = False
    train_split: str | None = None
    eval_split: str | None = None
    prompt_template: str | None = None
    few_shot_prompt_template: str | None = None
    system_prompt: str | None = None
    supports_choice: bool = False
    choice_instructions: str | None = None
    query_template: str | None = None
    pretty_name: str | None = None
    description: str | None = None
    paper_url: str | None = None
    data_statistics: Any = None
    sample_example: Any = None
    tags: list[str] = field(default_factory=list)
    filters: Any = None
    metric_list: list[Any] = field(default_factory=list)
    aggregation: str = "mean"
    primary_metric: Any = None
    shuffle: bool = False
    shuffle_choices: bool | int = False
    force_redownload: bool = False
    review_timeout: float | None = None
    extra_params: dict[str, Any] = field(default_factory=dict)
    sandbox_config: dict[str, Any] | None = field(default_factory=dict)
    max_image_bytes: int | str | None = None
    evaluation_version: str = "v1.0"
    dataset_revision: str | None = None
    hf_dataset_id: str | None = None
    hf_dataset_revision: str | None = None

    def __post_init__(self) -> None:
        self._validate_few_shot_metadata()

    def _validate_few_shot_metadata(self) -> None:
        if self.few_shot_num < 0:
            raise ValueError("few_shot_num must be >= 0")
        if self.few_shot_mode not in ("auto", "disabled", "fixed"):
            raise ValueError(f"Unsupported few_shot_mode: {self.few_shot_mode}")
        if self.few_shot_mode == "disabled":
            if self.allowed_few_shot_nums is not None:
                raise ValueError("allowed_few_shot_nums requires few_shot_mode to be auto or fixed")
            return
        if self.few_shot_mode == "fixed" and not self.allowed_few_shot_nums:
            raise ValueError("fixed few_shot_mode requires allowed_few_shot_nums")
        allowed = self.allowed_few_shot_nums
        if allowed is not None:
            if not allowed:
                raise ValueError("allowed_few_shot_nums must not be empty")
            if any(not isinstance(count, int) or isinstance(count, bool) or count < 0 for count in allowed):
                raise ValueError("allowed_few_shot_nums must contain non-negative integers")
            if 0 not in allowed:
                raise ValueError("allowed_few_shot_nums must include 0")

    def get_extra_params(self) -> dict[str, Any]:
        """The benchmark's switches by name: the ``value`` of each declared ``{type, description, value}`` entry."""
        values = {}
        for key, entry in self.extra_params.items():
            if _is_spec(entry):
                value = entry.get("value")
                if entry.get("choices") and value not in entry["choices"]:
                    raise ValueError(f"Value {value} not in choices {entry['choices']} in {self.name} extra_params.")
                values[key] = value
            else:
                values[key] = entry
        return values

    def _update(self, args: dict[str, Any]) -> None:
        """Apply ``dataset_args``: ``local_path`` becomes ``dataset_id``, ``extra_params`` set declared switches,
        ``filters`` go first, any other field is set."""
        args = copy.deepcopy(args)
        protected = sorted(set(PROTECTED_FIELDS) & args.keys())
        if protected:
            raise ValueError(f"{', '.join(protected)} must be declared by BenchmarkMeta, not overridden through dataset_args.")
        if args.get("local_path"):
            self.dataset_id = args.pop("local_path")
            self.dataset_revision = self.hf_dataset_id = self.hf_dataset_revision = None
        if args.get("filters"):
            self.filters = OrderedDict([*OrderedDict(args.pop("filters")).items(), *(self.filters or OrderedDict()).items()])
        if args.get("extra_params"):
            for key, value in args.pop("extra_params").items():
                if key not in self.extra_params:
                    raise KeyError(f"Extra param {key} not found in benchmark {self.name} extra_params.")
                if _is_spec(self.extra_params[key]):
                    self.extra_params[key]["value"] = value
                else:
                    self.extra_params[key] = value
        for key, value in args.items():
            if hasattr(self, key):
                setattr(self, key, value)
        self._validate_few_shot_metadata()


def _is_spec(entry: Any) -> bool:
    return isinstance(entry, dict) and "description" in entry and "type" in entry and "value" in entry
