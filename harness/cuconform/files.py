"""Writing files safely and showing text safely: the helpers every report uses. Imports nothing of the harness,
so that any module may use it without an import circle."""

from __future__ import annotations

import os
import re
from pathlib import Path

OUTPUT_LINES_SHOWN = 60  # of a failure's output, the first and the last so many lines
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class FileLineError(Exception):
    """Bad input found in a file; str() is the one line a user sees: 'file:line: what is wrong'."""

    def __init__(self, path: Path, line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")


def atomic_write(path: Path, text: str) -> None:
    """Writes `path` so that readers see either the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(temporary, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(text)
        stream.flush()
        os.fsync(stream.fileno())
    os.replace(temporary, path)


def bounded_output(output: str, keep: int = OUTPUT_LINES_SHOWN) -> str:
    """A failure's output as the console and JUnit show it: its first and last lines (results.json has it all)."""
    lines = output.splitlines()
    if len(lines) <= 2 * keep + 10:
        return output
    return "\n".join(
        lines[:keep] + [f"[... {len(lines) - 2 * keep} lines: results.json has them all ...]"] + lines[-keep:]
    )


def printable(text: str) -> str:
    """Text for a terminal: control characters (escape sequences, NUL, ...) shown as \\xNN."""
    return _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)
