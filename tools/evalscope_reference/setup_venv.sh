#!/usr/bin/env bash
# Build (or refresh) the scratch virtualenv holding the real EvalScope 1.14.1, for the
# EvalScope reference harness (record.py, census.py).  Idempotent: re-running it only
# installs what is missing.
#
#   EVALSCOPE_VENV=/path/to/venv bash tools/evalscope_reference/setup_venv.sh
#
# The venv lives outside the repository (default /work/scratch/evalscope-venv).
# EvalScope is installed without its declared dependency list (transformers, modelscope,
# jieba, plotly, rouge-chinese, sacrebleu, ...).  We add only what the modules on the
# prompt-building path import, plus the few small packages an adapter needs to be
# *constructed* or to build a prompt:
#   * the import closure of `evalscope` and every registered adapter module
#     (pydantic, colorlog, docstring_parser, pyyaml, jsonschema, filetype, jsonlines,
#     numpy, datasets, pillow, editdistance, tabulate, requests; rouge-score for
#     vtcbench's module, so the census sees all 276 benchmarks);
#   * openai: the OpenAI-compatible model API, whose request body is what we record;
#   * langdetect + nltk: IFEvalAdapter.__init__ refuses to construct without them;
#   * math-verify==0.9.0 (EvalScope's pin; its `antlr4_13_2` extra does not exist in 0.9.0,
#     so antlr4-python3-runtime is pinned directly): competition_math's record_to_sample
#     computes the target, which its few-shot examples print, with it.
# No torch, no transformers, no modelscope, and no stub modules: nothing on the
# prompt path imports them.  pip then lists EvalScope's declared dependencies that
# are not installed; that is intended.
set -euo pipefail

EVALSCOPE_VENV="${EVALSCOPE_VENV:-/work/scratch/evalscope-venv}"
PYTHON="${PYTHON:-python3}"

if [ ! -x "$EVALSCOPE_VENV/bin/python" ]; then
    echo "creating venv at $EVALSCOPE_VENV"
    "$PYTHON" -m venv "$EVALSCOPE_VENV"
fi
PIP=("$EVALSCOPE_VENV/bin/python" -m pip --disable-pip-version-check -q)

# 1. EvalScope itself, without its declared dependencies.
"${PIP[@]}" install --no-deps "evalscope==1.14.1"

# 2. The prompt path's imports, every version pinned (the closure pip resolved on
#    2026-12-02 for the packages named above).
"${PIP[@]}" install \
    "absl-py==2.5.1" "annotated-types==0.8.0" "antlr4-python3-runtime==4.13.2" "anyio==4.16.0" \
    "attrs==26.1.0" "certifi==2026.10.19.post1" "charset-normalizer==3.5.3" "click==8.5.1" "cloudpickle==3.1.3" \
    "colorlog==6.12.0" "datasets==5.2.0" "defusedxml==0.7.1" "dill==0.4.1" "docstring_parser==0.18.0" \
    "editdistance==0.8.1" "filelock==4.3.1" "filetype==1.2.0" "fsspec==2026.9.0" "h11==0.16.0" \
    "hf-xet==1.8.0" "httpcore2==2.16.2" "httpx2==2.16.2" "huggingface_hub==2.4.0" "idna==3.20" \
    "jiter==0.19.0" "joblib==1.6.0" "jsonlines==4.0.0" "jsonschema==4.26.0" \
    "jsonschema-specifications==2025.9.1" "langdetect==1.0.9" "latex2sympy2_extended==1.11.0" \
    "math-verify==0.9.0" "mpmath==1.3.0" "multiprocess==0.70.19" "nltk==3.10.4" \
    "numpy==2.4.6" "openai==3.57.0" "packaging==26.4" "pandas==3.1.1" "pillow==13.0.0" \
    "pyarrow==26.0.1" "pydantic==2.14.4" "pydantic_core==2.50.5" "python-dateutil==4.0.0" \
    "PyYAML==6.0.4" "referencing==0.37.0" "regex==2026.11.19" "requests==2.34.2" \
    "rouge_score==0.1.2" "rpds-py==2026.9.1" "six==1.17.0" "sniffio==1.3.1" "sympy==1.14.0" \
    "tabulate==0.10.0" "tqdm==4.70.1" "truststore==0.10.5" "typing-inspection==0.4.5" \
    "typing_extensions==4.16.0" "tzdata==2026.6" "urllib3==2.8.0" "xxhash==4.1.0" 2>&1 \
    | grep -v -e "requires .*, which is not installed" -e "dependency resolver does not currently" || true

# 3. Smoke test: the harness's imports work, the version is the pinned one, and the
#    prompt path pulls in neither torch nor transformers.
cd "$(mktemp -d)"  # not inside site-packages/evalscope, whose `collections` folder shadows the stdlib's
"$EVALSCOPE_VENV/bin/python" - <<'PY'
import sys
from importlib.metadata import version

import evalscope  # noqa: F401
from evalscope.api.benchmark import BenchmarkMeta, DefaultDataAdapter, MultiChoiceAdapter  # noqa: F401
from evalscope.api.model.model import get_model  # noqa: F401
from evalscope.api.registry import get_benchmark  # noqa: F401
from evalscope.config import TaskConfig  # noqa: F401
import evalscope.models.openai_compatible  # noqa: F401

assert version('evalscope') == '1.14.1', version('evalscope')
heavy = sorted(m for m in ('torch', 'transformers', 'modelscope') if m in sys.modules)
assert not heavy, heavy
print(f"EvalScope {version('evalscope')} prompt path importable (no torch, transformers or modelscope)")
PY

echo "ready: $EVALSCOPE_VENV/bin/python tools/evalscope_reference/record.py"
