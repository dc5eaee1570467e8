"""The `companion` command as the tests type it: in this process, or as a program of its own.

``companion(...)`` runs the command line's ``main(argv)`` here, with the standard streams a program
started with pipes would have: its arguments as bytes or text, standard input as bytes decoded the way
the interpreter decodes its own, standard output and error encoded the way it encodes them (a character
the program could not print fails here as it would there), the exit code of ``sys.exit`` and argparse,
and a terminal 80 columns wide (a pipe has no width). An exception escaping the command, which would be
a traceback and exit code 1 in a program, fails the test.

``companion_process(...)`` starts ``python -m companion`` for the few tests about the program itself:
its exit code as the shell sees it, the entry point, ``--version`` from the installed metadata.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from companion.cli import main

__all__ = ["companion", "companion_process"]


def _stream(name: str, default_errors: str) -> tuple[str, str]:
    """The encoding and error handler the interpreter gives its own stream ``name`` (stdin, stdout)."""
    original = getattr(sys, f"__{name}__", None)
    encoding = getattr(original, "encoding", None) or "utf-8"
    errors = getattr(original, "errors", None) or default_errors
    return encoding, errors


class _Pipes:
    """Standard input, output and error as a program started with pipes has them, held while the
    command runs here; what it wrote is read from ``out`` and ``err`` afterwards (as bytes, as a pipe
    carries them)."""

    def __init__(self, stdin: bytes) -> None:
        in_encoding, in_errors = _stream("stdin", "strict")
        out_encoding, out_errors = _stream("stdout", "strict")
        self.out, self.err = io.BytesIO(), io.BytesIO()
        self.streams = (
            io.TextIOWrapper(io.BytesIO(stdin), encoding=in_encoding, errors=in_errors),
            io.TextIOWrapper(self.out, encoding=out_encoding, errors=out_errors, write_through=True),
            io.TextIOWrapper(self.err, encoding=out_encoding, errors="backslashreplace", write_through=True),
        )

    def __enter__(self) -> _Pipes:
        self.saved = sys.stdin, sys.stdout, sys.stderr
        sys.stdin, sys.stdout, sys.stderr = self.streams
        return self

    def __exit__(self, *exc: object) -> None:
        sys.stdin, sys.stdout, sys.stderr = self.saved
        for stream in self.streams:
            with contextlib.suppress(ValueError):
                stream.flush()
            stream.detach()  # the bytes stay readable once the wrappers are gone


@contextlib.contextmanager
def _where(cwd: str | Path | None) -> Iterator[None]:
    """In folder ``cwd`` (as a program started there), with a terminal as wide as a pipe's (80 columns)."""
    saved_cwd, saved_columns = os.getcwd(), os.environ.get("COLUMNS")
    if saved_columns is None:
        os.environ["COLUMNS"] = "80"
    try:
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        os.chdir(saved_cwd)
        if saved_columns is None:
            os.environ.pop("COLUMNS", None)


def companion(
    *args: str | bytes, stdin: str | bytes | None = None, cwd: str | Path | None = None
) -> tuple[int, str, str]:
    """Run the command in this process; returns (exit code, standard output, standard error)."""
    argv = [os.fsdecode(a) if isinstance(a, bytes) else a for a in args]  # as the interpreter decodes argv
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin or b""
    with _where(cwd), _Pipes(data) as pipes:
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's usage errors and --help, a handed-on command's exit
            if e.code is None or isinstance(e.code, int):
                code = e.code or 0
            else:
                print(e.code, file=sys.stderr)
                code = 1
    return code, pipes.out.getvalue().decode("utf-8", "replace"), pipes.err.getvalue().decode("utf-8", "replace")


def companion_process(
    *args: str | bytes, stdin: str | bytes | None = None, cwd: str | Path | None = None, module: str = "companion"
) -> tuple[int, str, str]:
    """Run ``python -m companion`` (or ``module``) as a program of its own; returns (exit code, stdout, stderr)."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run([sys.executable, "-m", module, *args], input=data, capture_output=True, cwd=cwd)
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
