"""Regenerate ``vllm-<version>.json``: the request fields vLLM declares, read from its wheel without installing it.

    pip download --no-deps vllm==0.33.0 -d /tmp/vllm
    python3 tests/vllm_fields/extract.py /tmp/vllm/vllm-0.33.0-*.whl > tests/vllm_fields/vllm-0.33.0.json

vLLM imports torch and CUDA libraries, so its pydantic models cannot be
loaded here; their source can. This reads, with ``ast``, the annotated fields
of ``SamplingParams``, ``CompletionRequest`` and ``ChatCompletionRequest`` (name
→ annotation text) and the parameters of ``LLM.generate`` and ``LLM.chat``.
"""

from __future__ import annotations

import ast
import json
import sys
import zipfile

SOURCES = {
    "SamplingParams": "vllm/sampling_params.py",
    "CompletionRequest": "vllm/entrypoints/openai/completion/protocol.py",
    "ChatCompletionRequest": "vllm/entrypoints/openai/chat_completion/protocol.py",
}


def class_fields(tree: ast.Module, name: str) -> dict[str, str]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return {
                item.target.id: ast.unparse(item.annotation)
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and not item.target.id.startswith("_")
            }
    raise SystemExit(f"class {name} not found")


def method_params(tree: ast.Module, cls: str, method: str) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == method:
                    return [arg.arg for arg in item.args.args[1:] + item.args.kwonlyargs]
    raise SystemExit(f"{cls}.{method} not found")


def main() -> int:
    wheel = zipfile.ZipFile(sys.argv[1])
    version = next(name for name in wheel.namelist() if name.endswith(".dist-info/METADATA")).split("-")[1].split(".dist")[0]
    out: dict[str, object] = {"version": version}
    for cls, path in SOURCES.items():
        out[cls] = class_fields(ast.parse(wheel.read(path)), cls)
    llm = ast.parse(wheel.read("vllm/entrypoints/llm.py"))
    out["LLM.generate"] = method_params(llm, "LLM", "generate")
    out["LLM.chat"] = method_params(llm, "LLM", "chat")
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
