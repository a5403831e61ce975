"""The EvalScope benchmarks promptkit reads natively (``evalscope:NAME`` without EvalScope installed).

:data:`NATIVES` maps each name to a function building its declaration: :mod:`.choice` (multiple choice),
:mod:`.generation` (maths, reasoning, short answers), :mod:`.conversation` (samples built as chat messages).
"""

from promptkit.frontends.evalscope.natives import choice, conversation, generation
from promptkit.frontends.evalscope.natives.table import NATIVES

__all__ = ["NATIVES", "choice", "conversation", "generation"]
