"""What :class:`~promptkit.retrievers.mdl.MDLRetriever` renders its candidate shots with, declared here, below the
templates stage that implements it.

Retrievers sit below the templates stage, so MDL renders through a declared protocol, :class:`CandidatePrompts`: the
templates stage compiles the ``ice_template``/``prompt_template`` configs into one
(:class:`promptkit.templates.shots.CandidateShots`, installed with :func:`render_candidates_with` when
:mod:`promptkit.templates.shots` is imported).  A module of its own, so that the templates stage installs it without
importing MDL's retrievers (and their text and vector search) at start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

from promptkit.types import Row

__all__ = ["CandidatePrompts", "CompilePrompts", "PoolPrompts", "candidate_prompts", "render_candidates_with"]


class PoolPrompts(Protocol):
    """The candidate prompts of one pool of shots."""

    def context(self, ids: Sequence[int]) -> str:
        """The text of the shots ``ids`` (pool indices), joined as the prompt joins them."""
        ...

    def continuations(self, row: Row, labels: Sequence[Hashable], masked: str | None) -> list[str]:
        """The text of ``row``'s prompt for each label, the ``masked`` column showing the label."""
        ...


class CandidatePrompts(Protocol):
    """MDL's templates, compiled: their own labels (a label-keyed prompt template's) and the prompts of a pool."""

    @property
    def labels(self) -> Sequence[Hashable] | None: ...

    def bind(self, pool: Sequence[Row], output_column: str | None, separator: str, eos_token: str) -> PoolPrompts: ...


#: ``(ice_template, prompt_template) -> CandidatePrompts``: template configs (or objects) compiled by the templates stage.
CompilePrompts = Callable[[Any, Any], CandidatePrompts]
_compilers: list[CompilePrompts] = []


def render_candidates_with(compile: CompilePrompts) -> None:
    """Install how MDL compiles its templates (the templates stage calls this once, as :mod:`promptkit.templates.shots` is imported)."""
    _compilers[:] = [compile]


def candidate_prompts(ice_template: Any, prompt_template: Any) -> CandidatePrompts:
    """MDL's templates compiled by the templates stage (installed by :mod:`promptkit.templates.shots`, which the plan imports)."""
    (compile,) = _compilers
    return compile(ice_template, prompt_template)
