#!/usr/bin/env bash
# Build the venv render_census.py runs in: the harness venv's packages (EvalScope 1.14.1 and what its prompt path
# imports, setup_venv.sh) plus promptkit's own dependencies, and the optional packages some adapters need to be
# *constructed* (seqeval: the 22 NER benchmarks; emoji, syllapy: ifbench; scikit-learn comes with seqeval:
# arena_hard). Not installed: comet (wmt24pp), which pulls torch. Idempotent.
#
#   bash tools/evalscope_reference/setup_census_venv.sh        # -> /work/scratch/es-pk-venv
set -euo pipefail

EVALSCOPE_VENV="${EVALSCOPE_VENV:-/work/scratch/evalscope-venv}"
CENSUS_VENV="${CENSUS_VENV:-/work/scratch/es-pk-venv}"
PYTHON="${PYTHON:-python3}"

if [ ! -x "$EVALSCOPE_VENV/bin/python" ]; then
    echo "no harness venv at $EVALSCOPE_VENV: run tools/evalscope_reference/setup_venv.sh first" >&2
    exit 1
fi
if [ ! -x "$CENSUS_VENV/bin/python" ]; then
    "$PYTHON" -m venv "$CENSUS_VENV"
fi
site="$("$CENSUS_VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
harness="$("$EVALSCOPE_VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$harness" > "$site/evalscope_harness.pth"  # the harness venv's packages, after this venv's own
"$CENSUS_VENV/bin/python" -m pip --disable-pip-version-check -q install \
    "jinja2==3.1.6" "mmengine-lite==0.10.7" "rich==15.0.0" "seqeval==1.2.2" "emoji==2.16.0" "syllapy==0.8.0" 2>&1 \
    | grep -v -e "requires .*, which is not installed" -e "dependency resolver does not currently" || true
"$CENSUS_VENV/bin/python" -c "import evalscope, jinja2, mmengine, rich, seqeval; print('census venv ready:', evalscope.__version__)"
