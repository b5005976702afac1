"""What every script of scripts/ does around its main function."""

from __future__ import annotations

import os
import sys
from typing import Callable, NoReturn


def run(main: Callable[[], int], fast_exit: bool = False) -> NoReturn:
    """Exits with main's code. A reader that goes away (`scripts/conformance list | head`) is no error and no
    traceback: the rest of the output goes nowhere. `fast_exit`: without the interpreter's teardown, for a main that
    has written and closed every file when it returns (freeing a conformance run's objects one by one, every test's
    output among them, took most of a second)."""
    try:
        code = main()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    if not fast_exit:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        code = code or 0
    os._exit(code or 0)
