"""``promptkit``: the command line.  One module per command (``promptkit.cli.<command>``: ``add_arguments`` and
``run``), imported only when that command runs, and the session that runs it (:mod:`promptkit.cli.session`: signals,
logging, how a run ends) only once the arguments are parsed — so ``promptkit --help`` loads no stage.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Collection, Sequence
from types import ModuleType

from promptkit.cli.examples import with_examples

__all__ = ["COMMANDS", "build_parser", "main"]

#: Each command: its module in ``promptkit.cli`` and the line ``promptkit --help`` shows for it.
COMMANDS: dict[str, tuple[str, str]] = {
    "preview": ("preview", "show rendered prompts to a person: shots, PromptList, final input"),
    "render": ("render", "write every final prompt as JSON Lines"),
    "view": ("view", "write the prompts of datasets x models as one HTML page to open in a browser"),
    "check-template": ("check_template", "compare a model's meta template with its own chat template and show the first divergence"),
    "validate": ("validate", "check every record of a data file against its format; report each broken rule"),
    "lint": ("lint", "find placeholders that are not columns, unknown labels, answer-junction spaces and other prompt hazards"),
    "diff": ("diff", "which pieces of which prompts differ between two dataset configs, two models or two render files"),
    "snapshot": ("snapshot", "pin the prompts of configs in a folder, and check them later (exit 1 with the diff when one changed)"),
}


def command_module(name: str) -> ModuleType:
    """The module of command ``name`` (one of :data:`COMMANDS`)."""
    return importlib.import_module(f"promptkit.cli.{COMMANDS[name][0]}")


def build_parser(commands: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The parser of ``promptkit``, with the arguments of ``commands`` (default: every command) filled in."""
    parser = argparse.ArgumentParser(
        prog="promptkit", description="See and export the exact prompts a dataset config gives each model.", **with_examples("promptkit")
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    parser.add_argument("--version", action=_Version, nargs=0, help="show the installed version and exit")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name, (_, help_line) in COMMANDS.items():
        sub = subparsers.add_parser(name, help=help_line, **with_examples(name))
        if commands is None or name in commands:
            command_module(name).add_arguments(sub)
    return parser


class _Version(argparse.Action):
    """``--version``: the installed package's version."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object, option: str | None = None) -> None:
        # importlib.metadata costs more to import than the rest of `promptkit --help`: only --version reads it.
        import importlib.metadata

        try:
            version = importlib.metadata.version("promptkit")
        except importlib.metadata.PackageNotFoundError:  # run from a source tree that was never installed
            version = "(not installed)"
        print(f"{parser.prog} {version}")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``promptkit`` with ``argv`` (default: the process's arguments); the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    named = next((word for word in words if not word.startswith("-")), None)  # the command: only its module is imported
    args = build_parser(() if named not in COMMANDS else (named,)).parse_args(words)
    session = importlib.import_module("promptkit.cli.session")
    status: int = session.run(args, command_module(args.command))
    return status


if __name__ == "__main__":
    sys.exit(main())
