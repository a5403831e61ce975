#!/usr/bin/env bash
# Build (or refresh) a scratch virtualenv holding the real OpenCompass 0.5.4
# prompt layer, for the parity harness.  Idempotent: re-running it only
# installs what is missing and rewrites the .pth file.
#
#   OC_VENV=/path/to/venv bash tools/opencompass_reference/setup_venv.sh
#
# The venv lives outside the repository (default /work/ocvenv).  OpenCompass is
# installed without its dependency list (which pulls torch, transformers, vllm
# and friends); we add only the small libraries the prompt layer needs and
# answer imports of the heavy ones with placeholders (stubs/oc_autostub.py).
set -euo pipefail

OC_VENV="${OC_VENV:-/work/ocvenv}"
PYTHON="${PYTHON:-python3}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
STUBS="$HERE/stubs"

if [ ! -x "$OC_VENV/bin/python" ]; then
    echo "creating venv at $OC_VENV"
    "$PYTHON" -m venv "$OC_VENV"
fi
PIP=("$OC_VENV/bin/python" -m pip --disable-pip-version-check -q)

# 1. OpenCompass itself, without its (heavy) declared dependencies.
"${PIP[@]}" install --no-deps "opencompass==0.5.4"

# 2. What its prompt modules really import at module level.  Versions are
#    pinned to what OpenCompass 0.5.4 declares (mmengine-lite, datasets<4,
#    numpy<2) and to releases that still work with numpy 1.x.  pip then lists
#    the ~35 declared OpenCompass dependencies that are not installed; that
#    is intended (step 3 covers the imports that matter).
"${PIP[@]}" install \
    "mmengine-lite==0.11.0rc3" \
    "datasets==3.6.0" \
    "numpy==1.26.4" \
    "pyarrow==19.0.1" \
    "pandas==2.3.3" \
    "huggingface-hub==0.36.2" \
    "httpx==0.27.2" \
    "importlib-metadata"

# 3. Put the placeholder modules on the path and activate them at start-up.
SITE="$("$OC_VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
cat > "$SITE/oc_reference_stubs.pth" <<PTH
$STUBS
import oc_autostub; oc_autostub.install()
PTH

# 4. Smoke test: every module the harness uses must import.
"$OC_VENV/bin/python" - <<'PY'
import opencompass
from opencompass.openicl.icl_prompt_template import PromptTemplate  # noqa: F401
from opencompass.openicl.icl_retriever import FixKRetriever, ZeroRetriever  # noqa: F401
from opencompass.openicl.icl_dataset_reader import DatasetReader  # noqa: F401
from opencompass.models.base import LMTemplateParser  # noqa: F401
from opencompass.models.base_api import APITemplateParser  # noqa: F401
from opencompass.models.openai_api import OpenAI  # noqa: F401
from mmengine.config import Config  # noqa: F401
assert opencompass.__version__ == '0.5.4', opencompass.__version__
print(f'OpenCompass {opencompass.__version__} prompt layer importable')
PY
# 5. promptkit itself (editable), so benchmarks/bench_render.py can time both engines in one process.
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
"${PIP[@]}" install -e "$REPO"

echo "ready: $OC_VENV/bin/python tools/opencompass_reference/render_with_opencompass.py ..."
