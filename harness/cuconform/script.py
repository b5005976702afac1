"""What every script of scripts/ does around its main function."""

from __future__ import annotations

import os
import sys
from typing import Callable, NoReturn


def run(main: Callable[[], int]) -> NoReturn:
    """Exits with main's code. A reader that goes away (`scripts/conformance list | head`) is no error and no
    traceback: the rest of the output goes nowhere."""
    try:
        sys.exit(main())
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
