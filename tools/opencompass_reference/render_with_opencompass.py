"""Render promptkit-format configs through OpenCompass 0.5.4's own prompt classes.

Run it with the interpreter of the scratch venv built by ``setup_venv.sh``::

    $OC_VENV/bin/python tools/opencompass_reference/render_with_opencompass.py \\
        tests/parity/configs/datasets/string_fixk_gen.py \\
        --model tests/parity/configs/models/internlm_chat.py --out out.jsonl

Every prompt is produced by OpenCompass code: ``PromptTemplate`` or
``RawPromptTemplate``, a retriever
class from ``opencompass.openicl.icl_retriever`` reading a ``DatasetReader``,
the retriever's ``generate_ice`` / ``generate_prompt_for_generate_task`` /
``generate_label_prompt`` / ``get_labels``, then ``LMTemplateParser`` or
``APITemplateParser`` and, for chat models, the message preprocessing of
``opencompass.models.openai_api.OpenAI``.  This file only wires those pieces
together the way OpenCompass's infer task and its inferencers (Gen, PPL, LL,
CLP, PPLOnly, InferencePPLOnly, SC, SWCELoss, Chat) do.

Output: one JSON object per final prompt (see ``README.md`` next to this file).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from typing import Any

import datasets

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from reference_rows import load_jsonl, write_jsonl  # noqa: E402  (tools/, shared with the other harness)
from mmengine.config import Config
from opencompass.models.base import LMTemplateParser
from opencompass.models.base_api import APITemplateParser
from opencompass.models.huggingface_above_v4_33 import _convert_chat_messages, _get_meta_template
from opencompass.models.openai_api import OpenAI
from opencompass.openicl import icl_retriever
from opencompass.openicl.icl_dataset_reader import DatasetReader
from opencompass.openicl.icl_inferencer import icl_chat_inferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_raw_prompt_template import RawPromptTemplate

# --------------------------------------------------------------------------
# Model types -> how OpenCompass turns a PromptList into the model's input.

COMPLETION_MODELS = frozenset({
    'HuggingFaceCausalLM', 'HuggingFace', 'VLLM', 'TurboMindModel',
    'VLLMCustomAPI', 'CompletionModel',
})
# HuggingFaceBaseModel ignores any meta template: OpenCompass builds its
# parser as LMTemplateParser() with no argument.
BASE_MODELS = frozenset({'HuggingFaceBaseModel'})
CHAT_MODELS = frozenset({'OpenAI', 'OpenAISDK', 'ChatModel', 'VLLMCustomAPIChat'})
# Local chat models that apply the tokenizer's chat template: the harness records
# the messages OpenCompass hands to apply_chat_template (its default meta template
# and _convert_chat_messages); the parity test applies the template with the
# real transformers library (tests/parity/test_chat_template_parity.py).
CHAT_TEMPLATE_MODELS = frozenset({
    'HuggingFacewithChatTemplate', 'VLLMwithChatTemplate', 'TurboMindModelwithChatTemplate',
})
# Chat model types that, without a meta template, use this default one
# (AISBench's VLLMCustomAPIChat default; promptkit's ChatModel is defined to
# match it).  OpenCompass's own OpenAI/OpenAISDK use no meta template then.
DEFAULT_CHAT_META_TYPES = frozenset({'ChatModel', 'VLLMCustomAPIChat'})
DEFAULT_CHAT_META = dict(
    round=[
        dict(role='HUMAN', api_role='HUMAN'),
        dict(role='BOT', api_role='BOT', generate=True),
    ],
    reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
)


def _type_name(cfg: dict) -> str:
    """``'opencompass.openicl.FixKRetriever'`` and ``'FixKRetriever'`` -> ``'FixKRetriever'``."""
    value = cfg.get('type')
    if not isinstance(value, str):
        raise TypeError(f'config type= must be a string name, got {value!r}')
    return value.rsplit('.', 1)[-1]


def _without_type(cfg: dict) -> dict:
    return {k: v for k, v in cfg.items() if k != 'type'}


def count_words(parsed: Any) -> int:
    """Harness token count: whitespace-separated words.

    A string counts its words; a list of messages (``{'role','prompt'}`` from
    the API parser) counts the words of each message's text and sums them.
    This replaces a real tokenizer, which the harness does not have.
    """
    if isinstance(parsed, str):
        return len(parsed.split())
    total = 0
    for item in parsed:
        if isinstance(item, dict):
            text = item.get('prompt', item.get('content', ''))
            total += len(str(text).split()) if text is not None else 0
        else:
            total += len(str(item).split())
    return total


class ReferenceModel:
    """Stands in for an OpenCompass model: its template parser plus a word counter."""

    def __init__(self, model_cfg: dict | None):
        if model_cfg is None:
            self.abbr = None
            self.kind = 'none'
            self.parser = LMTemplateParser()
            self.max_seq_len = None
            self.has_max_seq_len = False
            return
        type_name = _type_name(model_cfg)
        self.abbr = model_cfg.get('abbr', type_name)
        meta = model_cfg.get('meta_template')
        if type_name in COMPLETION_MODELS:
            self.kind = 'completion'
            self.parser = LMTemplateParser(meta)
        elif type_name in BASE_MODELS:
            self.kind = 'completion'
            self.parser = LMTemplateParser()
        elif type_name in CHAT_MODELS:
            self.kind = 'chat'
            if meta is None and type_name in DEFAULT_CHAT_META_TYPES:
                meta = DEFAULT_CHAT_META
            self.parser = APITemplateParser(meta)
        elif type_name in CHAT_TEMPLATE_MODELS:
            self.kind = 'chat_template'
            self.parser = _get_meta_template(meta)
        else:
            raise ValueError(f'unknown model type {type_name!r}')
        # OpenCompass's infer task copies model_cfg.max_seq_len onto the
        # inferencer; see choose_max_seq_len().
        self.has_max_seq_len = 'max_seq_len' in model_cfg
        self.max_seq_len = model_cfg.get('max_seq_len')

    def parse(self, prompt: Any, mode: str) -> Any:
        return self.parser.parse_template(prompt, mode=mode)

    def token_len(self, prompt: Any, mode: str) -> int:
        return count_words(self.parse(prompt, mode))

    def final_input(self, prompt: Any, mode: str) -> Any:
        """What the model receives: a string, or OpenAI chat messages."""
        parsed = self.parse(prompt, mode)
        if self.kind == 'chat_template':
            return _convert_chat_messages([parsed])[0]
        if self.kind != 'chat':
            return parsed
        return to_openai_messages(parsed)


def to_openai_messages(parsed: Any) -> list[dict]:
    """Apply ``OpenAI._preprocess_messages`` + ``_messages_to_chat_completions``.

    Called on an uninitialised ``OpenAI`` object: with ``mode='none'`` and no
    ``max_out_len`` those methods only read their arguments.
    """
    client = object.__new__(OpenAI)
    messages, _ = client._preprocess_messages(
        parsed, max_out_len=None, max_seq_len=float('inf'), mode='none',
        get_token_len_func=lambda text: len(text.split()))
    messages = client._messages_to_chat_completions(messages)
    # Put 'role' first for readability; key order carries no meaning.
    return [{**({'role': m['role']} if 'role' in m else {}), **m} for m in messages]


def _circular_module() -> Any:
    """``opencompass.datasets.circular`` imported alone: the package's ``__init__`` (every dataset and its
    dependencies) does not run; its dataset modules' own imports that the venv lacks get placeholders."""
    import importlib
    import types

    import oc_autostub  # the venv's placeholders for heavy imports (setup_venv.sh)
    import opencompass

    oc_autostub.STUBBED = oc_autostub.STUBBED | {'gradio_client', 'regex', 'absl', 'langdetect'}
    if 'opencompass.datasets' not in sys.modules:
        package = types.ModuleType('opencompass.datasets')
        package.__path__ = [os.path.join(os.path.dirname(opencompass.__file__), 'datasets')]
        sys.modules['opencompass.datasets'] = package
    return importlib.import_module('opencompass.datasets.circular')


def make_circular(data: Any, circular: dict, test_split: str) -> Any:
    """A promptkit ``circular=dict(...)`` applied by OpenCompass's ``CircularDatasetMeta.make_circular``.

    The modes map to OpenCompass's ``circular_patterns`` (``rotations`` ->
    ``'circular'``, ``all`` -> ``'all_possible'``); ``labels`` become an answer
    switch method; promptkit's ``shuffle`` mode has no OpenCompass counterpart.
    """
    CircularDatasetMeta = _circular_module().CircularDatasetMeta

    patterns = {'rotations': 'circular', 'all': 'all_possible'}[circular.get('mode', 'rotations')]
    options = list(circular['options'])
    answer = circular.get('answer', 'answer')
    labels = circular.get('labels')
    switch = None
    if labels is not None:
        def switch(item, pattern):
            item[answer] = labels[options.index(pattern[labels.index(item[answer])])]
            return item
    return CircularDatasetMeta.make_circular(
        data, circular_splits=list(circular.get('splits') or [test_split]), circular_patterns=patterns,
        option_keys=options, answer_key=None if switch else answer, answer_key_switch_method=switch)


# --------------------------------------------------------------------------
# Dataset: JSONL files -> datasets.Dataset(Dict) -> OpenCompass DatasetReader.

class ReferenceDataset:
    """The three attributes OpenCompass's retrievers read: reader, train, test.

    OpenCompass's BaseDataset would additionally add ``idx``/``subdivision``
    columns; those belong to dataset loading, not to prompt construction, so
    the harness builds the DatasetReader directly.
    """

    def __init__(self, path: Any, reader_cfg: dict, base_dir: str, circular: dict | None = None):
        if isinstance(path, str):
            data = load_jsonl(os.path.join(base_dir, path))
        elif isinstance(path, dict):
            data = datasets.DatasetDict({
                split: load_jsonl(os.path.join(base_dir, file))
                for split, file in path.items()
            })
        else:
            raise TypeError(f'dataset path must be a str or a dict, got {path!r}')
        if circular is not None:
            data = make_circular(data, circular, reader_cfg.get('test_split', 'test'))
        self.reader = DatasetReader(data, **reader_cfg)

    @property
    def train(self):
        return self.reader.dataset['train']

    @property
    def test(self):
        return self.reader.dataset['test']


TEMPLATES = {'PromptTemplate': PromptTemplate, 'RawPromptTemplate': RawPromptTemplate}


def build_template(cfg: dict | None) -> PromptTemplate | RawPromptTemplate | None:
    if cfg is None:
        return None
    cls = TEMPLATES.get(_type_name(cfg))
    if cls is None:
        raise ValueError(f'unsupported template type {cfg["type"]!r}')
    return cls(**_without_type(cfg))


def build_retriever(cfg: dict, dataset: ReferenceDataset):
    cls = getattr(icl_retriever, _type_name(cfg), None)
    if cls is None:
        raise ValueError(f'unknown retriever type {cfg["type"]!r}')
    return cls(dataset, **_without_type(cfg))


def choose_max_seq_len(inferencer_cfg: dict, model: ReferenceModel) -> int | None:
    """The limit the inferencer runs with.

    OpenCompass's infer task overwrites the inferencer's ``max_seq_len`` with
    ``model_cfg.get('max_seq_len')``.  The harness does the same when the
    model config has a ``max_seq_len`` key; when it has none (or there is no
    model) the inferencer's own ``max_seq_len`` is used.
    """
    if model.has_max_seq_len:
        return model.max_seq_len
    return inferencer_cfg.get('max_seq_len')


# --------------------------------------------------------------------------
# The inferencers' prompt loops, calling OpenCompass's building blocks.

def gen_records(retriever, ice_template, prompt_template, inferencer_cfg,
                model: ReferenceModel, final_mode: str = 'gen') -> Iterator[dict]:
    """GenInferencer: one prompt per test row; drop the last shot while too long.

    ``final_mode`` is the mode the model parses the prompt in when it is sent.
    """
    replace_token = inferencer_cfg.get('gen_field_replace_token', '')
    max_seq_len = choose_max_seq_len(inferencer_cfg, model)

    def build(index: int, shots: list[int]):
        ice = retriever.generate_ice(shots, ice_template=ice_template)
        return retriever.generate_prompt_for_generate_task(
            index, ice, gen_field_replace_token=replace_token,
            ice_template=ice_template, prompt_template=prompt_template)

    for index, shots in enumerate(retriever.retrieve()):
        shots = list(shots)
        prompt = build(index, shots)
        if max_seq_len is not None:
            while shots and model.token_len(prompt, 'gen') > max_seq_len:
                shots = shots[:-1]
                prompt = build(index, shots)
        yield dict(index=index, mode='gen',
                   prompt=model.final_input(prompt, final_mode), ice_idx=shots)


def ppl_records(retriever, ice_template, prompt_template, inferencer_cfg,
                model: ReferenceModel) -> Iterator[dict]:
    """PPLInferencer: one prompt per (row, label).

    OpenCompass loops label-major and shortens a row's shot list in place, so
    a truncation made for one label carries over to the following labels.
    The loop below keeps that order and state, then yields row-major.
    """
    max_seq_len = choose_max_seq_len(inferencer_cfg, model)
    shot_lists = [list(s) for s in retriever.retrieve()]
    labels = inferencer_cfg.get('labels')
    if labels is None:
        labels = retriever.get_labels(ice_template=ice_template,
                                      prompt_template=prompt_template)
    ices = [retriever.generate_ice(s, ice_template=ice_template) for s in shot_lists]
    # PPLInferencer parses the shots on their own (to save them) before scoring.
    model.parse(ices, 'ppl')

    def build(index: int, label: Any):
        return retriever.generate_label_prompt(
            index, ices[index], label, ice_template=ice_template,
            prompt_template=prompt_template, remain_sep=False)

    built: dict[tuple[int, int], tuple[Any, list[int]]] = {}
    for label_pos, label in enumerate(labels):
        for index in range(len(shot_lists)):
            prompt = build(index, label)
            length = model.token_len(prompt, 'ppl')  # computed unconditionally, as upstream
            if max_seq_len is not None:
                while shot_lists[index] and length > max_seq_len:
                    shot_lists[index] = shot_lists[index][:-1]
                    ices[index] = retriever.generate_ice(shot_lists[index],
                                                         ice_template=ice_template)
                    prompt = build(index, label)
                    length = model.token_len(prompt, 'ppl')
            built[index, label_pos] = prompt, list(shot_lists[index])

    for index in range(len(shot_lists)):
        for label_pos, label in enumerate(labels):
            prompt, shots = built[index, label_pos]
            yield dict(index=index, mode='ppl', label=label,
                       prompt=model.final_input(prompt, 'ppl'), ice_idx=shots)


def ll_records(retriever, ice_template, prompt_template, inferencer_cfg,
               model: ReferenceModel) -> Iterator[dict]:
    """LLInferencer: PPLInferencer's prompt loop (labels, shots, truncation);
    each prompt is scored on the continuation in the row's ``cont`` column."""
    for record in ppl_records(retriever, ice_template, prompt_template,
                              inferencer_cfg, model):
        record['continuation'] = retriever.test_ds[record['index']]['cont']
        yield record


def clp_records(retriever, ice_template, prompt_template, inferencer_cfg,
                model: ReferenceModel) -> Iterator[dict]:
    """CLPInferencer: one prompt per row, no replacement token; one token of
    max_seq_len is kept for the choice; the first test row's ``choices``."""
    if model.kind == 'chat':
        raise ValueError('API model is not supported for conditional log '
                         'probability inference and skip this exp.')
    max_seq_len = choose_max_seq_len(inferencer_cfg, model)
    choices = retriever.test_ds[0]['choices']

    def build(index: int, shots: list[int]):
        ice = retriever.generate_ice(shots, ice_template=ice_template)
        return retriever.generate_prompt_for_generate_task(
            index, ice, ice_template=ice_template, prompt_template=prompt_template)

    for index, shots in enumerate(retriever.retrieve()):
        shots = list(shots)
        prompt = build(index, shots)
        if max_seq_len is not None:
            while shots and model.token_len(prompt, 'gen') + 1 > max_seq_len:
                shots = shots[:-1]
                prompt = build(index, shots)
        yield dict(index=index, mode='gen', prompt=model.final_input(prompt, 'gen'),
                   ice_idx=shots, choices=choices)


def ppl_only_records(retriever, ice_template, prompt_template, inferencer_cfg,
                     model: ReferenceModel) -> Iterator[dict]:
    """PPLOnlyInferencer: GenInferencer's prompts (fitted in gen mode), each
    scored whole: ``get_ppl_from_template`` parses them in ppl mode."""
    assert retriever.dataset_reader.output_column is None, (
        'PPLOnlyInferencer supports `output_column=None` only.')
    for record in gen_records(retriever, ice_template, prompt_template,
                              {**inferencer_cfg, 'gen_field_replace_token': ''},
                              model, final_mode='ppl'):
        record.update(mode='ppl', label=None)
        yield record


def inference_ppl_only_records(retriever, ice_template, prompt_template,
                               inferencer_cfg, model: ReferenceModel) -> Iterator[dict]:
    """InferencePPLOnlyInferencer: as PPLOnlyInferencer, scored on the spans
    of the row's ``label`` column."""
    for record in ppl_only_records(retriever, ice_template, prompt_template,
                                   inferencer_cfg, model):
        record['label_spans'] = retriever.test_ds[record['index']]['label']
        yield record


def sc_records(retriever, ice_template, prompt_template, inferencer_cfg,
               model: ReferenceModel) -> Iterator[dict]:
    """SCInferencer: GenInferencer's prompts, each sampled ``sc_size`` times."""
    for record in gen_records(retriever, ice_template, prompt_template,
                              inferencer_cfg, model):
        record['sc_size'] = inferencer_cfg.get('sc_size', 1)
        yield record


def swce_records(retriever, ice_template, prompt_template, inferencer_cfg,
                 model: ReferenceModel) -> Iterator[dict]:
    """SWCELossInferencer: each row's prompt_template text with no shots and no
    ice_template, handed to the tokenizer as it is (no meta template)."""
    assert retriever.dataset_reader.output_column is None, (
        'SWCELossInferencer supports `output_column=None` only.')
    if model.kind == 'chat':
        raise AttributeError("API models have no 'tokenizer' to encode the text with")
    for index, _ in enumerate(retriever.retrieve()):
        prompt = retriever.generate_prompt_for_generate_task(
            index, ice='', ice_template=None, prompt_template=prompt_template)
        if not isinstance(prompt, str):
            raise TypeError(f'tokenizer.encode() takes a str, not {type(prompt).__name__}')
        yield dict(index=index, mode='gen', prompt=prompt, ice_idx=[])


def chat_records(retriever, ice_template, prompt_template, inferencer_cfg,
                 model: ReferenceModel) -> Iterator[dict]:
    """ChatInferencer: ``get_chat_list`` builds each row's chat; every turn to
    answer (an assistant message, by ``infer_mode``) sends the chat before it,
    parsed by ChatInferencer's own LM/API template parsers."""
    infer_mode = inferencer_cfg.get('infer_mode', 'last')
    if infer_mode == 'every':
        raise ValueError("infer_mode='every' needs the model's replies; the harness records 'last' and 'every_with_gt'")
    inferencer = object.__new__(icl_chat_inferencer.ChatInferencer)
    inferencer.dialogue_mode = False
    chats = inferencer.get_chat_list(retriever.retrieve(), retriever,
                                     prompt_template=prompt_template)
    meta = model.parser.meta_template if model.kind != 'none' else None
    if model.kind == 'chat':
        parser = icl_chat_inferencer.APITemplateParser(meta)
    elif model.kind == 'chat_template':
        raise ValueError('the harness records ChatInferencer for completion and API models')
    else:
        parser = icl_chat_inferencer.LMTemplateParser(meta)
    for index, chat in enumerate(chats):
        answers = [i for i, item in enumerate(chat) if item['role'] == 'assistant']
        turns = list(enumerate(answers))
        if infer_mode == 'last':
            turns = turns[-1:]
        for turn, position in turns:
            parsed = parser.parse_template(chat[:position], mode='gen')
            prompt = to_openai_messages(parsed) if model.kind == 'chat' else parsed
            yield dict(index=index, mode='gen', turn=turn, prompt=prompt, ice_idx=[])


INFERENCERS = {
    'GenInferencer': gen_records, 'PPLInferencer': ppl_records,
    'LLInferencer': ll_records, 'CLPInferencer': clp_records,
    'PPLOnlyInferencer': ppl_only_records,
    'InferencePPLOnlyInferencer': inference_ppl_only_records,
    'SCInferencer': sc_records, 'SWCELossInferencer': swce_records,
    'ChatInferencer': chat_records,
}
#: Fields a record carries after ice_idx, for the inferencers that add them.
EXTRA_FIELDS = ('continuation', 'choices', 'label_spans', 'sc_size')


def render_dataset(ds_cfg: dict, base_dir: str, model: ReferenceModel) -> list[dict]:
    abbr = ds_cfg.get('abbr')
    head = {'dataset': abbr, 'model': model.abbr}
    try:
        infer_cfg = ds_cfg['infer_cfg']
        dataset = ReferenceDataset(ds_cfg['path'], dict(ds_cfg.get('reader_cfg', {})), base_dir, ds_cfg.get('circular'))
        ice_template = build_template(infer_cfg.get('ice_template'))
        prompt_template = build_template(infer_cfg.get('prompt_template'))
        retriever = build_retriever(infer_cfg['retriever'], dataset)
        inferencer_cfg = infer_cfg['inferencer']
        loop = INFERENCERS.get(_type_name(inferencer_cfg))
        if loop is None:
            raise ValueError(f'unsupported inferencer {inferencer_cfg["type"]!r}')
        records = list(loop(retriever, ice_template, prompt_template,
                            inferencer_cfg, model))
    except Exception as exc:  # the harness records OpenCompass's failures
        return [{**head, 'error': f'{type(exc).__name__}: {exc}'}]
    out = []
    for record in records:
        ordered = {**head, 'index': record['index'], 'mode': record['mode']}
        if 'turn' in record:
            ordered['turn'] = record['turn']
        if 'label' in record:
            ordered['label'] = record['label']
        ordered['prompt'] = record['prompt']
        ordered['ice_idx'] = record['ice_idx']
        ordered.update((key, record[key]) for key in EXTRA_FIELDS if key in record)
        pattern = dataset.reader.dataset['test'][record['index']].get('circular_pattern')
        if pattern is not None:  # promptkit's record names the row's order of options by their labels
            labels = ds_cfg['circular'].get('labels') or ds_cfg['circular']['options']
            names = [labels[list(ds_cfg['circular']['options']).index(key)] for key in pattern]
            ordered['permutation'] = ('' if all(len(n) == 1 for n in names) else ',').join(names)
        out.append(ordered)
    return out


def _plain(value: Any) -> Any:
    """ConfigDict/tuples -> dicts/lists, so OpenCompass sees ordinary objects."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def load_config_list(path: str, key: str) -> list[dict]:
    cfg = Config.fromfile(path, format_python_code=False)
    if key not in cfg:
        raise KeyError(f'{path}: no top-level {key!r} list')
    return _plain(cfg[key])


def render(dataset_cfg_path: str, model_cfg_path: str | None = None) -> list[dict]:
    """All records for every dataset in one config, for each model (or none)."""
    base_dir = os.path.dirname(os.path.abspath(dataset_cfg_path))
    ds_cfgs = load_config_list(dataset_cfg_path, 'datasets')
    model_cfgs = load_config_list(model_cfg_path, 'models') if model_cfg_path else [None]
    records = []
    for model_cfg in model_cfgs:
        model = ReferenceModel(model_cfg)
        for ds_cfg in ds_cfgs:
            records.extend(render_dataset(ds_cfg, base_dir, model))
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('dataset_cfg', help='promptkit-format dataset config (.py)')
    parser.add_argument('--model', help='promptkit-format model config (.py)')
    parser.add_argument('--out', help='output JSONL file (default: stdout)')
    args = parser.parse_args(argv)
    records = render(args.dataset_cfg, args.model)
    if args.out:
        with open(args.out, 'w', encoding='utf-8') as handle:
            write_jsonl(records, handle)
    else:
        write_jsonl(records, sys.stdout)
    return 0


if __name__ == '__main__':
    sys.exit(main())
