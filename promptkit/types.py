"""The aliases the stages share, each defined once.

>>> from promptkit.types import Row
>>> Row
collections.abc.Mapping[str, typing.Any]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["FinalInput", "Row"]

#: A dataset row as the stages read it: column name → value. Stages never change a row they are handed; a loader
#: that builds rows builds ``dict``s.
Row = Mapping[str, Any]

#: What a model receives, at the output edge: a completion string, or OpenAI-style message dicts.
FinalInput = str | list[dict[str, Any]]
