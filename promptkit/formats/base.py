"""What every dataset format shares: checking a file record by record, and turning good records into rows.

A :class:`RecordFormat` is a format's compiled schema (a pydantic ``TypeAdapter``,
built once at import) plus how a validated record becomes a row and its
embedded few-shot rows.  :func:`check_file` validates every line of a JSON Lines
file and collects a :class:`ValidationReport`; :class:`FormatDataset` is the
dataset ``type=`` of each format: by default a bad record aborts the load with
the report, with ``allow_bad=True`` bad records are skipped and reported and
every good record is kept.

Embedded few-shot examples become rows of their own split, ``few_shot``
(identical examples once), and each row lists its own in ``few_shot_ids``;
:class:`~promptkit.retrievers.EmbeddedShotsRetriever` picks exactly those.
"""

from __future__ import annotations

import logging
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from promptkit.data.loaders import Splits, _resolve
from promptkit.data.sources.limits import bounded_lines
from promptkit.data.sources.regular import open_data_file
from promptkit.errors import ConfigError, DatasetError
from promptkit.formats.report import ValidationReport, Violation, show, violations_from

if TYPE_CHECKING:
    from pydantic import BaseModel, TypeAdapter, ValidationError

__all__ = [
    "FEW_SHOT_SPLIT",
    "FormatDataset",
    "blanked",
    "check_calib_blank",
    "RecordFormat",
    "blank_last_user_text",
    "check_file",
    "choice_columns",
    "folder_splits",
    "last_user_text",
    "record_format",
    "unique_in_file",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: The split holding every row's embedded few-shot examples.
FEW_SHOT_SPLIT = "few_shot"
#: How many violations a load with ``allow_bad`` names in its warnings.
_WARNED = 10
#: Values a record's ``sample`` block leaves out: the field was not given.
_UNSET: tuple[Any, ...] = (None, {}, [])


@dataclass(frozen=True)
class RecordFormat:
    """One dataset format: its schema, its record → row mapping, and rules that span records."""

    name: str
    adapter: TypeAdapter[Any]  # compiled once, when the format's module is imported
    #: A validated record → (row, its embedded few-shot examples, validated).
    to_row: Callable[[Any], tuple[dict[str, Any], Sequence[BaseModel]]]
    #: A validated few-shot example → its row in the ``few_shot`` split.
    shot_to_row: Callable[[Any], dict[str, Any]] | None = None
    #: What a record contributes to rules across the file (e.g. its ``task_id``), and those rules over (line, value) pairs.
    file_key: Callable[[Any], Any] | None = None
    file_rules: Callable[[str, Sequence[tuple[int, Any]]], list[Violation]] | None = None
    #: Tidies pydantic's error paths for the format (e.g. drops tagged-union tags).
    clean_loc: Callable[[list[str | int]], list[str | int]] | None = None


def record_format(name: str) -> RecordFormat:
    """The compiled format ``name``; its module (pydantic models) is imported on first use, not by ``import promptkit``."""
    return import_module(f"promptkit.formats.{name}").FORMAT  # type: ignore[no-any-return]


def check_file(
    path: Path, fmt: RecordFormat, display: str | None = None, convert: Callable[[Any], T] | None = None
) -> tuple[ValidationReport, list[tuple[int, T]]]:
    """Validate every record of a JSON Lines file: the report, and what ``convert`` made of each good record, by line.

    The validated model of a record is dropped as soon as ``convert`` has
    turned it into what the caller keeps (without ``convert``, nothing is
    kept): a large file never holds millions of model objects, which the
    cyclic garbage collector would rescan again and again.
    """
    from pydantic import ValidationError

    name = display or str(path)
    report = ValidationReport(name)
    kept: list[tuple[int, T]] = []
    keys: list[tuple[int, Any]] = []
    validate = fmt.adapter.validate_json
    if path.is_dir():
        raise DatasetError("the data path is a folder; give the path of a .jsonl file in it", file=name)
    with open_data_file(path, name) as handle:
        # Lines end at b"\n" only (bytes iterate so), so U+2028, U+2029 and U+0085 inside strings stay in their record.
        for number, raw in enumerate(bounded_lines(handle, name, compressed=False), start=1):
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as error:
                report.total += 1
                got = raw[max(0, error.start - 20) : error.start + 20]
                report.violations.append(Violation(name, number, "record", f"not valid UTF-8 (byte {error.start + 1} of the line); save the file as UTF-8", repr(got)))
                continue
            if not line.strip():
                continue
            report.total += 1
            try:
                record = validate(line.rstrip("\r\n"))
            except ValidationError as error:
                report.violations.extend(_json_or_schema(error, name, number, line, fmt.clean_loc))
                continue
            report.good_lines.append(number)
            if fmt.file_key is not None:
                keys.append((number, fmt.file_key(record)))
            if convert is not None:
                kept.append((number, convert(record)))
    if fmt.file_rules is not None:
        spanning = fmt.file_rules(name, keys)
        if spanning:
            report.violations.extend(spanning)
            bad = {v.line for v in spanning}
            kept = [(n, value) for n, value in kept if n not in bad]
            report.good_lines = [n for n in report.good_lines if n not in bad]
    report.violations.sort(key=lambda v: v.line)
    return report, kept


def _json_or_schema(
    error: ValidationError, name: str, number: int, line: str, clean_loc: Callable[[list[str | int]], list[str | int]] | None
) -> list[Violation]:
    first = error.errors(include_url=False)[0]
    if first["type"] == "json_invalid":
        reason = re.sub(r" at line \d+ column (\d+)$", r" at column \1", str(first["ctx"]["error"]))
        return [Violation(name, number, "record", f"not valid JSON: {reason}", show(line.strip()))]
    if first["type"] in ("model_type", "model_attributes_type", "dict_type") and not first["loc"]:
        return [Violation(name, number, "record", "must be a JSON object (one record per line)", show(first["input"]))]
    return violations_from(error, name, number, clean_loc)


#: The split files of a dataset folder (XpertFormat's layout, seed 003 §5): the main file, then the splits.
FOLDER_FILES = ("dataset", "train", "dev", "test")


def folder_splits(folder: Path) -> dict[str, Path]:
    """The splits of a dataset folder: ``dataset.jsonl`` (split ``dataset``) and ``train``/``dev``/``test.jsonl``; the
    main file stands for ``test`` and ``train`` when the folder has no file of theirs."""
    files = {name: folder / f"{name}.jsonl" for name in FOLDER_FILES if (folder / f"{name}.jsonl").is_file()}
    if "test" not in files and "dataset" not in files:
        present = sorted(path.name for path in folder.iterdir())[:10]
        raise DatasetError(
            f"the dataset folder holds neither dataset.jsonl nor test.jsonl (it holds {', '.join(present) or 'nothing'}); a dataset "
            "folder has dataset.jsonl and, for splits, train.jsonl, dev.jsonl, test.jsonl (XpertFormat's layout), or give one .jsonl file",
            file=str(folder),
        )
    for split in ("test", "train"):
        if split not in files and "dataset" in files:
            files[split] = files["dataset"]
    return files


def unique_in_file(field: str) -> Callable[[str, Sequence[tuple[int, Any]]], list[Violation]]:
    """A rule across a file's records: ``field`` (each record's :attr:`RecordFormat.file_key`) holds no value twice."""

    def rule(file: str, values: Sequence[tuple[int, Any]]) -> list[Violation]:
        first_seen: dict[Any, int] = {}
        out = []
        for line, value in values:
            if value in first_seen:
                out.append(Violation(file, line, field, f"must be unique in the file (line {first_seen[value]} has it)", show(value)))
            else:
                first_seen[value] = line
        return out

    return rule


def choice_columns(options: Sequence[tuple[str, str]]) -> dict[str, str]:
    """``{choices}`` (``'A. x\\nB. y'``) and ``{letters}`` (``'A,B'``) from (id, text) pairs, in order."""
    return {
        "choices": "\n".join(f"{key}. {text}" for key, text in options),
        "letters": ",".join(key for key, _ in options),
    }


def message_text(message: Mapping[str, Any]) -> str:
    """The text parts of a normalized message, joined by newlines."""
    return "\n".join(part["text"] for part in message["content"] if part["type"] == "text")


def last_user_text(messages: list[dict[str, Any]]) -> str:
    """The text of the last user message (``''`` when there is none)."""
    return next((message_text(m) for m in reversed(messages) if m["role"] == "user"), "")


def check_calib_blank(calib_blank: Any) -> tuple[str, ...] | None:
    """The ``calib_blank`` setting of a dataset config: column names, or ``None``."""
    if calib_blank is None:
        return None
    if isinstance(calib_blank, str) or not isinstance(calib_blank, Sequence) or not all(isinstance(c, str) for c in calib_blank):
        raise ConfigError(f"calib_blank must be a list of column names (got {calib_blank!r})", key="calib_blank")
    return tuple(calib_blank)


def blanked(row: Mapping[str, Any], columns: Sequence[str]) -> dict[str, Any]:
    """The calibration form of ``row``: ``columns`` emptied (``question`` also empties the last user message's text)."""
    out = dict(row)
    for column in columns:
        out[column] = ""
        if column == "question" and "messages" in out:
            out["messages"] = blank_last_user_text(out["messages"])
    return out


def blank_last_user_text(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages with the text parts of the last user message emptied (media parts kept)."""
    out = list(messages)
    for i in range(len(out) - 1, -1, -1):
        if out[i]["role"] == "user":
            parts = [dict(part, text="") if part["type"] == "text" else part for part in out[i]["content"]]
            out[i] = dict(out[i], content=parts)
            break
    return out


class FormatDataset(ABC):
    """Base of the format loaders (``StandardSampleDataset``, ``TaskSpecDataset``, ``XpertFormatDataset``).

    ``path`` is one ``.jsonl`` file (the splits ``train`` and ``test``), a dict
    of split name → file, or a dataset folder in XpertFormat's layout
    (:func:`folder_splits`; relative media paths then resolve against it).
    ``allow_bad=True`` skips bad records (reported as warnings and in
    :attr:`reports`) instead of failing.  ``calib_blank`` names columns emptied
    to derive a calibration prompt for every row (see :meth:`calib_row`).
    ``task_templates`` (task type → template config) render the rows of those
    task types with their template instead of the format's default one
    (:class:`~promptkit.templates.task_type_template.TaskTypeTemplate`).
    :meth:`request_fields` gives a chat request's :attr:`request_columns`,
    :meth:`sample_fields` each record's ``sample`` block, and :attr:`id_column`
    the records' ids (hooks of ``promptkit.data.hooks``).
    """

    #: The format's name: its module in ``promptkit.formats`` and its ``--format`` value.
    format_name: ClassVar[str]
    #: dict[str, Any] columns a chat request carries next to its messages (``promptkit render`` records).
    request_columns: ClassVar[tuple[str, ...]] = ()
    #: The column of each record's own id: the render records' ids (hook ``id_column`` of ``promptkit.data.hooks``),
    #: unless ``reader_cfg.id_column`` names another.
    id_column: ClassVar[str] = "id"
    #: The columns a runner scores a row's prompts with: each record's ``sample`` block (see :meth:`sample_fields`).
    sample_columns: ClassVar[tuple[str, ...]] = ()
    #: The column of a row's task type, by which ``task_templates`` choose its template.
    task_type_column: ClassVar[str] = "task_type"

    def __init__(
        self,
        path: str | Mapping[str, str],
        allow_bad: bool = False,
        calib_blank: Sequence[str] | None = None,
        task_templates: Mapping[str, Any] | None = None,
    ) -> None:
        if not isinstance(path, (str, Path, Mapping)):
            raise ConfigError(f"path must be a .jsonl file, a dataset folder or a dict of split name -> file (got {path!r})", key="path")
        if isinstance(path, Mapping) and FEW_SHOT_SPLIT in path:
            raise ConfigError(f"the split name {FEW_SHOT_SPLIT!r} is reserved for the records' embedded few-shot examples", key="path")
        if not isinstance(allow_bad, bool):
            raise ConfigError(f"allow_bad must be True or False (got {allow_bad!r})", key="allow_bad")
        if task_templates is not None and (not isinstance(task_templates, Mapping) or not all(isinstance(key, str) for key in task_templates)):
            raise ConfigError(f"task_templates must map task types to template configs (got {task_templates!r})", key="task_templates")
        self.path = path
        self.allow_bad = allow_bad
        self.calib_blank = check_calib_blank(calib_blank)
        self.task_templates = dict(task_templates) if task_templates else None
        #: The validation report of each split's file, filled by :meth:`load`.
        self.reports: dict[str, ValidationReport] = {}

    def default_config(self) -> dict[str, Any]:
        """``reader_cfg`` and ``infer_cfg`` used when the dataset config gives none: the format's own
        (:meth:`format_config`), its prompt template chosen per row by task type when ``task_templates`` is given."""
        config = self.format_config()
        if self.task_templates:
            infer = config["infer_cfg"]
            chooser = dict(type="TaskTypeTemplate", templates=self.task_templates, default=infer["prompt_template"], column=self.task_type_column)
            config["infer_cfg"] = {**infer, "prompt_template": chooser}
        return config

    @abstractmethod
    def format_config(self) -> dict[str, Any]:
        """The format's own ``reader_cfg`` and ``infer_cfg``."""

    @property
    def format(self) -> RecordFormat:
        return record_format(self.format_name)

    def load(self, base_dir: Path | None = None) -> Splits:
        # Identical few-shot examples (common: one set for a whole file) become one row of the few_shot split.
        shot_rows: dict[str, dict[str, Any]] = {}
        pool: list[dict[str, Any]] = []
        shot_ids: dict[str, int] = {}
        by_file: dict[Path, list[dict[str, Any]]] = {}
        by_name: dict[str, list[dict[str, Any]]] = {}
        for split, file in self._split_files(base_dir).items():
            if file in by_file:  # a folder's dataset.jsonl standing for a missing split: read once
                by_name[split] = by_file[file]
                continue
            rows = []
            for row, keys in self._good_rows(file, shot_rows):
                ids = []
                for key in keys:
                    if key not in shot_ids:
                        shot_ids[key] = len(pool)
                        pool.append(shot_rows[key])
                    ids.append(shot_ids[key])
                row["few_shot_ids"] = ids
                rows.append(row)
            by_name[split] = by_file[file] = rows
        by_name[FEW_SHOT_SPLIT] = pool
        return Splits(by_name)

    def _split_files(self, base_dir: Path | None) -> dict[str, Path]:
        """Each split's file: the dict given; one file as ``train`` and ``test``; a folder in XpertFormat's layout."""
        if isinstance(self.path, Mapping):
            return {str(split): _resolve(file, base_dir) for split, file in self.path.items()}
        path = _resolve(self.path, base_dir)
        if not path.is_dir():
            return {"test": path, "train": path}
        return folder_splits(path)

    def data_dir(self, base_dir: Path | None) -> Path | None:
        """The folder relative media paths resolve against: a dataset folder's own (XpertFormat's layout), else the
        config's."""
        if isinstance(self.path, (str, Path)):
            try:
                path = _resolve(self.path, base_dir)
            except DatasetError:  # not found: loading the rows says so
                return base_dir
            if path.is_dir():
                return path
        return base_dir

    def _good_rows(self, path: Path, shot_rows: dict[str, dict[str, Any]]) -> list[tuple[dict[str, Any], list[str]]]:
        """Each good record's row and the keys of its few-shot examples (whose rows go into ``shot_rows``)."""
        shown = str(path)
        if path.suffix.lower() != ".jsonl":
            raise DatasetError(f"a {self.format.name} dataset is a JSON Lines file (.jsonl), one record per line", file=shown)
        shot_to_row = self.format.shot_to_row

        def convert(record: Any) -> tuple[dict[str, Any], list[str]]:
            row, shots = self.format.to_row(record)
            keys = []
            for shot in shots:
                key = shot.model_dump_json()
                if key not in shot_rows:
                    assert shot_to_row is not None
                    shot_rows[key] = shot_to_row(shot)
                keys.append(key)
            return row, keys

        report, records = check_file(path, self.format, shown, convert)
        self.reports[shown] = report
        if not report.ok:
            if not self.allow_bad:
                raise DatasetError(
                    f"{report.describe()}\nfix these records, or skip them: allow_bad=True in the dataset config, or --allow-bad with --format",
                    file=shown,
                )
            bad = report.bad_lines
            logger.warning("%s: skipping %d bad record(s) of %d (allow_bad):", shown, len(bad), report.total)
            for violation in report.violations[:_WARNED]:
                logger.warning("%s", violation)
            if len(report.violations) > _WARNED:
                more = len(report.violations) - _WARNED
                logger.warning("... and %d more violation(s): promptkit validate %s --format %s lists them all", more, shown, self.format_name)
        return [converted for _, converted in records]

    def calib_row(self, row: Mapping[str, Any]) -> dict[str, Any] | None:
        """The row to render as its calibration (unconditioned) prompt, or ``None`` for no ``calib`` record.

        With ``calib_blank`` the named columns are emptied (``question`` also
        empties the text of the last user message of ``messages``); formats
        with their own unconditioned input override this.
        """
        return blanked(row, self.calib_blank) if self.calib_blank is not None else None

    def sample_fields(self, row: Mapping[str, Any]) -> dict[str, Any] | None:
        """The record's ``sample`` block: the row's :attr:`sample_columns` that are set (for every model kind), so that a
        runner scores a prompt from its record alone; ``None`` when none is set."""
        return {column: row[column] for column in self.sample_columns if row.get(column) not in _UNSET} or None

    def request_fields(self, row: Mapping[str, Any], model_kind: str) -> dict[str, Any] | None:
        """The row's :attr:`request_columns` that are set, for chat models; ``None`` for completion models or when none is set."""
        if not self.request_columns or model_kind != "chat":
            return None
        return {column: row[column] for column in self.request_columns if row.get(column) is not None} or None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(path={self.path!r}, allow_bad={self.allow_bad})"
