"""Render promptkit-format configs through AISBench 3.1.20260630's own classes.

Run it with the interpreter of the scratch venv built by ``setup_venv.sh``::

    $AIS_VENV/bin/python tools/aisbench_reference/render_with_aisbench.py \\
        tests/parity_ais/configs/datasets/dialog_every_with_gt.py \\
        --model tests/parity_ais/configs/models/vllm_chat_default.py \\
        [--replies tests/parity_ais/data/replies.jsonl] [--out out.jsonl]

Every prompt is produced by AISBench code, end to end: its ``BaseDataset``
(which adds the ``subdivision`` and ``idx`` columns) and ``DatasetReader``,
a retriever and the prompt templates (``PromptTemplate``, ``MMPromptTemplate``,
``MultiTurnPromptTemplate``) built through AISBench's registries from the
config's string ``type=`` names, the inferencer's own ``get_data_list`` and
``do_request`` (for ``MultiTurnGenInferencer`` that is ``infer_every`` /
``infer_every_with_gt`` / ``infer_last``, which slice the PromptList per turn
and splice the model's replies), the model's template parser
(``APITemplateParser`` / ``LMTemplateParser``) and the model's own
``generate`` -> ``get_request_body``.  Only the HTTP call is replaced:
``text_infer`` records the request body and answers through the model's own
``parse_text_response`` with the reply for that row and turn.

Output: one JSON object per request (see ``README.md`` next to this file).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from typing import Any

import datasets

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from ais_bench.benchmark.datasets import BFCLDataset
from ais_bench.benchmark.datasets.base import BaseDataset
from ais_bench.benchmark.models import APITemplateParser

# Registers LMMGenInferencer, which the icl_inferencer package does not import.
from ais_bench.benchmark.openicl.icl_inferencer import (
    BFCLV3FunctionCallInferencer,
    icl_lmm_gen_inferencer,  # noqa: F401,E402
)
from ais_bench.benchmark.registry import ICL_INFERENCERS, ICL_RETRIEVERS
from mmengine.config import Config
from reference_rows import RowsError, load_jsonl, write_jsonl  # noqa: E402  (tools/, shared with the other harness)

# --------------------------------------------------------------------------
# Model types -> the AISBench model class that stands for them.
#
# promptkit's own generic names (ChatModel, CompletionModel) map onto the
# AISBench wrappers whose behaviour they are defined to match.

CHAT_MODELS = {
    'VLLMCustomAPIChat': 'VLLMCustomAPIChat',
    'VLLMCustomAPIChatStream': 'VLLMCustomAPIChat',
    'VllmMultiturnAPIChatStream': 'VLLMCustomAPIChat',
    'ChatModel': 'VLLMCustomAPIChat',
}
# Chat models without any meta template (OpenCompass ``OpenAI`` semantics).
# AISBench has no such class: its no-meta chat path is ``APITemplateParser(None)``
# (what ``VITAGenerateAPI`` uses).  The harness puts that parser into a
# ``VLLMCustomAPIChat`` and sends its result as one user message; see
# ``install_no_meta_parser``.
NO_META_CHAT_MODELS = {
    'OpenAI': 'VLLMCustomAPIChat',
    'OpenAISDK': 'VLLMCustomAPIChat',
}
COMPLETION_MODELS = {
    'VLLMCustomAPI': 'VLLMCustomAPI',
    'VLLMCustomAPIStream': 'VLLMCustomAPI',
    'CompletionModel': 'VLLMCustomAPI',
}
# The model name sent in the request body; given so AISBench does not ask a
# server for it (``_get_service_model_path``).
SERVED_MODEL = 'aisbench-reference'
# promptkit's BFCLV3FunctionCallInferencer keys that are not AISBench's inferencer arguments.
BFCL_PROMPTKIT_KEYS = ('type', 'returns_tool_calls', 'system_prompt', 'holdout_message')
BFCL_TEXTS = None  # a BFCLTexts, made on first use


class HarnessError(Exception):
    """A problem with the harness input (not AISBench behaviour): never recorded."""


def _type_name(cfg: dict) -> str:
    """``'ais_bench.benchmark.openicl.ZeroRetriever'`` and ``'ZeroRetriever'`` -> ``'ZeroRetriever'``."""
    value = cfg.get('type')
    if not isinstance(value, str):
        raise HarnessError(f'config type= must be a string name, got {value!r}')
    return value.rsplit('.', 1)[-1]


def _plain(value: Any) -> Any:
    """ConfigDict/tuples -> dicts/lists, so AISBench sees ordinary objects."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _with_short_type(cfg: dict) -> dict:
    """A template/retriever/inferencer config whose type is the bare registry name."""
    return {**cfg, 'type': _type_name(cfg)}


def _template_cfg(infer_cfg: dict, key: str) -> dict | None:
    cfg = infer_cfg.get(key)
    return None if cfg is None else _with_short_type(cfg)


class ModelSpec:
    """One entry of a promptkit model config, as the AISBench model it stands for.

    Only ``type``, ``abbr`` and ``meta_template`` are read: the other keys of a
    promptkit model config (``mm_placeholders``, ``max_seq_len``, ...) are not
    AISBench parameters.  ``generation_kwargs={}`` is passed because the wheel's
    ``BaseAPIModel`` keeps the default ``None`` and ``get_request_body`` then
    fails on ``None.copy()``; real AISBench configs always set it.
    No model config means ``VLLMCustomAPI`` without a meta template, i.e.
    ``LMTemplateParser(None)``: the prompt items joined with newlines.
    """

    def __init__(self, model_cfg: dict | None):
        if model_cfg is None:
            self.abbr = None
            self.kind = 'completion'
            ais_type, meta = 'VLLMCustomAPI', None
        else:
            type_name = _type_name(model_cfg)
            self.abbr = model_cfg.get('abbr', type_name)
            meta = model_cfg.get('meta_template')
            if type_name in CHAT_MODELS:
                self.kind, ais_type = 'chat', CHAT_MODELS[type_name]
            elif type_name in NO_META_CHAT_MODELS:
                if meta is not None:
                    raise HarnessError(f'{type_name} with a meta template: use VLLMCustomAPIChat')
                self.kind, ais_type = 'chat-no-meta', NO_META_CHAT_MODELS[type_name]
            elif type_name in COMPLETION_MODELS:
                self.kind, ais_type = 'completion', COMPLETION_MODELS[type_name]
            else:
                raise HarnessError(f'unknown model type {type_name!r}')
        self.model_cfg: dict[str, Any] = dict(type=ais_type, model=SERVED_MODEL,
                              meta_template=meta, generation_kwargs={})


# --------------------------------------------------------------------------
# Dataset: a JSONL file -> AISBench BaseDataset (adds 'subdivision', 'idx').

class ReferenceJsonlDataset(BaseDataset):
    """AISBench's BaseDataset over one JSONL file.

    BaseDataset builds the DatasetReader (train = test = the file) and then
    appends ``subdivision`` (``<abbr>_<split>``) and ``idx`` (row number)
    columns to every row, as for any AISBench dataset.
    """

    def load(self, path: str) -> datasets.Dataset:  # noqa: D102 - BaseDataset hook
        return load_jsonl(path)


def build_dataset(ds_cfg: dict, base_dir: str, bfcl_dir: str | None = None) -> BaseDataset:
    path = ds_cfg.get('path')
    if not isinstance(path, str):
        raise HarnessError(f'dataset path must be a JSONL file name, got {path!r}')
    if bfcl_dir is not None:
        use_class_docs(ds_cfg.get('class_docs'), base_dir)
        return build_bfcl_dataset(ds_cfg, os.path.join(base_dir, path), bfcl_dir)
    return ReferenceJsonlDataset(reader_cfg=dict(ds_cfg.get('reader_cfg', {})),
                                 abbr=ds_cfg.get('abbr', 'dataset'),
                                 path=os.path.join(base_dir, path))


def build_bfcl_dataset(ds_cfg: dict, path: str, bfcl_dir: str) -> BaseDataset:
    """AISBench's own ``BFCLDataset`` over one JSONL file of BFCL rows (with their ``ground_truth``).

    *Harness*: BFCL keeps questions and answers in two files
    (``BFCL_v3_<category>.json`` and ``possible_answer/BFCL_v3_<category>.json``);
    the rows are split into that layout under ``bfcl_dir``, the category being
    the row ids' prefix (``simple_0`` -> ``simple``), as AISBench's inferencer
    reads it.  ``BFCLDataset.load`` (AISBench) then reads them back, joins the
    answers, JSON-encodes ``question``/``function``/``ground_truth`` and adds
    ``subdivision`` and ``idx`` like any AISBench dataset.
    """
    with open(path, encoding='utf-8') as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    categories = {row['id'].rsplit('_', 1)[0] for row in rows}
    if len(categories) != 1:
        raise HarnessError(f'{path}: BFCL rows of one category per file, got {sorted(categories)}')
    category = categories.pop()
    os.makedirs(os.path.join(bfcl_dir, 'possible_answer'), exist_ok=True)
    for name, keep in ((f'BFCL_v3_{category}.json', lambda row: {k: v for k, v in row.items() if k != 'ground_truth'}),
                       (f'possible_answer/BFCL_v3_{category}.json', lambda row: {'id': row['id'], 'ground_truth': row.get('ground_truth')})):
        with open(os.path.join(bfcl_dir, name), 'w', encoding='utf-8') as handle:
            handle.writelines(json.dumps(keep(row), ensure_ascii=False) + '\n' for row in rows)
    return BFCLDataset(reader_cfg=dict(ds_cfg.get('reader_cfg', {})), abbr=ds_cfg.get('abbr', 'dataset'),
                       path=bfcl_dir, category=category)


def use_class_docs(class_docs: dict | None, base_dir: str) -> None:
    """Point bfcl-eval's multi-turn loader at the config's own function documents.

    *Harness*: a BFCL multi-turn entry names its ``involved_classes``, and
    bfcl-eval's ``process_multi_turn_test_case`` (called by AISBench's
    ``BFCLDataset.load``) reads each class's function documents (JSON Lines)
    from the files it ships (``MULTI_TURN_FUNC_DOC_PATH`` /
    ``MULTI_TURN_FUNC_DOC_FILE_MAPPING``).  The parity rows use classes of their
    own, so those two names are set to the folder of the config and to its
    ``class_docs`` (class name -> file, relative to that folder): the same
    key promptkit's ``BFCLDataset`` reads.  Nothing else of the loader changes.
    """
    import pathlib

    import bfcl_eval._llm_response_generation as generation
    generation.MULTI_TURN_FUNC_DOC_PATH = pathlib.Path(base_dir)
    generation.MULTI_TURN_FUNC_DOC_FILE_MAPPING = dict(class_docs or {})


class BFCLTexts:
    """bfcl-eval's prompt-style system prompt and held-out-function messages, set from a promptkit config.

    *Harness*: BFCL's prompt style writes the functions into bfcl-eval's
    ``DEFAULT_SYSTEM_PROMPT`` (``{functions}``), and a multi-turn entry's turn
    whose functions were held out is bfcl-eval's
    ``DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC`` (function calling) or
    ``DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING`` (prompt style:
    ``"{functions}\\n"`` + the former, as bfcl-eval defines it).  promptkit
    ships none of these texts: its inferencer takes them as ``system_prompt``
    and ``holdout_message``.  The parity configs give texts of their own, and
    this class puts them where AISBench's code reads bfcl-eval's (the
    ``model_handler.utils`` global and the names AISBench's inferencer module
    imported), so the request shows where each text lands.  Without those keys
    bfcl-eval's own texts are used.
    """

    def __init__(self) -> None:
        import bfcl_eval.model_handler.utils as utils
        from ais_bench.benchmark.openicl.icl_inferencer import icl_bfcl_v3_inferencer as inferencer_module
        self.utils = utils
        self.module = inferencer_module
        self.system = utils.DEFAULT_SYSTEM_PROMPT
        self.fc = inferencer_module.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC
        self.prompting = inferencer_module.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING

    def use(self, inferencer_cfg: dict) -> None:
        self.utils.DEFAULT_SYSTEM_PROMPT = inferencer_cfg.get('system_prompt', self.system)
        message = inferencer_cfg.get('holdout_message')
        self.module.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC = self.fc if message is None else message
        self.module.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING = (
            self.prompting if message is None else '{functions}\n' + message)


# --------------------------------------------------------------------------
# The network: the only part of the request path that is not AISBench's.

def load_replies(path: str | None) -> dict[tuple[int, int], str] | None:
    """``{"index", "turn", "reply"}`` lines -> ``{(index, turn): reply}``."""
    if path is None:
        return None
    replies = {}
    with open(path, encoding='utf-8') as handle:
        for line_no, line in enumerate(handle, 1):
            if not line.strip():
                continue
            item = json.loads(line)
            key = (item['index'], item['turn'])
            if key in replies:
                raise HarnessError(f'{path}:{line_no}: second reply for index {key[0]} turn {key[1]}')
            replies[key] = item['reply']
    return replies


class ScriptedServer:
    """Replaces ``model.text_infer``: records each request body, answers from a script.

    ``BaseAPIModel.generate`` calls ``get_request_body`` (AISBench) and then
    ``text_infer(request_body, output)``; this stand-in keeps the body and
    feeds the scripted reply through the model's own ``parse_text_response``,
    so ``output.content`` is set exactly as a server answer would set it.
    ``generate`` swallows exceptions raised here (retry loop), so a missing
    reply is remembered and checked after the run: it is an error only if a
    later turn of the same row was requested, i.e. if the reply was needed.
    The last turn's reply never reaches a prompt and may be left out.
    """

    def __init__(self, model, kind: str, replies: dict[tuple[int, int], str] | None):
        self.model = model
        self.kind = kind
        self.replies = replies
        self.row = -1  # set by render_pair before each do_request
        self.requests: list[dict] = []
        self.missing: list[tuple[int, int]] = []
        self.count_turns = False  # set by render_pair for BFCL's multi-turn rows
        model.text_infer = self.text_infer

    async def text_infer(self, request_body: dict, output) -> None:
        turn = output.turn_id
        if self.count_turns:
            # BFCL's multi-turn loop sets no turn_id: with replies that call no function (the harness's
            # rule), each turn is one request, so the turn is the number of the row's earlier requests.
            turn = sum(1 for r in self.requests if r['index'] == self.row)
        # Chat: the messages with 'role' first for readability (key order carries no meaning).
        prompt = ([{'role': m['role'], **m} for m in request_body['messages']]
                  if self.kind == 'chat' else request_body['prompt'])
        request = dict(index=self.row, turn=turn, prompt=prompt)
        if 'tools' in request_body:  # BFCL's function-calling path sends them
            request['tools'] = request_body['tools']
        self.requests.append(request)
        if self.replies is None:
            reply = f'<reply {self.row}.{turn}>'
        elif (self.row, turn) in self.replies:
            reply = self.replies[self.row, turn]
        else:
            self.missing.append((self.row, turn))
            reply = ''
        response: dict[str, Any]
        if self.kind == 'chat':
            response = {'choices': [{'message': {'role': 'assistant', 'content': reply}}]}
        else:
            response = {'choices': [{'text': reply}]}
        await self.model.parse_text_response(response, output)
        output.success = True


class NoSession:
    """Passed as the aiohttp session: the scripted server never opens a connection."""

    def __getattr__(self, name):
        raise HarnessError(f'the harness makes no HTTP calls (session.{name} used)')


def install_no_meta_parser(model) -> None:
    """Make a VLLMCustomAPIChat parse with ``APITemplateParser(None)``.

    That parser returns the items' texts joined with newlines, or, when there
    is no text at all, the flat list of multimodal parts.  A string goes
    through ``VLLMCustomAPIChat.get_request_body`` unchanged (one user
    message); a parts list, which that method cannot take, is sent as the
    content of one user message.  This wiring is the harness's, not AISBench's.
    """
    model.template_parser = APITemplateParser(None)
    build_body = model.get_request_body

    async def get_request_body(input_data, max_out_len, output, **args):
        if isinstance(input_data, str):
            return await build_body(input_data, max_out_len, output, **args)
        return {'messages': [{'role': 'user', 'content': list(input_data)}]}

    model.get_request_body = get_request_body


# --------------------------------------------------------------------------
# One dataset x model pair.

async def render_pair(ds_cfg: dict, base_dir: str, model: ModelSpec,
                      replies: dict[tuple[int, int], str] | None) -> list[dict]:
    infer_cfg = ds_cfg['infer_cfg']
    inferencer_cfg = _with_short_type(infer_cfg['inferencer'])
    multi_turn = inferencer_cfg['type'] == 'MultiTurnGenInferencer'
    bfcl = inferencer_cfg['type'] == 'BFCLV3FunctionCallInferencer'
    if bfcl and replies is None:
        replies = {}  # BFCL's multi-turn rows need --replies; single-turn rows read none
    if multi_turn and inferencer_cfg.get('infer_mode', 'every') == 'every' and replies is None:
        raise HarnessError(f'{ds_cfg.get("abbr")}: infer_mode every needs --replies')

    bfcl_dir = tempfile.TemporaryDirectory()
    dataset = build_dataset(ds_cfg, base_dir, bfcl_dir.name if bfcl else None)
    bfcl_dir.cleanup()
    retriever = ICL_RETRIEVERS.build({
        **_with_short_type(infer_cfg['retriever']),
        'dataset': dataset,
        'prompt_template': _template_cfg(infer_cfg, 'prompt_template'),
        'ice_template': _template_cfg(infer_cfg, 'ice_template'),
    })
    with tempfile.TemporaryDirectory() as out_dir:
        # The inferencer builds the model from model_cfg (build_model_from_cfg)
        # and owns a janus queue, so it must be created inside the event loop.
        if bfcl:
            # AISBench registers this class in MODELS, not ICL_INFERENCERS (its own configs pass
            # the class itself), so it is built directly; returns_tool_calls=True selects its
            # function-calling path, the one whose requests carry the tools.
            # promptkit reads the style from its inferencer (returns_tool_calls, default True) and the
            # texts of BFCL's prompt style from it too; AISBench reads returns_tool_calls from the model
            # config and takes the texts from bfcl-eval, so those keys go to the model or nowhere.
            returns_tool_calls = inferencer_cfg.get('returns_tool_calls', True)
            global BFCL_TEXTS
            BFCL_TEXTS = BFCL_TEXTS or BFCLTexts()
            BFCL_TEXTS.use(inferencer_cfg)
            inferencer = BFCLV3FunctionCallInferencer(
                **{k: v for k, v in inferencer_cfg.items() if k not in BFCL_PROMPTKIT_KEYS},
                model_cfg={**model.model_cfg, 'returns_tool_calls': returns_tool_calls}, output_json_filepath=out_dir)
        else:
            inferencer = ICL_INFERENCERS.build({
                **inferencer_cfg, 'model_cfg': model.model_cfg, 'output_json_filepath': out_dir})
        if model.kind == 'chat-no-meta':
            install_no_meta_parser(inferencer.model)
        server = ScriptedServer(inferencer.model, 'completion' if model.kind == 'completion' else 'chat', replies)
        shots = [list(ids) for ids in retriever.retrieve()]
        multi_turn_rows = set()
        for data in inferencer.get_data_list(retriever):
            server.row = data['index']
            server.count_turns = bfcl and 'multi_turn' in data['data_name']
            if server.count_turns:
                multi_turn_rows.add(data['index'])
            await inferencer.do_request(data, None, session=NoSession())
    requested = {(r['index'], r['turn']) for r in server.requests}
    needed = [(row, turn) for row, turn in server.missing if (row, turn + 1) in requested]
    if needed:
        raise HarnessError(f'{ds_cfg.get("abbr")}: no reply for (index, turn) {needed}')

    head = {'dataset': ds_cfg.get('abbr'), 'model': model.abbr}
    records = []
    for request in server.requests:
        record = {**head, 'index': request['index'], 'mode': 'gen'}
        if multi_turn or (bfcl and request['index'] in multi_turn_rows):
            record['turn'] = request['turn']
        record['prompt'] = request['prompt']
        if 'tools' in request:
            record['tools'] = request['tools']
        record['ice_idx'] = shots[request['index']]
        records.append(record)
    return records


def render_dataset(ds_cfg: dict, base_dir: str, model: ModelSpec,
                   replies: dict[tuple[int, int], str] | None) -> list[dict]:
    """All requests for one pair, or one error record if AISBench raises."""
    try:
        return asyncio.run(render_pair(ds_cfg, base_dir, model, replies))
    except (HarnessError, RowsError):
        raise
    except Exception as exc:  # the harness records AISBench's failures
        return [{'dataset': ds_cfg.get('abbr'), 'model': model.abbr,
                 'error': f'{type(exc).__name__}: {exc}'}]


def load_config_list(path: str, key: str) -> list[dict]:
    cfg = Config.fromfile(path, format_python_code=False)
    if key not in cfg:
        raise HarnessError(f'{path}: no top-level {key!r} list')
    return _plain(cfg[key])


def render(dataset_cfg_path: str, model_cfg_path: str | None = None,
           replies_path: str | None = None) -> list[dict]:
    """All records for every dataset in one config, for each model (or none)."""
    base_dir = os.path.dirname(os.path.abspath(dataset_cfg_path))
    ds_cfgs = load_config_list(dataset_cfg_path, 'datasets')
    model_cfgs = load_config_list(model_cfg_path, 'models') if model_cfg_path else [None]
    replies = load_replies(replies_path)
    records = []
    for model_cfg in model_cfgs:
        model = ModelSpec(model_cfg)
        for ds_cfg in ds_cfgs:
            records.extend(render_dataset(ds_cfg, base_dir, model, replies))
    return records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    parser.add_argument('dataset_cfg', help='promptkit-format dataset config (.py)')
    parser.add_argument('--model', help='promptkit-format model config (.py)')
    parser.add_argument('--replies', help='JSONL of {"index", "turn", "reply"} (infer_mode every)')
    parser.add_argument('--out', help='output JSONL file (default: stdout)')
    args = parser.parse_args(argv)
    records = render(args.dataset_cfg, args.model, args.replies)
    if args.out:
        with open(args.out, 'w', encoding='utf-8') as handle:
            write_jsonl(records, handle)
    else:
        write_jsonl(records, sys.stdout)
    return 0


if __name__ == '__main__':
    sys.exit(main())
