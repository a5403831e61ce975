"""``MDLRetriever``: among candidate shot sets, the one under which a model is most sure of its answer.

For each test row: the ``candidate_num`` nearest pool rows (as
``TopkRetriever``); ``select_time`` candidate sets of ``ice_num`` of them — the
``ice_num`` nearest, then random draws (one generator seeded once with
``seed``); for each set, the shots are rendered with ``ice_template`` and
every label's prompt with ``prompt_template``, and the **scorer** gives each
label's loss.  The set whose label distribution ``softmax(−loss)`` has the
lowest entropy (minimum description length) wins.  This is OpenCompass's
method, with the language model replaced by any callable::

    scorer(context: str, continuations: list[str]) -> list[float]

the mean per-token loss of each continuation (a label's prompt) after the
context (the rendered shots).  promptkit loads no model itself.

Retrievers sit below the templates stage, so MDL renders through a declared
protocol, :class:`~promptkit.retrievers.candidates.CandidatePrompts`, which the
templates stage implements (:mod:`promptkit.retrievers.candidates`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from promptkit.data.reader import ReaderConfig
from promptkit.errors import RetrieverError
from promptkit.retrievers._selection import BoundSelection, Rerank
from promptkit.retrievers.candidates import CandidatePrompts, PoolPrompts, candidate_prompts
from promptkit.retrievers.topk import TopkRetriever

if TYPE_CHECKING:
    import numpy as np  # imported where used: `import promptkit` reads no numpy

__all__ = ["MDLRetriever", "Scorer"]

Scorer = Callable[[str, list[str]], Sequence[float]]


class MDLRetriever(TopkRetriever):
    """Shots chosen by minimum description length under a pluggable ``scorer`` (see the module docstring).

    ``ice_template``/``prompt_template`` are the infer config's templates (a
    :class:`PromptTemplate` or its config dict), as OpenCompass configs pass
    them; ``labels`` defaults to the label-keyed template's labels, else the
    pool's answers in order of first appearance.  ``ce_model_name`` is
    accepted and unused: ``scorer`` replaces the model.
    """

    def __init__(
        self,
        *,
        candidate_num: int = 1,
        ce_model_name: str | None = None,
        select_time: int = 5,
        ice_template: Any = None,
        prompt_template: Any = None,
        labels: Sequence[Hashable] | None = None,
        seed: int = 1,
        scorer: Scorer | None = None,
        **options: Any,
    ) -> None:
        import numpy as np
        super().__init__(**options)
        if scorer is None or not callable(scorer):
            raise RetrieverError(
                f"MDLRetriever needs scorer=, a callable (context, continuations) -> one loss per continuation (got {scorer!r}); "
                "promptkit loads no language model itself",
                key="scorer",
            )
        for name, value, least in (("candidate_num", candidate_num, self.ice_num), ("select_time", select_time, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise RetrieverError(f"{name} must be an int of at least {least} (got {value!r})", key=name)
        self.scorer = scorer
        self.candidate_num = candidate_num
        self.select_time = select_time
        self.prompts: CandidatePrompts = candidate_prompts(ice_template, prompt_template)
        self.labels = list(labels) if labels is not None else None
        self.seed = seed
        self.ce_model_name = ce_model_name
        self._rng = np.random.default_rng(seed)
        self._context: tuple[PoolPrompts, list[Hashable]] | None = None

    def retrieve(
        self, pool: Sequence[Mapping[str, Any]], queries: Sequence[Mapping[str, Any]], reader: ReaderConfig
    ) -> list[list[int]]:
        import numpy as np
        self._rng = np.random.default_rng(self.seed)
        prompts = self.prompts.bind(pool, reader.output_column, self.ice_separator, self.ice_eos_token)
        self._context = (prompts, self._labels(pool, reader))
        return super().retrieve(pool, queries, reader)

    def _labels(self, pool: Sequence[Mapping[str, Any]], reader: ReaderConfig) -> list[Hashable]:
        if self.labels is not None:
            return self.labels
        if self.prompts.labels is not None:
            return list(self.prompts.labels)
        if reader.output_column is None:
            raise RetrieverError("MDLRetriever needs candidate labels: give labels=[...], a label-keyed template, or an output_column", key="labels")
        return list(dict.fromkeys(row[reader.output_column] for row in pool))

    def _wanted(self, selection: BoundSelection, banned: frozenset[int]) -> int:
        return max(selection.wanted(banned), self.candidate_num + len(banned))

    def _rerank(self, pool: np.ndarray, query: np.ndarray, row: Mapping[str, Any], reader: ReaderConfig) -> Rerank:
        assert self._context is not None
        shots, labels = self._context

        def rerank(candidates: list[int]) -> list[int]:
            candidates = candidates[: self.candidate_num]
            if len(candidates) <= self.ice_num:
                return candidates
            prompts = shots.continuations(row, labels, reader.output_column)
            best, best_score = candidates[: self.ice_num], self._score(shots, candidates[: self.ice_num], prompts)
            for _ in range(self.select_time - 1):
                subset = [candidates[i] for i in self._rng.choice(len(candidates), self.ice_num, replace=False).tolist()]
                score = self._score(shots, subset, prompts)
                if score > best_score:
                    best, best_score = subset, score
            return best + [i for i in candidates if i not in best]

        return rerank

    def _score(self, shots: PoolPrompts, subset: list[int], prompts: list[str]) -> float:
        """Negative entropy of the label distribution under this shot set (higher: the model is surer)."""
        import numpy as np
        losses = np.asarray(self.scorer(shots.context(subset), prompts), dtype=np.float64)
        if losses.shape != (len(prompts),) or not np.isfinite(losses).all():
            raise RetrieverError(
                f"the scorer returned {losses.tolist()!r} for {len(prompts)} label prompts; it must return one finite loss per prompt",
                key="scorer",
            )
        logits = -losses - (-losses).max()
        probabilities = np.exp(logits) / np.exp(logits).sum()
        return float(np.sum(probabilities * np.log(np.clip(probabilities, 1e-300, None))))

    def __repr__(self) -> str:
        return f"MDLRetriever(ice_num={self.ice_num}, candidate_num={self.candidate_num}, select_time={self.select_time}, seed={self.seed})"

