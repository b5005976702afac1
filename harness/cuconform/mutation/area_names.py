"""The areas a campaign names: its binaries, each built from one folder of suites/ by that folder's CMakeLists.txt,
`cuconform_add_suite(<area> ...)` or math's `cuconform_math_variant(<variant> <area> ...)`. So math-ftz and
math-fast-math are built from suites/math, streams-per-thread from suites/streams, dynamic_parallelism-cdp1 from
suites/dynamic_parallelism; read from the source tree, without a build."""

from __future__ import annotations

import re
from pathlib import Path

from cuconform.environment import REPO

SUITES = REPO / "suites"
_TARGET = re.compile(
    r"\bcuconform_add_suite\(\s*([A-Za-z0-9_-]+)|\bcuconform_math_variant\(\s*[A-Za-z0-9_]+\s+([A-Za-z0-9_-]+)"
)


def areas_of(folder: Path) -> list[str]:
    """The areas built from one folder of suites/, in the order its CMakeLists.txt names them (none: no such file)."""
    try:
        text = (folder / "CMakeLists.txt").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    code = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    return list(dict.fromkeys(first or second for first, second in _TARGET.findall(code)))


def built_areas(suites: Path = SUITES) -> dict[str, str]:
    """Every area of the source tree: its name -> the folder of suites/ it is built from."""
    return {area: folder.name for folder in sorted(suites.iterdir()) if folder.is_dir() for area in areas_of(folder)}
