#!/usr/bin/env bash
# Regenerate tests/parity/expected/<name>.jsonl for every case in
# tests/parity/cases.json and tests/parity/chat_template_cases.json by rendering
# it through real OpenCompass 0.5.4.
#
#   bash tools/opencompass_reference/record_expected.sh            # all cases
#   bash tools/opencompass_reference/record_expected.sh NAME ...   # only these
#
# Needs the venv from setup_venv.sh (OC_VENV, default /work/ocvenv).
set -euo pipefail

OC_VENV="${OC_VENV:-/work/ocvenv}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PARITY="$REPO/tests/parity"

if [ ! -x "$OC_VENV/bin/python" ]; then
    echo "no OpenCompass venv at $OC_VENV; run tools/opencompass_reference/setup_venv.sh first" >&2
    exit 1
fi

# get_labels() may fall back to set() order; fix the hash seed so a re-run is
# byte-identical.  (No parity case relies on that fallback.)
export PYTHONHASHSEED=0

"$OC_VENV/bin/python" - "$HERE" "$PARITY" "$@" <<'PY'
import json
import os
import sys

here, parity, *only = sys.argv[1:]
sys.path.insert(0, here)
import render_with_opencompass as harness  # noqa: E402

cases = []
for cases_file in ('cases.json', 'chat_template_cases.json'):
    with open(os.path.join(parity, cases_file), encoding='utf-8') as handle:
        cases += json.load(handle)
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
    records = harness.render(dataset, model)
    with open(os.path.join(out_dir, case['name'] + '.jsonl'), 'w', encoding='utf-8') as handle:
        harness.write_jsonl(records, handle)
    errors = [r['error'] for r in records if 'error' in r]
    status = f'ERROR {errors[0]}' if errors else f'{len(records)} prompts'
    print(f'{case["name"]:40s} {status}')
PY
