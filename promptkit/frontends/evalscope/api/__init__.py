"""promptkit's implementation of what EvalScope adapter files import (``evalscope.api.*``, ``evalscope.utils.multi_choices``).

While an adapter file loads without EvalScope installed, its ``from evalscope... import`` lines are served from here
(:mod:`promptkit.frontends.evalscope.imports`): :mod:`.meta` (``BenchmarkMeta``), :mod:`.adapters`
(``DefaultDataAdapter``, ``MultiChoiceAdapter``), :mod:`.samples` (``Sample``), :mod:`.messages` (chat messages),
:mod:`.registry` (``register_benchmark``) and :mod:`.multi_choices` (``MultipleChoiceTemplate`` and choice formatting).
"""
