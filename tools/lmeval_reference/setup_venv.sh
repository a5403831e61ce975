#!/usr/bin/env bash
# Build (or refresh) a scratch virtualenv holding the real lm-evaluation-harness
# 0.4.13 request-building code, for the lm-eval parity recorder.  Idempotent:
# re-running it only installs what is missing.
#
#   LMEVAL_VENV=/path/to/venv bash tools/lmeval_reference/setup_venv.sh
#
# The venv lives outside the repository (default /work/scratch/lmeval-venv).
# lm-eval is installed without its dependency list (which pulls evaluate,
# scikit-learn, rouge-score, sqlitedict, ... for metrics); we add only what the
# modules on the request-building path import when they load.  No torch:
# transformers loads tokenizers (for chat templates) without it, and lm-eval
# imports torch only inside model code and `set_torch_seed`, which checks for
# it first.  No placeholder modules are needed.
set -euo pipefail

LMEVAL_VENV="${LMEVAL_VENV:-/work/scratch/lmeval-venv}"
PYTHON="${PYTHON:-python3}"

if [ ! -x "$LMEVAL_VENV/bin/python" ]; then
    echo "creating venv at $LMEVAL_VENV"
    "$PYTHON" -m venv "$LMEVAL_VENV"
fi
PIP=("$LMEVAL_VENV/bin/python" -m pip --disable-pip-version-check -q)

# 1. lm-eval itself, without its declared dependencies (those are for metrics).
"${PIP[@]}" install --no-deps "lm-eval==0.4.13"

# 2. What lm_eval.evaluator, lm_eval.tasks and lm_eval.api.task import at
#    module level: PyYAML, jinja2, datasets (and its numpy/pyarrow/dill/tqdm),
#    requests (lm_eval.utils), sacrebleu (lm_eval.api.metrics imports it at the
#    top), typing_extensions (lm_eval.tasks).  transformers + tokenizers load
#    the chat templates (tokenizers only, no torch).  Versions match promptkit's
#    dev venv so both sides render chat templates with the same transformers.
#    pip then reports lm-eval's other declared dependencies as missing
#    (evaluate, scikit-learn, rouge-score, sqlitedict, word2number,
#    pytablewriter, more_itertools); that is intended: nothing on the
#    request-building path imports them.
"${PIP[@]}" install \
    "PyYAML==6.0.4" \
    "jinja2==3.1.6" \
    "datasets==5.2.0" \
    "numpy==2.4.6" \
    "pyarrow==26.0.1" \
    "dill==0.4.1" \
    "requests==2.34.2" \
    "sacrebleu==2.6.0" \
    "typing_extensions==4.16.0" \
    "transformers==5.24.0" \
    "tokenizers==0.23.3" \
    "huggingface_hub==2.4.0" 2>&1 | grep -v "requires .*, which is not installed\|dependency resolver\|^WARNING: Location" || true

# 3. Smoke test: every module the recorder and the census use must import.
"$LMEVAL_VENV/bin/python" - <<'PY'
import importlib.metadata as md
import lm_eval.evaluator  # noqa: F401
from lm_eval.api.model import LM  # noqa: F401
from lm_eval.api.task import ConfigurableTask  # noqa: F401
from lm_eval.tasks import TaskManager  # noqa: F401
import transformers  # noqa: F401
version = md.version("lm_eval")
assert version == "0.4.13", version
print(f"lm-eval {version} request building importable")
PY
echo "ready: $LMEVAL_VENV/bin/python tools/lmeval_reference/record.py"
