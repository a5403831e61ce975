"""Stand-ins for AISBench's heavy or irrelevant imports.

AISBench's package ``__init__`` files import far more than the prompt layer:
``openicl.icl_inferencer`` imports the BFCL inferencer, which imports every
dataset loader, which imports the evaluation task, which imports orjson,
tabulate, plotly, rouge and friends.  The placeholder machinery is the one the
OpenCompass harness already uses (``tools/opencompass_reference/stubs/
oc_autostub.py``); this module only widens its list of stubbed top-level
names and installs it.

The list stays explicit, so an import of a *real* dependency that is missing
still fails with ``ModuleNotFoundError``.  None of these names is called while
AISBench builds a prompt; a placeholder that did reach the output would fail
JSON serialisation, so it could not pass unnoticed.
"""
from __future__ import annotations

import oc_autostub

# Imported at module level by AISBench modules the harness loads only because
# package __init__ files chain them in (evaluation, plotting, dataset loaders,
# local-model wrappers).  torch, transformers, vllm, jieba, nltk, ... are
# already in oc_autostub.STUBBED.
AISBENCH_EXTRA = frozenset(['orjson', 'tabulate', 'psutil', 'plotly', 'regex', 'jsonlines', 'fuzzywuzzy', 'rouge'])
# bfcl-eval's package __init__ chain: its provider SDKs (model handlers) and the Java/JavaScript
# parsers. The prompt path uses only its function-document conversion, none of these.
BFCL_EXTRA = frozenset(['anthropic', 'tree_sitter', 'tree_sitter_java', 'tree_sitter_javascript', 'cohere', 'google',
                        'mistralai', 'boto3', 'qwen_agent', 'writerai', 'datamodel_code_generator', 'vertexai'])


def install() -> None:
    """Widen the OpenCompass placeholder list and install the finder (idempotent)."""
    oc_autostub.STUBBED = oc_autostub.STUBBED | AISBENCH_EXTRA | BFCL_EXTRA
    oc_autostub.install()
