"""Stand-ins for OpenCompass's heavy optional dependencies.

OpenCompass imports torch, transformers, vllm, ... at module level in many files
that have nothing to do with prompt construction (its package ``__init__``
files import every model and evaluator).  The reference harness only needs the
prompt layer, so instead of installing gigabytes of wheels we answer imports of
the names in ``STUBBED`` with empty placeholder modules.

Any attribute looked up on a placeholder module is a placeholder *class*; any
attribute of a placeholder class or instance is again a placeholder, calling one
returns a placeholder instance.  That is enough for ``import x``,
``from x.y import Z``, ``class M(x.nn.Module)``, decorators and module-level
constants.  Nothing in the prompt layer calls into these objects for real; if
something did, a placeholder object would reach the harness output, where JSON
serialisation fails on it, so it cannot pass unnoticed.

``install()`` is idempotent.  It is called from ``oc_reference_stubs.pth``.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import os
import sys
import types

# Top-level distributions that are replaced by placeholders.  Kept explicit so
# that a missing *real* dependency is still reported as ModuleNotFoundError.
STUBBED = frozenset("""
    torch transformers tokenizers sentence_transformers faiss vllm lmdeploy
    tiktoken jieba nltk rank_bm25 sklearn scipy evaluate rouge_chinese
    openai zhipuai volcengine volcenginesdkarkruntime
""".split())


class _PlaceholderMeta(type):
    def __getattr__(cls, name):
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(name)
        return _make_class(f'{cls.__name__}.{name}')

    def __getitem__(cls, item):
        return cls

    def __or__(cls, other):  # typing unions such as ``torch.Tensor | None``
        return cls

    __ror__ = __or__

    def __iter__(cls):
        return iter(())


class _Placeholder(metaclass=_PlaceholderMeta):
    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(name)
        return _make_class(f'{type(self).__name__}.{name}')()

    def __call__(self, *args, **kwargs):
        return _Placeholder()

    def __iter__(self):
        return iter(())

    def __getitem__(self, item):
        return _Placeholder()


def _make_class(qualname: str) -> type:
    return _PlaceholderMeta(qualname, (_Placeholder,), {'__module__': 'oc_autostub'})


class _PlaceholderModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(name)
        value = _make_class(f'{self.__name__}.{name}')
        setattr(self, name, value)
        return value


def _false(*args, **kwargs):
    return False


def _zero(*args, **kwargs):
    return 0


# Attributes that library code (mmengine, datasets) actually evaluates when it
# sees that torch is importable: answer "no GPU, no distributed run".
OVERRIDES = {
    'torch': {'__version__': '2.1.0'},
    'torch.cuda': {'is_available': _false, 'device_count': _zero},
    'torch.distributed': {'is_available': _false, 'is_initialized': _false},
    'torch.backends.mps': {'is_available': _false},
    'torch.backends.cudnn': {'is_available': _false},
    'torch.npu': {'is_available': _false, 'device_count': _zero},
}


class _Loader(importlib.abc.Loader):
    def create_module(self, spec):
        module = _PlaceholderModule(spec.name)
        module.__path__ = []  # every placeholder is a package
        module.__version__ = '0.0.0+placeholder'
        for name, value in OVERRIDES.get(spec.name, {}).items():
            setattr(module, name, value)
        return module

    def exec_module(self, module):
        # ``import torch`` must make ``torch.cuda`` reachable as an attribute
        # with its overrides, so load the overridden submodules eagerly.
        prefix = module.__name__ + '.'
        for sub in OVERRIDES:
            if sub.startswith(prefix) and '.' not in sub[len(prefix):]:
                setattr(module, sub[len(prefix):], importlib.import_module(sub))


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.split('.', 1)[0] not in STUBBED:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Loader(), is_package=True)


def install() -> None:
    """Put the placeholder finder at the end of ``sys.meta_path`` (once)."""
    # ``datasets`` probes for torch/tf/jax with find_spec at import time; keep
    # it from mistaking the placeholder for a real framework.
    for var in ('USE_TORCH', 'USE_TF', 'USE_JAX'):
        os.environ.setdefault(var, '0')
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
