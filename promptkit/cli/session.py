"""A command's session: signals, logging, and how it ends.

How a command ends: 0; 1 with one ``promptkit: error: …`` line for bad input; 2 for bad arguments (argparse, before
the session starts); 128 + N on signal N; never a traceback (unless ``--debug``).
"""

from __future__ import annotations

import argparse
import logging
import sys
from contextlib import redirect_stdout
from types import ModuleType
from typing import TextIO

from promptkit.cli._output import (
    GuardedStream,
    Interrupted,
    OutputError,
    PrintableFormatter,
    ReaderGone,
    detach_stdout,
    printable,
    stop_on_signals,
)
from promptkit.errors import PromptkitError

__all__ = ["run"]


def run(args: argparse.Namespace, command: ModuleType) -> int:
    """Run ``command`` (its module) with the parsed ``args``; the exit status (see the module docstring)."""
    with stop_on_signals():
        warnings = logging.StreamHandler(sys.stderr)
        warnings.setFormatter(PrintableFormatter("promptkit: warning: %(message)s"))
        logging.basicConfig(level=logging.WARNING, handlers=[warnings])
        for handler in logging.getLogger().handlers:
            handler.setLevel(logging.WARNING)  # libraries that set their own logger to DEBUG (bm25s) stay quiet
        return _run(args, command)


def _run(args: argparse.Namespace, command: ModuleType) -> int:
    stdout = sys.stdout
    try:
        with redirect_stdout(GuardedStream(stdout, "stdout")):  # type: ignore[type-var]  # a TextIO in all but name
            status: int = command.run(args)
            sys.stdout.flush()  # a full disk shows here, not in the interpreter's last flush
            return status
    except Interrupted as stop:
        _say("promptkit: interrupted")
        return stop.exit_status
    except KeyboardInterrupt:  # main() run outside the main thread, where SIGINT keeps Python's own handler
        _say("promptkit: interrupted")
        return 130
    except (ReaderGone, BrokenPipeError):  # the reader went away (`| head`): a normal end
        _quiet(stdout)
        return 0
    except PromptkitError as error:
        if args.debug:
            raise
        if isinstance(error, OutputError):
            _quiet(stdout)
        _say(f"promptkit: error: {error}")
        return 1
    except Exception as error:  # the last resort: promptkit's own errors and write failures are caught above
        if args.debug:
            raise
        if isinstance(error, OSError) and error.filename is not None:
            _say(f"promptkit: error: file {error.filename}: {error.strerror}")
        else:
            _say(f"promptkit: error: internal error: {type(error).__name__}: {error} (run with --debug for the traceback)")
        return 1


def _say(line: str) -> None:
    """A line on stderr, its control characters escaped (a message may quote a template, a row, a file name)."""
    print(printable(line), file=sys.stderr)


def _quiet(stdout: TextIO) -> None:
    """After stdout failed: nothing more reaches it, not even the interpreter's last flush (a process's own stdout only)."""
    if stdout is sys.__stdout__:
        detach_stdout()
