"""The fixed sets of names that users and files give the harness: profiles, compilers, compute-sanitizer tools.

Each is defined here and nowhere else. Profile and Compiler are StrEnums: their values travel as text into
environment variables (CUCONFORM_PROFILE), TOML files, results.json and JUnit properties, and compare equal to it.
"""

from __future__ import annotations

import enum


class Profile(enum.StrEnum):
    """How much of each sweep a run covers (CUCONFORM_PROFILE)."""

    QUICK = "quick"  # every commit: exhaustive sweeps are sampled
    FULL = "full"  # nightly: every sweep in full


class Compiler(enum.StrEnum):
    """The compilers a rule can be built with; a compile-time rule runs once per compiler, in this order."""

    NVCC = "nvcc"
    CLANG = "clang"
    NVRTC = "nvrtc"


SANITIZER_TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")  # compute-sanitizer --tool


def names(kind: type[enum.Enum]) -> tuple[str, ...]:
    """The values of an enum, in order: what an error message lists as allowed."""
    return tuple(member.value for member in kind)
