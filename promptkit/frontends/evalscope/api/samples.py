"""``evalscope.api.dataset.Sample``: one evaluation sample, as ``record_to_sample`` builds it.

``input`` is the question (a string, which the benchmark's templates format) or the chat messages to send as they are;
``choices`` the option texts of a multiple-choice question; ``target`` the answer (a letter, a list of letters, a
text); ``subset_key`` the subset a sample belongs to when the benchmark regroups one loaded subset
(``reformat_subset``); ``metadata`` anything the hooks need.  ``id`` and ``group_id`` are set by the loader (the
position in the subset).  Samples are mutable, as EvalScope's are: the loader numbers them and shuffles their choices.

>>> Sample(input='2+2?', target='4')
Sample(input='2+2?', choices=None, target='4', id=None, subset_key=None, metadata={})
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from promptkit.frontends.evalscope.api.messages import dict_to_chat_message

__all__ = ["Sample"]


@dataclass(kw_only=True)
class Sample:
    """One sample (see the module docstring)."""

    input: Any
    choices: list[str] | None = None
    target: str | list[str] = ""
    id: int | None = None
    group_id: int | None = field(default=None, repr=False)
    tools: list[Any] | None = field(default=None, repr=False)
    subset_key: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    sandbox: str | None = field(default=None, repr=False)
    files: dict[str, str] | None = field(default=None, repr=False)
    setup: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.input, list):
            self.input = [dict_to_chat_message(message) for message in self.input]
        elif not isinstance(self.input, str):
            raise TypeError(f"Sample.input must be a str or a list of chat messages (got {type(self.input).__name__})")
        if self.choices is not None:
            self.choices = list(self.choices)
        if self.metadata is None:
            raise TypeError("Sample.metadata must be a dict (got None)")

    def model_dump(self) -> dict[str, Any]:
        """The sample's fields as a dict (pydantic's name, which adapter code may call)."""
        return {item.name: getattr(self, item.name) for item in fields(self)}
