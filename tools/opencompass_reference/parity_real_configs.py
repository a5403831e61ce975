"""Parity on OpenCompass's own dataset configs: a seeded sample, rendered by OpenCompass 0.5.4 and by promptkit.

    python3 tools/opencompass_reference/parity_real_configs.py --oc-src OC_SRC \\
        [--oc-python /tmp/ocvenv/bin/python] [--sample 300] [--seed 13] \\
        [--report /tmp/parity_report.json] [--work /tmp/parity_work] [--reuse-oc] [CONFIG ...]

OC_SRC is a checkout (working tree) of OpenCompass's repository; its dataset
configs are read unmodified from ``OC_SRC/opencompass/configs/datasets``.  Not
part of CI: OpenCompass's repository is not stored with promptkit.

1. **Sample.**  A config file is eligible when it is not an ``__init__.py``,
   assigns a top-level ``*_datasets`` (or ``datasets``) name, and writes at
   least one dataset entry itself (a ``dict(...)`` or ``{...}`` with a
   ``reader_cfg`` or ``infer_cfg`` key).  That leaves out the files that only
   re-export or sum other configs' lists (``collections/``, the ``*_gen.py``
   aliases of one hashed config): they render nothing of their own.  The
   sample is ``random.Random(seed).sample`` of the sorted eligible paths (or
   the CONFIG paths given, relative to the datasets folder).
2. **OpenCompass.**  ``parity_oc_worker.py`` runs in the venv: it loads each
   config, decides what is out of scope, writes synthetic rows and renders
   every dataset for the three model configs of ``parity_models/`` (see its
   docstring).
3. **promptkit.**  ``promptkit.load_datasets`` loads the same unmodified file
   with the worker's rows (``--work``/rows/*.jsonl) as every dataset's rows
   (``load_with_rows``), and ``Renderer`` renders every dataset for each model.
4. **Compare.**  Per (config, model): ``identical`` when every in-scope
   dataset renders the same records (on the keys the worker records,
   ``COMPARED``: promptkit's ids, gold answers, request blocks and hashes have
   no OpenCompass form); ``deliberate:<section>`` when each
   difference is one a rule of ``RULES`` recognises, a section of
   docs/compat.md; ``both-fail`` when both engines raise; ``out-of-scope``
   when no dataset of the config is in scope; otherwise a defect:
   ``differs``, ``promptkit-fails`` or ``opencompass-fails`` (OpenCompass
   raises and promptkit renders, with no rule saying why).

The summary goes to stdout; the JSON report (every pair, its datasets and, for
each difference, the first differing record of each engine) to ``--report``.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import json
import os
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The three model setups: abbr (as the model config names it) -> config file.
MODELS = {'base': HERE / 'parity_models' / 'base.py', 'chat-meta': HERE / 'parity_models' / 'chat.py', 'api': HERE / 'parity_models' / 'api.py'}
DATASETS_DIR = Path('opencompass') / 'configs' / 'datasets'
DEFECTS = ('differs', 'promptkit-fails', 'opencompass-fails')
#: What the worker records of each prompt: the keys compared.  promptkit's records carry more (``id``, ``gold``, the
#: ``request`` block, ``fingerprint``, ``provenance``, ``n_shots``, ``truncated``), which OpenCompass has no form of.
COMPARED = frozenset({'dataset', 'model', 'index', 'mode', 'turn', 'label', 'prompt', 'media', 'ice_idx', 'choices', 'continuation'})


# --------------------------------------------------------------------------
# 1. The sample.

def _writes_entry(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'dict' and any(
                k.arg in ('reader_cfg', 'infer_cfg') for k in node.keywords):
            return True
        if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value in ('reader_cfg', 'infer_cfg') for k in node.keys):
            return True
    return False


def _assigns_datasets(tree: ast.Module) -> bool:
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if isinstance(target, ast.Name) and (target.id == 'datasets' or target.id.endswith('_datasets')):
                return True
    return False


def eligible(datasets_dir: Path) -> list[str]:
    """The sortable population: config files that define ``*_datasets`` and write an entry themselves."""
    found = []
    for path in sorted(datasets_dir.rglob('*.py')):
        if path.name == '__init__.py':
            continue
        try:
            tree = ast.parse(path.read_text(encoding='utf-8'))
        except (SyntaxError, UnicodeDecodeError):
            continue
        if _assigns_datasets(tree) and _writes_entry(tree):
            found.append(path.relative_to(datasets_dir).as_posix())
    return found


# --------------------------------------------------------------------------
# 3. promptkit's side.

def load_with_rows(config: Path, rows_file: Path, splits: list[str]) -> list:
    """The config's datasets, each fed the rows of ``rows_file`` as every split it reads (``splits``).

    ``load_datasets(config, rows=FILE)`` does that where promptkit has it (the
    ``--rows FILE`` option).  Without it the harness adapts: each dataset's
    loader becomes ``RowsDataset({split: rows, ...})`` (``dataclasses.replace``),
    which skips the dataset's ``n``.
    """
    from promptkit import RowsDataset, load_datasets

    if 'rows' in inspect.signature(load_datasets).parameters:
        return load_datasets(config, rows=rows_file)
    rows = [json.loads(line) for line in rows_file.read_text(encoding='utf-8').splitlines()]
    return [dataclasses.replace(spec, loader=RowsDataset(dict.fromkeys(splits, rows))) for spec in load_datasets(config)]


def promptkit_records(config: Path, rows_file: Path, splits: list[str], model_paths: list[Path]) -> dict[int, dict[str, list[dict]]] | str:
    """dataset index -> model abbr -> records, or the error that stopped the whole config."""
    from promptkit import PromptkitError, Renderer, load_models

    try:
        models = [m for path in model_paths for m in load_models(path)]
        specs = load_with_rows(config, rows_file, splits)
    except PromptkitError as error:
        return f'{type(error).__name__}: {error}'
    out: dict[int, dict[str, list[dict]]] = {}
    for index, spec in enumerate(specs):
        out[index] = {}
        for model in models:
            try:
                records = [p.to_record() for p in Renderer(spec, model)]
                out[index][model.abbr] = [{k: v for k, v in r.items() if k in COMPARED} for r in records]
            except PromptkitError as error:
                out[index][model.abbr] = [{'dataset': spec.abbr, 'model': model.abbr, 'error': f'{type(error).__name__}: {error}'}]
    return out


# --------------------------------------------------------------------------
# 4. Deliberate differences: each rule names a section of docs/compat.md and
# recognises one difference precisely, on one dataset × model case.

@dataclass(frozen=True)
class Case:
    config: str
    dataset: dict        # the worker's item: index, abbr, types, records
    model: str           # the setup's abbr: 'base', 'chat-meta' or 'api'
    oc: list[dict]
    pk: list[dict]

    @property
    def oc_error(self) -> str | None:
        return self.oc[0].get('error') if len(self.oc) == 1 else None

    @property
    def pk_error(self) -> str | None:
        return self.pk[0].get('error') if len(self.pk) == 1 else None


@dataclass(frozen=True)
class Rule:
    anchor: str  # the section's id in docs/compat.md
    what: str
    applies: Callable[[Case], bool]


def _raw_template_for_completion(case: Case) -> bool:
    """OpenCompass renders RawPromptTemplate only for API models: LMTemplateParser asserts on a messages list."""
    raw_template = 'RawPromptTemplate' in (case.dataset['types'].get('prompt_template'), case.dataset['types'].get('ice_template'))
    return raw_template and case.model != 'api' and (case.oc_error or '').startswith('AssertionError') and case.pk_error is None


def _each_difference(case: Case, explained: Callable[[dict, dict], bool]) -> bool:
    """Both engines rendered the same records but for some, and ``explained`` accepts each of those."""
    if case.oc_error or case.pk_error or len(case.oc) != len(case.pk):
        return False
    pairs = [(a, b) for a, b in zip(case.oc, case.pk, strict=True) if a != b]
    return bool(pairs) and all(explained(a, b) for a, b in pairs)


def _but_prompt(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != 'prompt'}


def _leading_newline(case: Case) -> bool:
    """Without a meta template OpenCompass prefixes '\\n' when the first item renders empty; otherwise identical."""
    def explained(a: dict, b: dict) -> bool:
        return (_but_prompt(a) == _but_prompt(b) and isinstance(a['prompt'], str) and isinstance(b['prompt'], str)
                and a['prompt'] == '\n' + b['prompt'])
    return case.model == 'base' and _each_difference(case, explained)


def _system_in_round(case: Case) -> bool:
    """A SYSTEM item inside a round: OpenCompass's completion parser raises KeyError: 'SYSTEM' (the chat-meta
    model reserves SYSTEM); promptkit renders the item with the SYSTEM role's own begin/end."""
    return (case.model == 'chat-meta' and case.oc_error == "KeyError: 'SYSTEM'" and 'SYSTEM' in case.dataset.get('round_roles', [])
            and case.pk_error is None and all('<|im_start|>system\n' in r['prompt'] for r in case.pk))


def _shots_without_ice_token(case: Case) -> bool:
    """The retriever picks shots but the template has no ice_token: OpenCompass's prompts hold none of the picked
    rows (it drops them silently); promptkit refuses with its no-ice_token error."""
    if case.oc_error or 'but the template has no ice_token' not in (case.pk_error or ''):
        return False
    picked = [(r, [i for i in r['ice_idx'] if i != r['index']]) for r in case.oc]
    return any(shots for _, shots in picked) and not any(
        re.search(rf'of row {i}\b', json.dumps(r['prompt'], ensure_ascii=False)) for r, shots in picked for i in shots)


RULES: list[Rule] = [
    Rule('reserved-in-round', 'a SYSTEM item inside a round is rendered (OpenCompass: KeyError)', _system_in_round),
    Rule('loose-text', 'shots are never dropped silently: no ice_token is an error (OpenCompass drops the shots)', _shots_without_ice_token),
    Rule('leading-newline', 'no stray leading newline from an empty first item (no meta template)', _leading_newline),
    Rule('raw-messages-every-model', 'RawPromptTemplate rendered for completion models (OpenCompass: API models only)', _raw_template_for_completion),
]


def explain(case: Case) -> Rule | None:
    for rule in RULES:
        if rule.applies(case):
            return rule
    return None


def first_difference(oc: list[dict], pk: list[dict]) -> dict:
    for i in range(max(len(oc), len(pk))):
        a = oc[i] if i < len(oc) else None
        b = pk[i] if i < len(pk) else None
        if a != b:
            return {'record': i, 'opencompass': a, 'promptkit': b, 'opencompass_records': len(oc), 'promptkit_records': len(pk)}
    return {}


#: OpenCompass errors that come from the reference venv (a package it does not install), not from OpenCompass.
VENV_ERRORS = re.compile(r'^(ModuleNotFoundError|ImportError): Failed to import ')


def classify(case: Case) -> str:
    if case.oc == case.pk:
        return 'identical'
    if case.oc_error and VENV_ERRORS.match(case.oc_error):
        return 'out-of-scope'
    if case.oc_error and case.pk_error:
        return 'both-fail'
    rule = explain(case)
    if rule is not None:
        return f'deliberate:{rule.anchor}'
    if case.pk_error:
        return 'promptkit-fails'
    if case.oc_error:
        return 'opencompass-fails'
    return 'differs'


#: When a pair's datasets disagree, the pair takes the first of these that occurs.
PRECEDENCE = ('promptkit-fails', 'opencompass-fails', 'differs', 'deliberate', 'both-fail', 'identical')


def pair_status(statuses: list[str]) -> str:
    for status in PRECEDENCE:
        hits = [s for s in statuses if s.split(':', 1)[0] == status]
        if hits:
            return Counter(hits).most_common(1)[0][0]
    return 'out-of-scope'


def compare(oc_result: dict, datasets_dir: Path, work: Path) -> list[dict]:
    """One report entry per (config, model)."""
    config = oc_result['config']
    if 'load_error' in oc_result:
        return [{'config': config, 'model': abbr, 'status': 'out-of-scope', 'reason': f'OpenCompass cannot load it: {oc_result["load_error"]}'} for abbr in MODELS]
    if 'harness_error' in oc_result:
        return [{'config': config, 'model': abbr, 'status': 'out-of-scope', 'reason': f'harness error: {oc_result["harness_error"]}'} for abbr in MODELS]
    rows_file = work / 'rows' / (config.replace('/', '__').removesuffix('.py') + '.jsonl')
    rows_file.parent.mkdir(parents=True, exist_ok=True)
    rows_file.write_text(''.join(json.dumps(row, ensure_ascii=False) + '\n' for row in oc_result['rows']), encoding='utf-8')
    pk = promptkit_records(datasets_dir / config, rows_file, oc_result['splits'], list(MODELS.values()))
    out = []
    for abbr in MODELS:
        items = []
        for item in oc_result['datasets']:
            entry = {'index': item['index'], 'abbr': item['abbr']}
            if item['scope']:
                entry['status'] = 'out-of-scope'
                entry['reason'] = item['scope']
                items.append(entry)
                continue
            oc = item['records'][abbr]
            if isinstance(pk, str):
                got = [{'dataset': item['abbr'], 'model': abbr, 'error': pk}]
            elif item['index'] not in pk:
                got = [{'dataset': item['abbr'], 'model': abbr, 'error': f'promptkit found {len(pk)} datasets in the config'}]
            else:
                got = pk[item['index']].get(abbr, [{'error': f'no model {abbr!r}'}])
            case = Case(config, item, abbr, oc, got)
            entry['status'] = classify(case)
            entry['types'] = item['types']
            if entry['status'] == 'out-of-scope':
                entry['reason'] = f'reference venv: {case.oc_error}'
            if entry['status'] != 'identical':
                entry['first_difference'] = first_difference(oc, got)
            items.append(entry)
        statuses = [i['status'] for i in items if i['status'] != 'out-of-scope']
        pair = {'config': config, 'model': abbr, 'status': pair_status(statuses), 'datasets': items}
        if not statuses:
            pair['reason'] = _most_common(i['reason'] for i in items)
        out.append(pair)
    return out


def _most_common(reasons: Iterator[str]) -> str:
    return Counter(reasons).most_common(1)[0][0]


# --------------------------------------------------------------------------
# Running it.

def run_worker(python: str, datasets_dir: Path, configs: list[str], model_paths: list[Path], work: Path) -> Path:
    work.mkdir(parents=True, exist_ok=True)
    listing = work / 'configs.json'
    listing.write_text(json.dumps(configs))
    out = work / 'opencompass.jsonl'
    env = {**os.environ, 'PYTHONHASHSEED': '0', 'TQDM_DISABLE': '1', 'HF_DATASETS_DISABLE_PROGRESS_BARS': '1'}
    cmd = [python, str(HERE / 'parity_oc_worker.py'), '--configs-root', str(datasets_dir), '--list', str(listing),
           '--models', *map(str, model_paths), '--out', str(out)]
    with open(work / 'opencompass.log', 'w') as log:
        subprocess.run(cmd, check=True, env=env, stdout=log, stderr=log)
    return out


def summary(pairs: list[dict]) -> str:
    lines = []
    by_model: dict[str, Counter] = {}
    for pair in pairs:
        by_model.setdefault(pair['model'], Counter())[pair['status'].split(':', 1)[0]] += 1
    heads = ['identical', 'deliberate', 'both-fail', 'out-of-scope', *DEFECTS]
    lines.append('| model | ' + ' | '.join(heads) + ' |')
    lines.append('|---' * (len(heads) + 1) + '|')
    total: Counter = Counter()
    for model, counts in by_model.items():
        total.update(counts)
        lines.append(f'| {model} | ' + ' | '.join(str(counts[h]) for h in heads) + ' |')
    lines.append('| all | ' + ' | '.join(str(total[h]) for h in heads) + ' |')
    deliberate = Counter(p['status'] for p in pairs if p['status'].startswith('deliberate:'))
    if deliberate:
        lines.append('\ndeliberate (docs/compat.md sections): ' + ', '.join(f'{k.split(":", 1)[1]} {v}' for k, v in deliberate.most_common()))
    scope = Counter(_scope_kind(p['reason']) for p in pairs if p['status'] == 'out-of-scope')
    if scope:
        lines.append('out of scope: ' + ', '.join(f'{k} {v}' for k, v in scope.most_common()))
    return '\n'.join(lines)


def signature(item: dict) -> str:
    """A defect's category: the error without its config/dataset context, or what differs."""
    diff = item.get('first_difference', {})
    oc, pk = diff.get('opencompass') or {}, diff.get('promptkit') or {}
    if item['status'] == 'promptkit-fails':
        message = pk.get('error', '')
        message = re.sub(r"^(\w+: )config [^,:]+(, [a-z]+ '[^']*')*(: |, )", r'\1', message)
        return 'promptkit raises ' + re.sub(r"'[^']*\.py'", "'<config>'", message)[:160]
    if item['status'] == 'opencompass-fails':
        return 'OpenCompass raises, promptkit renders: ' + oc.get('error', '')[:120]
    if diff.get('opencompass_records') != diff.get('promptkit_records'):
        return 'record count differs'
    fields = sorted(k for k in set(oc) | set(pk) if oc.get(k) != pk.get(k))
    return f'records differ in {fields}'


def defect_categories(pairs: list[dict]) -> list[dict]:
    """Defects grouped by signature, most pairs first, with one example each."""
    groups: dict[str, dict] = {}
    for pair in pairs:
        for item in pair.get('datasets', []):
            if item['status'] not in DEFECTS:
                continue
            key = signature(item)
            group = groups.setdefault(key, {'category': key, 'pairs': set(), 'datasets': 0, 'example': None})
            group['pairs'].add((pair['config'], pair['model']))
            group['datasets'] += 1
            if group['example'] is None:
                group['example'] = {'config': pair['config'], 'model': pair['model'], 'dataset': item['abbr'], **item.get('first_difference', {})}
    ordered = sorted(groups.values(), key=lambda g: -len(g['pairs']))
    return [{**g, 'pairs': len(g['pairs'])} for g in ordered]


def _scope_kind(reason: str) -> str:
    return re.split(r'[:(]', reason, maxsplit=1)[0].strip()


def missing_sections(compat: Path) -> list[str]:
    text = compat.read_text(encoding='utf-8') if compat.is_file() else ''
    return [rule.anchor for rule in RULES if f'<a id="{rule.anchor}"></a>' not in text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('configs', nargs='*', help='config paths relative to the datasets folder (default: the sample)')
    parser.add_argument('--oc-src', required=True, type=Path, help="a working tree of OpenCompass's repository")
    parser.add_argument('--oc-python', default=os.environ.get('OC_VENV', '/tmp/ocvenv') + '/bin/python')
    parser.add_argument('--sample', type=int, default=300)
    parser.add_argument('--seed', type=int, default=13)
    parser.add_argument('--report', type=Path, default=Path('/tmp/parity_report.json'))
    parser.add_argument('--work', type=Path, default=Path('/tmp/parity_work'))
    parser.add_argument('--reuse-oc', action='store_true', help="reuse the worker's output in --work for the same configs")
    args = parser.parse_args(argv)

    datasets_dir = args.oc_src / DATASETS_DIR
    population = eligible(datasets_dir)
    configs = args.configs or random.Random(args.seed).sample(population, min(args.sample, len(population)))
    previous = args.work / 'configs.json'
    if args.reuse_oc and previous.is_file() and json.loads(previous.read_text()) == configs:
        oc_out = args.work / 'opencompass.jsonl'
    else:
        oc_out = run_worker(args.oc_python, datasets_dir, configs, list(MODELS.values()), args.work)

    pairs = []
    with open(oc_out, encoding='utf-8') as handle:
        for line in handle:
            pairs.extend(compare(json.loads(line), datasets_dir, args.work))

    import promptkit

    compat = Path(promptkit.__file__).resolve().parents[1] / 'docs' / 'compat.md'
    report = {
        'population': len(population), 'sample': len(configs), 'seed': args.seed,
        'promptkit': str(Path(promptkit.__file__).resolve().parent),
        'counts': Counter(p['status'] for p in pairs),
        'sections_missing_from_compat_md': missing_sections(compat),
        'defect_categories': defect_categories(pairs),
        'pairs': pairs,
    }
    args.report.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding='utf-8')
    sys.stdout.write(f'{len(configs)} configs (of {len(population)} eligible, seed {args.seed}) x {len(MODELS)} models\n')
    sys.stdout.write(summary(pairs) + '\n')
    for group in report['defect_categories']:
        example = group['example']
        sys.stdout.write(f"defect: {group['pairs']} pairs, {group['datasets']} datasets: {group['category']}\n"
                         f"    e.g. {example['config']} [{example['model']}] {example['dataset']}\n")
    if report['sections_missing_from_compat_md']:
        sys.stdout.write(f'rules naming sections docs/compat.md lacks: {report["sections_missing_from_compat_md"]}\n')
    sys.stdout.write(f'report: {args.report}\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
