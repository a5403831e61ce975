#!/usr/bin/env bash
# Regenerate tests/parity_ais/expected/<name>.jsonl for every case in
# tests/parity_ais/cases.json by rendering it through real AISBench 3.1.20260630.
#
#   bash tools/aisbench_reference/record_expected.sh            # all cases
#   bash tools/aisbench_reference/record_expected.sh NAME ...   # only these
#
# Needs the venv from setup_venv.sh (AIS_VENV, default /work/aisvenv).
set -euo pipefail

AIS_VENV="${AIS_VENV:-/work/aisvenv}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PARITY="$REPO/tests/parity_ais"

if [ ! -x "$AIS_VENV/bin/python" ]; then
    echo "no AISBench venv at $AIS_VENV; run tools/aisbench_reference/setup_venv.sh first" >&2
    exit 1
fi

export PYTHONHASHSEED=0
# AISBench logs every retriever/inferencer construction at INFO on stderr.
LOG="$(mktemp)"
trap 'rm -f "$LOG"' EXIT

"$AIS_VENV/bin/python" - "$HERE" "$PARITY" "$@" 2>"$LOG" <<'PY' || { cat "$LOG" >&2; exit 1; }
import json
import os
import sys

here, parity, *only = sys.argv[1:]
sys.path.insert(0, here)
import render_with_aisbench as harness  # noqa: E402

with open(os.path.join(parity, 'cases.json'), encoding='utf-8') as handle:
    cases = json.load(handle)
unknown = set(only) - {case['name'] for case in cases}
if unknown:
    sys.exit(f'unknown case(s): {sorted(unknown)}')

out_dir = os.path.join(parity, 'expected')
os.makedirs(out_dir, exist_ok=True)
for case in cases:
    if only and case['name'] not in only:
        continue
    dataset = os.path.join(parity, case['dataset'])
    model = os.path.join(parity, case['model']) if case.get('model') else None
    replies = os.path.join(parity, case['replies']) if case.get('replies') else None
    records = harness.render(dataset, model, replies)
    with open(os.path.join(out_dir, case['name'] + '.jsonl'), 'w', encoding='utf-8') as handle:
        harness.write_jsonl(records, handle)
    errors = [r['error'] for r in records if 'error' in r]
    status = f'ERROR {errors[0]}' if errors else f'{len(records)} prompts'
    print(f'{case["name"]:45s} {status}')
PY
