"""How prompts are assembled for a task: one per row (generation) or one per row and label (likelihood).

promptkit calls no model; these are the config vocabulary of OpenCompass's
inferencers, keeping what shapes the prompt and accepting (and ignoring) the
runtime keys real configs carry (``max_out_len``, ``batch_size``, …).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from promptkit.errors import ConfigError

if TYPE_CHECKING:
    from promptkit.templates.protocol import Template

__all__ = ["INFER_MODES", "GenInferencer", "Inferencer", "MultiTurnGenInferencer", "PPLInferencer"]

#: How the turns of a dialogue become prompts (AISBench's ``infer_mode``).
INFER_MODES = ("every", "every_with_gt", "last")


class Inferencer:
    """Common part: ``max_seq_len`` (the model config's value wins, as in OpenCompass's infer task)."""

    mode: ClassVar[str]

    def __init__(self, max_seq_len: int | None = None, **runtime: Any) -> None:
        if max_seq_len is not None and (not isinstance(max_seq_len, int) or max_seq_len <= 0):
            raise ConfigError(f"max_seq_len must be a positive int (got {max_seq_len!r})", key="max_seq_len")
        self.max_seq_len = max_seq_len
        self.runtime = runtime

    def __repr__(self) -> str:
        return f"{type(self).__name__}(max_seq_len={self.max_seq_len!r})"


class GenInferencer(Inferencer):
    """One prompt per test row; the answer column renders as ``gen_field_replace_token``."""

    mode = "gen"

    def __init__(self, gen_field_replace_token: str = "", max_seq_len: int | None = None, multiround: bool = False, **runtime: Any) -> None:
        super().__init__(max_seq_len, **runtime)
        if not isinstance(multiround, bool):
            raise ConfigError(f"multiround must be True or False (got {multiround!r} that is a {type(multiround).__name__})", key="multiround")
        if multiround:
            raise ConfigError("GenInferencer(multiround=True) is not supported: it fills message-list templates turn by turn", key="multiround")
        if not isinstance(gen_field_replace_token, str):
            raise ConfigError(f"gen_field_replace_token must be a str (got {gen_field_replace_token!r})", key="gen_field_replace_token")
        self.gen_field_replace_token = gen_field_replace_token


class PPLInferencer(Inferencer):
    """One prompt per test row and candidate label, labels in template order (or ``labels=``)."""

    mode = "ppl"

    def __init__(self, labels: Sequence[Hashable] | None = None, max_seq_len: int | None = None, **runtime: Any) -> None:
        super().__init__(max_seq_len, **runtime)
        if labels is not None and (isinstance(labels, (str, bytes)) or not isinstance(labels, Sequence)):
            raise ConfigError(f"labels must be a list (got {labels!r})", key="labels")
        self.labels = list(labels) if labels is not None else None

    def candidate_labels(self, template: Template, test_rows: Sequence[Mapping[str, Any]], output_column: str | None) -> list[Hashable]:
        """The labels each row is scored with, in order: ``labels=``, else the label-keyed template's keys, else the
        values of ``output_column`` in the test rows, in order of first appearance."""
        if self.labels is not None:
            return list(self.labels)
        if template.labels is not None:
            return list(template.labels)
        if output_column is None:
            raise ConfigError("PPLInferencer needs candidate labels: use a label-keyed template, labels=[...], or an output_column")
        # OpenCompass takes set() order here, which changes between runs; first appearance is stable.
        try:
            return list(dict.fromkeys(row[output_column] for row in test_rows))
        except TypeError:
            raise ConfigError(
                f"PPLInferencer takes its labels from the answer column {output_column!r}, but its values are not single "
                "labels (e.g. lists); give labels=[...] or a label-keyed template"
            ) from None


class MultiTurnGenInferencer(GenInferencer):
    """One prompt per turn of a dialogue (with ``MultiTurnPromptTemplate``), history by ``infer_mode``:

    * ``every`` — one prompt per turn, earlier turns holding the model's own replies;
    * ``every_with_gt`` — one prompt per turn, earlier turns holding the ground truth;
    * ``last`` — one prompt, for the last turn, earlier turns holding the ground truth.
    """

    def __init__(self, infer_mode: str = "every", gen_field_replace_token: str = "", max_seq_len: int | None = None, **runtime: Any) -> None:
        super().__init__(gen_field_replace_token, max_seq_len, **runtime)
        if infer_mode not in INFER_MODES:
            raise ConfigError(f"infer_mode must be one of {', '.join(map(repr, INFER_MODES))} (got {infer_mode!r})", key="infer_mode")
        self.infer_mode = infer_mode
