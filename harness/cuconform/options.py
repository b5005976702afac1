"""The run's options, one table. Each option is written once and offered three ways:

    scripts/conformance run --NAME VALUE        (cli/conformance/run.py; its defaults may differ: reports/ of the
                                                repository)
    pytest --cuconform-NAME VALUE               (plugin.py)
    pytest ini file: cuconform_NAME = VALUE

and read into one `Settings`, whose fields are the table's. Precedence: the command line, then the ini file, then
the default. Every value is parsed and checked here, before anything is built or run; a bad one is one line that
names where it came from, the value and what is allowed (OptionError).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, make_dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cuconform.environment import REPO
from cuconform.kinds import SANITIZER_TOOLS, Profile, names
from cuconform.sanitizer import SANITIZER_SLOWDOWN
from cuconform.shard import parse_shard

if TYPE_CHECKING:  # pytest is imported only where the plugin runs: `conformance list` does without it
    import pytest

_SAME = object()  # Option.run_default: scripts/conformance run uses the table's default


class OptionError(Exception):
    """A bad option value; str() is the one line a user sees."""


@dataclass(frozen=True)
class Option:
    name: str  # --NAME on scripts/conformance run, --cuconform-NAME and cuconform_NAME for pytest
    type: type | str  # the Settings field's type
    parse: Callable[[str], object]  # text -> value; ValueError for text that is not one
    default: object
    help: str
    allowed: str = ""  # what a good value is, for the error line: "a number greater than 0"
    valid: Callable[[object], bool] = lambda value: True
    metavar: str | None = None
    many: bool = False  # repeatable: the values are a tuple, in the order given
    field: str = ""  # the Settings field, when it is not NAME with '_' for '-'
    run_default: object = _SAME
    # Takes no value on the command line: --NAME means true, --no-NAME false (the way to turn off a switch that is
    # on by default); ini: true or false.
    switch: bool = False

    @property
    def attribute(self) -> str:
        return self.field or self.name.replace("-", "_")

    @property
    def flag(self) -> str:
        return f"--cuconform-{self.name}"

    @property
    def ini(self) -> str:
        return "cuconform_" + self.name.replace("-", "_")

    @property
    def dest(self) -> str:
        return "cuconform_" + self.attribute

    def value(self, raw: str, source: str) -> object:
        """`raw` parsed and checked; `source` says where it came from ('--timeout', 'ini option cuconform_jobs')."""
        try:
            value = self.parse(raw)
        except ValueError:
            value = None
        else:
            if self.valid(value):
                return value
        raise OptionError(
            f"{source}={raw}: must be {self.allowed}" if self.allowed else f"{source}={raw}: not a valid value"
        )


def _number(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(text)
    return value


def _cc(text: str) -> str:
    major, minor = text.split(".")
    if not (major.isdigit() and minor.isdigit() and len(minor) == 1):
        raise ValueError(text)
    return f"{int(major)}.{minor}"


def _boolean(text: str) -> bool:
    value = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}.get(text.strip().lower())
    if value is None:
        raise ValueError(text)
    return value


def _sanitizer(text: str) -> str:
    if text not in SANITIZER_TOOLS:
        raise ValueError(text)
    return text


OPTIONS = (
    Option(
        "build-dir",
        "Path | None",
        Path,
        None,
        "an existing build folder (build/<preset>, with its bin/cuconform-deviceinfo and cuconform-build.json) "
        "to run instead of a preset; pytest's default: the folder above the bin/ folder of the binaries given",
        allowed="a folder",
        metavar="DIR",
    ),
    Option(
        "expectations",
        Path,
        Path,
        REPO / "expectations",
        "the folder of expectation files (*.toml) (default: expectations/ of this repository)",
        allowed="a folder of expectation files",
        metavar="DIR",
    ),
    Option(
        "timeout",
        float,
        _number,
        60.0,
        "seconds a test may run before it is killed and reported timeout (default: 60)",
        allowed="a number of seconds greater than 0",
        valid=lambda v: v > 0,
        metavar="SECONDS",
    ),
    Option(
        "jobs",
        int,
        int,
        0,
        "GPU test processes at a time; 0: 4 per GPU (exclusive tests still run alone)",
        allowed="a whole number, 0 or more",
        valid=lambda v: v >= 0,
        metavar="N",
    ),
    Option(
        "host-jobs",
        int,
        int,
        0,
        "processes for the tests that need no GPU, e.g. the compile-time rules; 0: one per CPU core",
        allowed="a whole number, 0 or more",
        valid=lambda v: v >= 0,
        metavar="N",
    ),
    Option(
        "batch-size",
        int,
        int,
        500,
        "at most this many tests per process (default: 500)",
        allowed="a whole number greater than 0",
        valid=lambda v: v > 0,
        metavar="N",
    ),
    Option(
        "profile",
        Profile,
        Profile,
        Profile.QUICK,
        "quick (every commit) or full (nightly): sets CUCONFORM_PROFILE for the tests (default: quick)",
        allowed=f"one of {', '.join(names(Profile))}",
        metavar="PROFILE",
    ),
    Option(
        "target-cc",
        "str | None",
        _cc,
        None,
        "judge the results by the expectation chain of this compute capability instead of the GPU's: for the "
        "compile-time rules of a build for a target without its GPU (scripts/toolkit targets)",
        allowed="a compute capability such as 8.0",
        metavar="X.Y",
    ),
    Option(
        "reports",
        "Path | None",
        Path,
        None,
        "write the reports into a new folder named after the run, under this folder",
        allowed="a folder",
        metavar="DIR",
        run_default=REPO / "reports",
    ),
    Option(
        "output", "Path | None", Path, None, "write the reports into this folder", allowed="a folder", metavar="DIR"
    ),
    Option(
        "sanitizer",
        str,
        _sanitizer,
        "",
        "run every GPU test under this compute-sanitizer tool (memcheck, racecheck, synccheck, initcheck): an "
        f"error it reports while a test runs fails the test (its timeout is multiplied by {SANITIZER_SLOWDOWN})",
        allowed=f"one of {', '.join(SANITIZER_TOOLS)}",
        metavar="TOOL",
    ),
    Option(
        "shard",
        "Shard | None",
        parse_shard,
        None,
        "run shard K of N (from 1): every N-th selected test in test id order, starting with the K-th; N machines "
        "with the same build and options run all of it, scripts/conformance merge joins their reports",
        allowed="K/N with 1 <= K <= N, e.g. 2/4",
        metavar="K/N",
    ),
    Option(
        "progress-every",
        float,
        _number,
        10.0,
        "seconds between progress lines when the output is not a terminal (a terminal gets a live line); "
        "0: none (default: 10)",
        allowed="a number of seconds, 0 or more",
        valid=lambda v: v >= 0,
        metavar="SECONDS",
    ),
    Option(
        "strict",
        bool,
        _boolean,
        False,
        "fail the run (exit 1) when an entry that scripts/conformance triage drafted and nobody reviewed yet "
        "(draft = true) judges a test",
        allowed="true or false",
        switch=True,
    ),
    Option(
        "fail-fast",
        bool,
        _boolean,
        False,
        "stop each test binary at its first unexpected result, without the re-run that tells a flake from a "
        "failure: its tests not run yet are reported as skipped (mutation runs: a mutant is killed by one failure)",
        allowed="true or false",
        switch=True,
    ),
    Option(
        "multi-area",
        bool,
        _boolean,
        True,
        "run several areas' shared GPU batches in one cuconform-multi process (the build's modules) instead of each "
        "area in processes of its own binary: fewer CUDA contexts, no verdict changed (warm runs on an H200 30.0 "
        "and 31.7 s against 33.9 and 35.4 s: docs/results/h200-2026-11-29-speed7.md)",
        allowed="true or false",
        switch=True,
    ),
    Option(
        "isolated-first",
        bool,
        _boolean,
        True,
        "run the isolated GPU batches (faults and device resets on purpose, a process each) right after the "
        "exclusive ones, not by their expected cost: their process starts then stall only each other, not the "
        "batches of many short launches (docs/results/h200-2026-11-29-speed6.md)",
        allowed="true or false",
        switch=True,
    ),
    Option(
        "launch-heavy-last",
        bool,
        _boolean,
        False,
        "run the GPU batches of many short tests (mostly launches and synchronizations) after every other ordinary "
        "batch, not by their expected cost: each process that starts beside such a batch stalls it. Measured on "
        "an H200: those batches then run as fast as alone, but the run is no shorter, the processes before them "
        "being as many (docs/results/h200-2026-11-29-speed6.md); off",
        allowed="true or false",
        switch=True,
    ),
    Option(
        "rule",
        "tuple[str, ...]",
        str,
        (),
        "run only tests whose rule id or test id matches this fnmatch pattern, e.g. 'sync/*Count*' (repeatable)",
        allowed="an fnmatch pattern",
        valid=bool,
        metavar="PATTERN",
        many=True,
        field="rules",
    ),
    Option(
        "exclude-rule",
        "tuple[str, ...]",
        str,
        (),
        "leave out the tests whose rule id or test id matches this fnmatch pattern, after --rule has chosen "
        "(repeatable; a pattern without a wildcard names one rule or test exactly)",
        allowed="an fnmatch pattern",
        valid=bool,
        metavar="PATTERN",
        many=True,
        field="exclude_rules",
    ),
)
BY_NAME = {option.name: option for option in OPTIONS}

Settings = make_dataclass(
    "Settings",
    [(option.attribute, option.type, option.default) for option in OPTIONS]
    + [
        ("resume", "Path | None", None),  # the report folder of the interrupted run this one continues
        ("rerun", "dict | None", None),  # how scripts/conformance runs it again on --resume: the journal keeps it
    ],
    frozen=True,
)
Settings.__module__ = __name__
Settings.__doc__ = "The values of OPTIONS (by their Settings field) for one run, and what --resume adds."


def settings(given: Mapping[str, tuple[object, str]], **extra: object) -> Settings:
    """Settings from the options given: option name -> (raw text, or a list of them for a repeatable option; where it
    came from). An option not given takes its default. Raises OptionError at the first bad value."""
    values = {}
    for option in OPTIONS:
        if option.name not in given:
            values[option.attribute] = option.default
            continue
        raw, source = given[option.name]
        if option.many:
            values[option.attribute] = tuple(option.value(str(text), source) for text in raw)
        else:
            values[option.attribute] = option.value(str(raw), source)
    return Settings(**values, **extra)


# --- scripts/conformance run ----------------------------------------------------------------------------------


def add_arguments(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    names_: Iterable[str],
    helps: Mapping[str, str] | None = None,
) -> None:
    """The named options as scripts/conformance arguments (--NAME), taken as text: `from_arguments` checks them.
    `helps` gives a command's own help for an option whose meaning or default differs there (scripts/conformance
    mutate's --build-dir, --output, --timeout)."""
    for name in names_:
        option = BY_NAME[name]
        default = option.default if option.run_default is _SAME else option.run_default
        if option.switch:
            opposite = f"the opposite of --{option.name} (default: {'on' if default else 'off'})"
            for flag, value, text in (
                (f"--{option.name}", "true", (helps or {}).get(name) or option.help),
                (f"--no-{option.name}", "false", opposite),
            ):
                parser.add_argument(
                    flag, dest=option.attribute, action="store_const", const=value, default=None, help=text
                )
            continue
        parser.add_argument(
            f"--{option.name}",
            dest=option.attribute,
            metavar=option.metavar,
            action="append" if option.many else "store",
            default=None,
            help=(helps or {}).get(name)
            or (option.help if option.run_default is _SAME else f"{option.help} (default: {default})"),
        )


def from_arguments(args: argparse.Namespace) -> dict[str, tuple[object, str]]:
    """The options given on scripts/conformance's command line, for `settings`, with the run's own defaults."""
    given = {}
    for option in OPTIONS:
        raw = getattr(args, option.attribute, None)
        if raw is not None and not isinstance(raw, (str, list, tuple)):
            raw = str(raw)  # a value that came from the journal of a resumed run
        if raw is not None:
            given[option.name] = (raw, f"--{option.name}")
        elif option.run_default is not _SAME:
            given[option.name] = (str(option.run_default), f"--{option.name} (default)")
    return given


# --- pytest ---------------------------------------------------------------------------------------------------


def add_options(parser: "pytest.Parser") -> None:
    group = parser.getgroup("cuconform", "cuconform: run CUDA conformance suite binaries")
    for option in OPTIONS:
        if option.switch:
            for flag, value, text in (
                (option.flag, "true", option.help),
                (f"--cuconform-no-{option.name}", "false", f"the opposite of {option.flag}"),
            ):
                group.addoption(
                    flag,
                    dest=option.dest,
                    default=None,
                    action="store_const",
                    const=value,
                    help=f"{text} (ini: {option.ini} = {value})",
                )
        else:
            group.addoption(
                option.flag,
                dest=option.dest,
                default=None,
                metavar=option.metavar,
                action="append" if option.many else "store",
                help=f"{option.help} (ini: {option.ini})",
            )
        parser.addini(option.ini, option.help, type="linelist" if option.many else "string", default=None)


def read_settings(config: "pytest.Config") -> Settings:
    """The plugin's settings: each option from pytest's command line, else its ini file, else the default."""
    import pytest

    given = {}
    for option in OPTIONS:
        raw, source = config.getoption(option.dest), option.flag
        if raw is None or raw == []:
            raw, source = config.getini(option.ini), f"ini option {option.ini}"
        if raw is None or raw == "" or raw == []:
            continue
        given[option.name] = (raw, source)
    try:
        return settings(given)
    except OptionError as error:
        raise pytest.UsageError(str(error)) from None
