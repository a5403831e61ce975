#!/usr/bin/env bash
# Build (or refresh) a scratch virtualenv holding the real AISBench
# 3.1.20260630 prompt layer, for the AISBench parity harness.  Idempotent:
# re-running it only installs what is missing and rewrites the .pth file.
#
#   AIS_VENV=/path/to/venv bash tools/aisbench_reference/setup_venv.sh
#
# The venv lives outside the repository (default /work/aisvenv).  AISBench is
# installed without its dependency list (torch, transformers, opencv, nltk and
# ~45 more); we add only the small libraries its prompt, template, retriever,
# inferencer and model-wrapper modules need, and answer imports of the rest
# with placeholders (stubs/ais_autostub.py, built on the OpenCompass
# harness's stubs/oc_autostub.py).
set -euo pipefail

AIS_VENV="${AIS_VENV:-/work/aisvenv}"
PYTHON="${PYTHON:-python3}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
STUBS="$HERE/stubs"
OC_STUBS="$(cd "$HERE/../opencompass_reference/stubs" && pwd)"

if [ ! -x "$AIS_VENV/bin/python" ]; then
    echo "creating venv at $AIS_VENV"
    "$PYTHON" -m venv "$AIS_VENV"
fi
PIP=("$AIS_VENV/bin/python" -m pip --disable-pip-version-check -q)

# 1. AISBench itself, without its (heavy) declared dependencies.
"${PIP[@]}" install --no-deps "ais-bench-benchmark==3.1.20260630"

# 1b. bfcl-eval, for AISBench's BFCL dataset and inferencer, also without its
#     dependency list (provider SDKs, sentence-transformers, faiss, ...).
"${PIP[@]}" install --no-deps "bfcl_eval==2025.6.14"

# 2. What the modules the harness loads import at module level.  Pins follow
#    AISBench's own constraints (datasets<=3.6.0, numpy<2, Pillow==11.2.1) and
#    the OpenCompass harness (releases that work with numpy 1.x).  aiohttp and
#    janus are the async request loop; requests/httpx/tqdm are imported by the
#    model and inferencer modules; tenacity and overrides are what bfcl_eval's
#    modules need at import time (its provider SDKs are placeholders, see
#    stubs/ais_autostub.py).  bfcl_eval 2025.6.14 is the release AISBench's
#    `bfcl` extra pins; newer ones moved `model_handler.model_style`, which
#    AISBench imports.  pip then lists the ~45 declared AISBench
#    dependencies that are not installed; that is intended.
"${PIP[@]}" install \
    "mmengine-lite==0.11.0rc3" \
    "datasets==3.6.0" \
    "numpy==1.26.4" \
    "pyarrow==19.0.1" \
    "pandas==2.3.3" \
    "huggingface-hub==0.36.2" \
    "Pillow==11.2.1" \
    "aiohttp==3.14.5" \
    "janus==2.0.0" \
    "requests==2.34.2" \
    "httpx==0.27.2" \
    "tqdm==4.70.1" \
    "importlib-metadata" \
    "tenacity==9.0.0" \
    "overrides==7.7.0" 2>&1 \
    | grep -v -e "requires .*, which is not installed" -e "dependency resolver does not currently" || true

# 3. Put the placeholder modules on the path and activate them at start-up.
SITE="$("$AIS_VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
cat > "$SITE/ais_reference_stubs.pth" <<PTH
$OC_STUBS
$STUBS
import ais_autostub; ais_autostub.install()
PTH

# 4. Smoke test: every module the harness uses must import.
"$AIS_VENV/bin/python" - <<'PY'
from importlib.metadata import version
from ais_bench.benchmark.datasets.base import BaseDataset  # noqa: F401
from ais_bench.benchmark.models import APITemplateParser, LMTemplateParser  # noqa: F401
from ais_bench.benchmark.models import VLLMCustomAPI, VLLMCustomAPIChat  # noqa: F401
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer, MultiTurnGenInferencer  # noqa: F401
from ais_bench.benchmark.openicl.icl_prompt_template import (  # noqa: F401
    MMPromptTemplate, MultiTurnPromptTemplate, PromptTemplate)
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever  # noqa: F401
from ais_bench.benchmark.datasets.bfcl.bfcl_dependency import BFCL_INSTALLED
assert BFCL_INSTALLED, 'bfcl_eval does not import'
from mmengine.config import Config  # noqa: F401
assert version('ais-bench-benchmark') == '3.1.20260630', version('ais-bench-benchmark')
print(f"AISBench {version('ais-bench-benchmark')} prompt layer importable")
PY

echo "ready: $AIS_VENV/bin/python tools/aisbench_reference/render_with_aisbench.py ..."
