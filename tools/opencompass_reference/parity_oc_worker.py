"""The OpenCompass half of ``parity_real_configs.py``: real configs, synthetic rows, OpenCompass 0.5.4's prompts.

Run by ``parity_real_configs.py`` with the scratch venv's interpreter (``setup_venv.sh``)::

    $OC_VENV/bin/python tools/opencompass_reference/parity_oc_worker.py \\
        --configs-root OC_SRC/opencompass/configs/datasets --list FILES.json \\
        --models m1.py m2.py m3.py --out oc.jsonl

For every config file of ``--list`` (paths relative to ``--configs-root``) it
writes one JSON line::

    {"config": "gsm8k/gsm8k_gen_1d7fe4.py", "rows": [row, ...], "splits": [name, ...],
     "datasets": [{"index": 0, "abbr": ..., "scope": null | "reason",
                   "records": {model_abbr: [record, ...]}}, ...]}

or ``{"config": ..., "load_error": "Type: message"}``.

* **Config.**  ``mmengine.config.Config.fromfile`` loads the file unmodified
  (lazy imports, as OpenCompass loads it).  The dataset entries are read raw:
  their ``type=`` objects stay unbuilt ``LazyObject``s, so dataset classes,
  evaluators and postprocessors are never imported.  Only the ``type=`` of
  ``infer_cfg``'s template, retriever and inferencer is imported.  Entries come
  from ``datasets`` or, without it, every top-level ``*_datasets`` list in
  order, as promptkit and OpenCompass's run configs collect them.
* **Scope.**  A dataset is not rendered (``scope`` says why) when its entry
  uses a name that OpenCompass 0.5.4 lacks (the repository is newer), a
  template or retriever class of a dataset module (custom classes), a retriever
  that needs a model or a package the venv stubs, or an inferencer that the
  reference loops (``render_with_opencompass.INFERENCERS``) do not cover.
* **Rows.**  One list of synthetic rows per config serves every dataset of it
  and every split they read (``train_split``, ``test_split``), as promptkit's
  ``--rows FILE`` does (``make_rows``): the union of the datasets'
  ``input_columns`` and ``output_column`` (and ``cont``/``choices``, which
  ``LLInferencer``/``CLPInferencer`` read by name), in order, each value naming its
  column and row (``'question of row 0'``); the answer column holds the
  templates' labels in turn where a ppl template or ``labels=`` has them, and
  a column a ``RawPromptTemplate`` expands (``expand_column``) holds a
  user/assistant exchange.
  3 rows, more when a ``fix_id_list`` reaches further.
* **Dataset.**  The entry's ``type`` is replaced by ``HarnessRows``, a
  ``BaseDataset`` whose ``load()`` returns those rows as a ``DatasetDict``
  (the same rows under each split name);
  every other key (``reader_cfg``, ``k``, ``n``, ``abbr``, the loader's own
  keywords) reaches ``BaseDataset`` as OpenCompass's ``build_dataset_from_cfg``
  passes it, so ``idx``/``subdivision`` columns and ``n`` repeats are
  OpenCompass's own.
* **Prompts.**  Templates and the retriever are built by OpenCompass's
  registries; the prompt loops and the model's final input are
  ``render_with_opencompass``'s.  ``max_seq_len`` is ``None``, as OpenCompass's
  infer task sets it from model configs without one.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import opencompass  # noqa: E402

# opencompass.datasets' __init__ imports every dataset module and their
# dependencies; the harness needs only its ``base`` module.  An empty package
# over the same folder lets ``opencompass.datasets.base`` import alone.
_DATASETS_DIR = Path(opencompass.__file__).parent / 'datasets'
_package = types.ModuleType('opencompass.datasets')
_package.__path__ = [str(_DATASETS_DIR)]
sys.modules['opencompass.datasets'] = _package

import datasets  # noqa: E402
import render_with_opencompass as rwo  # noqa: E402
from mmengine.config import Config  # noqa: E402
from mmengine.config.lazy import LazyAttr, LazyObject  # noqa: E402
from opencompass.datasets.base import BaseDataset  # noqa: E402
from opencompass.registry import ICL_PROMPT_TEMPLATES, ICL_RETRIEVERS  # noqa: E402
from opencompass.utils.abbr import dataset_abbr_from_cfg  # noqa: E402

OC_ROOT = Path(opencompass.__file__).parent
#: Rows per config (more when a FixKRetriever's fix_id_list reaches further).
ROWS = 3
#: Inferencers that call the model to build their next prompt.
MODEL_IN_LOOP = frozenset({'AgentInferencer', 'AttackInferencer', 'ToTInferencer'})
#: Retrievers whose shots depend on an embedding model or a scorer the venv only stubs.
MODEL_RETRIEVERS = frozenset({'TopkRetriever', 'MDLRetriever', 'VotekRetriever', 'DPPRetriever', 'BM25Retriever'})
PROMPT_TEMPLATES = frozenset({'PromptTemplate', 'RawPromptTemplate'})
#: Columns some inferencers read by a fixed name, not from reader_cfg: LLInferencer each row's continuation,
#: CLPInferencer the first test row's choices (a list of strings).
INFERENCER_COLUMNS = {'LLInferencer': 'cont', 'CLPInferencer': 'choices'}
META_KEYS = frozenset({'begin', 'round', 'end'})


# --------------------------------------------------------------------------
# Raw config values: ConfigDicts read without building their lazy imports.

def raw(value: Any) -> Any:
    """ConfigDict/dict → dict, list/tuple → list; ``LazyObject``s stay unbuilt."""
    if isinstance(value, dict):
        return {k: raw(v) for k, v in dict.items(value)}
    if isinstance(value, (list, tuple)):
        return [raw(v) for v in value]
    return value


def entries(cfg: Config) -> list[Any]:
    """``datasets``, or every top-level ``*_datasets`` list in order (promptkit's and OpenCompass's convention)."""
    top = dict.items(cfg._cfg_dict)
    values = dict(top)
    if 'datasets' in values:
        return list(raw(values['datasets']))
    found: list[Any] = []
    for name, value in values.items():
        if name.endswith('_datasets') and isinstance(value, (list, tuple)):
            found.extend(raw(value))
    return found


def lazy_names(value: Any) -> Iterator[tuple[str, str | None]]:
    """(module, name) of every lazy import used in a raw value."""
    if isinstance(value, LazyObject):
        if isinstance(value._module, str):
            yield value._module, value._imported
        else:
            yield from ((m, None) for m in value._module)
    elif isinstance(value, LazyAttr):
        yield value._module, value.name
    elif isinstance(value, dict):
        for v in value.values():
            yield from lazy_names(v)
    elif isinstance(value, list):
        for v in value:
            yield from lazy_names(v)


class Names054:
    """Module paths and top-level names of the installed OpenCompass 0.5.4 package, read with ``ast``."""

    def __init__(self, root: Path = OC_ROOT):
        self.modules: set[str] = set()
        self.names: set[str] = set()
        for path in root.rglob('*.py'):
            rel = path.relative_to(root.parent).with_suffix('')
            parts = list(rel.parts)
            if parts[-1] == '__init__':
                parts = parts[:-1]
            self.modules.add('.'.join(parts))
            try:
                tree = ast.parse(path.read_text(encoding='utf-8'))
            except (SyntaxError, UnicodeDecodeError):
                continue
            for node in tree.body:
                if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.names.add(node.name)
                elif isinstance(node, ast.Assign):
                    self.names.update(t.id for t in node.targets if isinstance(t, ast.Name))
                elif isinstance(node, ast.ImportFrom):
                    self.names.update(a.asname or a.name for a in node.names)

    def lacks(self, module: str, name: str | None) -> bool:
        if not module.startswith('opencompass'):
            return False
        if module not in self.modules:
            return True
        return name is not None and name not in self.names and f'{module}.{name}' not in self.modules


# --------------------------------------------------------------------------
# What the dataset entry asks for.

def type_name(value: Any) -> str:
    if isinstance(value, str):
        return value.rsplit('.', 1)[-1]
    if isinstance(value, LazyObject):
        return str(value)
    if isinstance(value, LazyAttr):
        return value.name
    return getattr(value, '__name__', repr(value))


def type_module(value: Any) -> str:
    if isinstance(value, str):  # a registry name: OpenCompass's ICL registries build it
        return 'opencompass.openicl'
    if isinstance(value, LazyObject):
        return value.module
    if isinstance(value, LazyAttr):
        return value._module
    return getattr(value, '__module__', '') or ''


def scope(entry: Any, names: Names054) -> str | None:
    """Why a dataset entry is not rendered, or None."""
    if not isinstance(entry, dict):
        return f'not a dict entry ({type(entry).__name__})'
    lacking = sorted({f'{m}.{n}' if n else m for m, n in lazy_names(entry) if names.lacks(m, n)})
    if lacking:
        return 'needs newer OpenCompass: ' + ', '.join(lacking)
    infer = entry.get('infer_cfg')
    if not isinstance(infer, dict):
        return 'no infer_cfg dict'
    for key in ('ice_template', 'prompt_template', 'retriever', 'inferencer'):
        cfg = infer.get(key)
        if not isinstance(cfg, dict):
            continue
        module = type_module(cfg.get('type'))
        if not module.startswith('opencompass.openicl'):
            return f'custom {key.split("_")[-1]} class: {type_name(cfg.get("type"))} ({module})'
        if key.endswith('template') and type_name(cfg.get('type')) not in PROMPT_TEMPLATES:
            return f'custom template class: {type_name(cfg.get("type"))} ({module})'
    retriever = type_name((infer.get('retriever') or {}).get('type'))
    if retriever in MODEL_RETRIEVERS:
        return f'retriever needs a model or a stubbed package: {retriever}'
    inferencer = type_name((infer.get('inferencer') or {}).get('type'))
    if inferencer in MODEL_IN_LOOP:
        return f'model in the loop: {inferencer}'
    if inferencer == 'ChatInferencer' and (infer.get('inferencer') or {}).get('infer_mode') == 'every':
        return "model in the loop: ChatInferencer(infer_mode='every') puts the model's replies in the history"
    if inferencer == 'GenInferencer' and (infer.get('inferencer') or {}).get('multiround'):
        return "model in the loop: GenInferencer(multiround=True) generates each empty assistant turn in turn"
    if inferencer not in rwo.INFERENCERS:
        return f'no reference loop: {inferencer}'
    return None


def kinds(entry: dict) -> dict[str, str | None]:
    """The ``type=`` names of an entry's infer_cfg parts (for the report and the difference rules)."""
    infer = entry.get('infer_cfg') if isinstance(entry.get('infer_cfg'), dict) else {}
    return {key: type_name(infer[key].get('type')) if isinstance(infer.get(key), dict) else None
            for key in ('ice_template', 'prompt_template', 'retriever', 'inferencer')}


def round_roles(entry: dict) -> list[str]:
    """The roles of the items inside the ``round`` of an entry's templates (every label's, for label-keyed ones)."""
    infer = entry.get('infer_cfg') if isinstance(entry.get('infer_cfg'), dict) else {}
    found: list[str] = []
    for key in ('ice_template', 'prompt_template'):
        template = (infer.get(key) or {}).get('template') if isinstance(infer.get(key), dict) else None
        bodies = [template] if isinstance(template, dict) and set(template) <= META_KEYS else (
            list(template.values()) if isinstance(template, dict) else [])
        for body in bodies:
            items = body.get('round', []) if isinstance(body, dict) else []
            for item in items if isinstance(items, list) else []:
                role = item.get('role') if isinstance(item, dict) else None
                if isinstance(role, str) and role not in found:
                    found.append(role)
    return found


def expand_columns(infer: dict) -> list[str]:
    """The columns a RawPromptTemplate expands into messages (``dict(expand_column=...)``)."""
    found = []
    for key in ('ice_template', 'prompt_template'):
        messages = (infer.get(key) or {}).get('messages') if isinstance(infer.get(key), dict) else None
        for item in messages if isinstance(messages, list) else []:
            if isinstance(item, dict) and isinstance(item.get('expand_column'), str):
                found.append(item['expand_column'])
    return found


def columns(reader_cfg: dict) -> list[str]:
    inputs = reader_cfg.get('input_columns') or []
    if isinstance(inputs, str):
        inputs = inputs.split()
    out = list(inputs)
    output = reader_cfg.get('output_column')
    if output and output not in out:
        out.append(output)
    return out


def labels(infer: dict) -> list[Any] | None:
    """The ppl labels a dataset entry declares: a label-keyed template's keys, or ``labels=``."""
    declared = (infer.get('inferencer') or {}).get('labels')
    if declared:
        return list(declared)
    for key in ('prompt_template', 'ice_template'):
        template = (infer.get(key) or {}).get('template')
        if isinstance(template, dict) and template and not set(template) <= META_KEYS:
            return list(template)
    return None


def make_rows(usable: list[dict]) -> tuple[list[dict], list[str]]:
    """Synthetic rows for every dataset of a config, and the split names they serve (see the module docstring)."""
    order: list[str] = []
    answers: dict[str, list[Any]] = {}
    chats: set[str] = set()
    splits: list[str] = []
    count = ROWS
    for entry in usable:
        # A malformed reader_cfg (e.g. a tuple, from a trailing comma) adds no column; OpenCompass's error is the result.
        reader = entry.get('reader_cfg') if isinstance(entry.get('reader_cfg'), dict) else {}
        for column in columns(reader):
            if column not in order:
                order.append(column)
        infer = entry['infer_cfg']
        fixed = INFERENCER_COLUMNS.get(type_name(infer['inferencer']['type']))
        if fixed and fixed not in order:
            order.append(fixed)
        chats.update(expand_columns(infer))
        output = reader.get('output_column')
        found = labels(infer)
        if output and found and output not in answers:
            answers[output] = found
        for split in (reader.get('train_split', 'train'), reader.get('test_split', 'test')):
            if split not in splits:
                splits.append(split)
        fix = (infer.get('retriever') or {}).get('fix_id_list') or []
        count = max([count, *(i + 1 for i in fix if isinstance(i, int))])

    def value(column: str, i: int) -> Any:
        if column == 'choices':
            return ['yes', 'no']
        if column in chats:
            return [{'role': 'user', 'content': f'{column} of row {i}, turn 0'},
                    {'role': 'assistant', 'content': f'{column} of row {i}, reply 0'}]
        if column in answers:
            return answers[column][i % len(answers[column])]
        return f'{column} of row {i}'

    return [{c: value(c, i) for c in order} for i in range(count)], splits


# --------------------------------------------------------------------------
# OpenCompass's side of one dataset entry.

class HarnessRows(BaseDataset):
    """A ``BaseDataset`` whose ``load()`` returns the harness's rows, whatever the entry's loader keywords."""

    @staticmethod
    def load(harness_rows: list[dict], harness_splits: list[str], **loader_keywords: Any) -> datasets.DatasetDict:
        return datasets.DatasetDict({split: datasets.Dataset.from_list(harness_rows) for split in harness_splits})


def built(value: Any) -> Any:
    """Build the lazy imports of a raw value (the ``type=`` classes of infer_cfg)."""
    if isinstance(value, (LazyObject, LazyAttr)):
        return value.build()
    if isinstance(value, dict):
        return {k: built(v) for k, v in value.items()}
    if isinstance(value, list):
        return [built(v) for v in value]
    return value


def build_dataset(entry: dict, rows: list[dict], splits: list[str]) -> HarnessRows:
    """As OpenCompass's ``build_dataset_from_cfg``: every key but infer_cfg/eval_cfg reaches the class.

    Only ``reader_cfg`` is built: ``HarnessRows.load`` ignores the loader's own
    keywords, whose lazy imports (e.g. a judge model's class) need packages the
    venv does not have.
    """
    cfg = {k: v for k, v in entry.items() if k not in ('type', 'infer_cfg', 'eval_cfg')}
    cfg['reader_cfg'] = built(cfg.get('reader_cfg', {}))
    return HarnessRows(harness_rows=rows, harness_splits=splits, **cfg)


def abbr_of(entry: dict) -> Any:
    """The dataset's name in OpenCompass's outputs: ``abbr``, else ``path`` and ``name`` (``dataset_abbr_from_cfg``)."""
    try:
        return dataset_abbr_from_cfg(entry)
    except (KeyError, TypeError):
        return entry.get('abbr')


def render_entry(entry: dict, rows: list[dict], splits: list[str], model: rwo.ReferenceModel) -> list[dict]:
    head = {'dataset': abbr_of(entry), 'model': model.abbr}
    try:
        infer = built(entry['infer_cfg'])
        dataset = build_dataset(entry, rows, splits)
        ice = ICL_PROMPT_TEMPLATES.build(infer['ice_template']) if infer.get('ice_template') else None
        prompt = ICL_PROMPT_TEMPLATES.build(infer['prompt_template']) if infer.get('prompt_template') else None
        retriever = ICL_RETRIEVERS.build({**infer['retriever'], 'dataset': dataset})
        inferencer = infer['inferencer']
        loop = rwo.INFERENCERS[type_name(inferencer['type'])]
        records = list(loop(retriever, ice, prompt, inferencer, model))
        json.dumps(records)  # a stub object in a prompt fails here, not unnoticed in the report
    except Exception as exc:  # OpenCompass's failures are results
        return [{**head, 'error': f'{type(exc).__name__}: {exc}'}]
    # Every field a loop gives (turn, label, continuation, sc_size, ...): records compare as dicts, order aside.
    return [{**head, **record} for record in records]


def reference_model(path: str) -> rwo.ReferenceModel:
    (cfg,) = rwo.load_config_list(path, 'models')
    model = rwo.ReferenceModel(cfg)
    # OpenCompass's infer task: inferencer.max_seq_len = model_cfg.get('max_seq_len').
    model.has_max_seq_len, model.max_seq_len = True, cfg.get('max_seq_len')
    return model


def process(config: str, root: Path, models: list[rwo.ReferenceModel], names: Names054) -> dict:
    path = root / config
    try:
        cfg = Config.fromfile(str(path), format_python_code=False)
        found = entries(cfg)
    except BaseException as exc:  # a config is user code; SystemExit included
        return {'config': config, 'load_error': f'{type(exc).__name__}: {str(exc)[:500]}'}
    if not found:
        return {'config': config, 'load_error': 'no datasets'}
    scopes = [scope(entry, names) for entry in found]
    rows, splits = make_rows([entry for entry, why in zip(found, scopes, strict=True) if why is None])
    out = []
    for index, (entry, why) in enumerate(zip(found, scopes, strict=True)):
        item: dict[str, Any] = {'index': index, 'abbr': abbr_of(entry) if isinstance(entry, dict) else None, 'scope': why}
        if isinstance(entry, dict):
            item['types'] = kinds(entry)
            item['round_roles'] = round_roles(entry)
        if why is None:
            item['records'] = {model.abbr: render_entry(entry, rows, splits, model) for model in models}
        out.append(item)
    return {'config': config, 'rows': rows, 'splits': splits, 'datasets': out}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('--configs-root', required=True)
    parser.add_argument('--list', required=True, help='JSON list of config paths relative to --configs-root')
    parser.add_argument('--models', nargs='+', required=True)
    parser.add_argument('--out', required=True)
    args = parser.parse_args(argv)
    root = Path(args.configs_root)
    configs = json.loads(Path(args.list).read_text())
    models = [reference_model(m) for m in args.models]
    names = Names054()
    with open(args.out, 'w', encoding='utf-8') as handle:
        for n, config in enumerate(configs, 1):
            try:
                result = process(config, root, models, names)
            except Exception as exc:  # the harness's own failure on this config: reported, the run goes on
                result = {'config': config, 'harness_error': f'{type(exc).__name__}: {exc}'}
            handle.write(json.dumps(result, ensure_ascii=False) + '\n')
            handle.flush()
            print(f'[oc {n}/{len(configs)}] {config}', file=sys.stderr, flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
