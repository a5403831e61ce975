"""Where a model's files are: the folder a model config's ``path`` (or ``tokenizer_path``) names.

promptkit downloads nothing.  A name resolves, in this order, to

1. an existing folder: relative to the working directory, then to the model
   config file's own folder (so a bundled config works from anywhere);
2. the folder the user maps the name to: ``--model-path HUB_ID=FOLDER``
   (repeatable), then the environment variable :data:`MODEL_PATHS_ENV`
   (``HUB_ID=FOLDER`` entries separated by ``os.pathsep``), for models kept
   outside any cache;
3. a hub id (``Qwen/Qwen2.5-7B-Instruct``) in the local Hugging Face cache, at
   revision ``main`` or the config's ``revision``: the snapshot folder
   ``models--Org--Name/snapshots/<commit>/`` that ``refs/<revision>`` names,
   found by ``huggingface_hub`` offline (extra ``hub``; imported only here,
   when the name is no folder).  The cache is ``HF_HUB_CACHE``, else
   ``HF_HOME/hub``, else ``~/.cache/huggingface/hub``; ``TRANSFORMERS_CACHE``
   (where older ``transformers`` kept models) is looked in too.

An explicit mapping comes before the cache so that a ``--model-path`` is never
overruled by what the cache happens to hold.  Anything else is one error line
naming the name, the folders looked in, and the three ways to provide it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from promptkit.errors import ConfigError, MissingDependencyError

__all__ = ["MODEL_PATHS_ENV", "ModelFolders", "hub_cache_folders", "parse_model_paths"]

#: The environment variable that maps hub ids to local folders: ``HUB_ID=FOLDER``, entries separated by ``os.pathsep``.
MODEL_PATHS_ENV = "PROMPTKIT_MODEL_PATHS"

#: A Hugging Face repo id: ``name`` or ``org/name`` of letters, digits, ``-``, ``_``, ``.`` (huggingface_hub's rule).
_HUB_ID = re.compile(r"(?!\.)[\w.-]{1,96}(/(?!\.)[\w.-]{1,96})?")


def parse_model_paths(entries: list[str] | tuple[str, ...], source: str) -> dict[str, str]:
    """``['Org/Name=FOLDER', ...]`` → ``{'Org/Name': 'FOLDER'}``; ``source`` names where they came from, for errors."""
    paths: dict[str, str] = {}
    for entry in entries:
        name, sep, folder = entry.partition("=")
        if not sep or not name.strip() or not folder.strip():
            raise ConfigError(f"{source} {entry!r}: write HUB_ID=FOLDER, e.g. Qwen/Qwen2.5-7B-Instruct=/models/qwen2.5-7b-instruct")
        paths[name.strip()] = folder.strip()
    return paths


def hub_cache_folders(environ: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """The Hugging Face hub caches looked in, as ``huggingface_hub`` and ``transformers`` choose them (see the module docstring)."""
    env = os.environ if environ is None else environ
    hub = env.get("HF_HUB_CACHE") or env.get("HUGGINGFACE_HUB_CACHE")
    if not hub:
        home = env.get("HF_HOME") or os.path.join(env.get("XDG_CACHE_HOME") or os.path.join("~", ".cache"), "huggingface")
        hub = os.path.join(home, "hub")
    folders = [Path(hub).expanduser()]
    if env.get("TRANSFORMERS_CACHE"):
        folders.append(Path(env["TRANSFORMERS_CACHE"]).expanduser())
    return tuple(dict.fromkeys(folders))


@dataclass(frozen=True)
class ModelFolders:
    """Where the model folders of one model config are looked for (see the module docstring).

    ``config_dir`` is the model config file's folder (``None`` for a config built in code); ``paths`` are the
    ``--model-path`` mappings, which win over :data:`MODEL_PATHS_ENV`'s.  The environment is read when a name is
    resolved, not when this value is made.
    """

    config_dir: Path | None = None
    paths: Mapping[str, str] = field(default_factory=dict)

    def resolve(self, name: str, revision: str | None = None) -> Path:
        """The folder ``name`` stands for; a :class:`ConfigError` (key ``path``) when there is none."""
        given = Path(name).expanduser()
        if given.is_dir():
            return given  # as written: messages and provenance show the name the config gives
        if not given.is_absolute() and self.config_dir is not None and (self.config_dir / given).is_dir():
            beside = self.config_dir / given
            shown = Path(os.path.normpath(beside))  # 'configs/models/chat_template/../hf/x' shown as 'configs/models/hf/x'
            if not (shown.is_dir() and shown.samefile(beside)):
                return beside
            # Inside the working directory, shown relative to it, as a folder given from there is.
            return Path(os.path.relpath(shown)) if shown.is_absolute() and shown.is_relative_to(Path.cwd()) else shown
        mapped = self._mapping().get(name)
        if mapped is not None:
            folder, source = mapped
            if not Path(folder).expanduser().is_dir():
                raise ConfigError(f"{source} maps {name!r} to {folder!r}, which is not a folder; give the folder that holds the model's tokenizer_config.json", key="path")
            return Path(folder).expanduser()
        if given.is_absolute() or not _HUB_ID.fullmatch(name) or ".." in name:
            raise ConfigError(f"model folder {name!r} does not exist (looked {self._where()}); give path= a local model folder", key="path")
        return self._from_cache(name, revision)

    def local(self, name: str) -> Path | None:
        """The folder ``name`` stands for without looking in the Hugging Face cache (``None``: none; never an error):
        what a model reads its tokens from when the name may be a served model's (``path='gpt-4o'``)."""
        try:
            given = Path(name).expanduser()
            if given.is_dir():
                return given
            if not given.is_absolute() and self.config_dir is not None and (self.config_dir / given).is_dir():
                return self.config_dir / given
            mapped = self._mapping().get(name)
        except (ConfigError, OSError):
            return None
        return Path(mapped[0]).expanduser() if mapped is not None and Path(mapped[0]).expanduser().is_dir() else None

    def _mapping(self) -> dict[str, tuple[str, str]]:
        """name → (folder, where the mapping comes from): the environment's, then ``--model-path``'s over them."""
        env = os.environ.get(MODEL_PATHS_ENV, "")
        entries = [entry for entry in env.split(os.pathsep) if entry.strip()]
        found = {name: (folder, f"{MODEL_PATHS_ENV}") for name, folder in parse_model_paths(entries, MODEL_PATHS_ENV).items()}
        found.update((name, (folder, "--model-path")) for name, folder in self.paths.items())
        return found

    def _where(self) -> str:
        where = "in the working directory"
        return where + (f" and in the model config's folder {str(self.config_dir)!r}" if self.config_dir is not None else "")

    def _from_cache(self, hub_id: str, revision: str | None) -> Path:
        download = f"hf download {hub_id} --revision {revision}" if revision is not None else f"hf download {hub_id}"
        ways = (
            f"give path= a local model folder (relative to the working directory or to the model config), download the model "
            f"into the cache ({download}), or map it to its folder with --model-path {hub_id}=FOLDER (or {MODEL_PATHS_ENV})"
        )
        try:
            import huggingface_hub
            from huggingface_hub.errors import HFValidationError, LocalEntryNotFoundError
        except ImportError as error:
            raise MissingDependencyError(
                f"model {hub_id!r} is not a local folder, and looking for it in the Hugging Face cache needs the optional package "
                f"'huggingface_hub', which is not installed: install it with pip install 'promptkit[hub]', or map the model to its "
                f"folder with --model-path {hub_id}=FOLDER (or {MODEL_PATHS_ENV})",
                key="path",
            ) from error
        caches = hub_cache_folders()
        for cache in caches:
            try:
                return Path(huggingface_hub.snapshot_download(hub_id, revision=revision, cache_dir=str(cache), local_files_only=True))
            except LocalEntryNotFoundError:
                continue
            except HFValidationError:  # not a repo id after all ('a--b'): a folder that is not there
                raise ConfigError(f"model folder {hub_id!r} does not exist (looked {self._where()}); give path= a local model folder", key="path") from None
        at = f" at revision {revision!r}" if revision is not None else ""
        looked = ", ".join(str(cache) for cache in caches)
        raise ConfigError(
            f"model {hub_id!r}{at} is neither a local folder nor in the Hugging Face cache (looked {self._where()} and in {looked}); "
            f"promptkit downloads nothing: {ways}",
            key="path",
        )
