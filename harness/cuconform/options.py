"""The plugin's options, each written once and offered both on the command line (--cuconform-NAME) and in the ini
file (cuconform_NAME). Precedence: command line, then ini file, then the default. A bad value is a usage error
that names where it came from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cuconform.environment import REPO
from cuconform.shard import Shard, parse_shard

if TYPE_CHECKING:  # pytest is imported only where the plugin runs: `conformance list` does without it
    import pytest

PROFILES = ("quick", "full")


@dataclass(frozen=True)
class Option:
    name: str
    parse: Callable[[str], object]
    default: object
    help: str
    check: Callable[[object], str | None] = lambda value: None

    @property
    def flag(self) -> str:
        return f"--cuconform-{self.name}"

    @property
    def ini(self) -> str:
        return "cuconform_" + self.name.replace("-", "_")

    @property
    def dest(self) -> str:
        return "cuconform_" + self.name.replace("-", "_")


def _positive(value: object) -> str | None:
    return None if value > 0 else "must be greater than 0"


def _not_negative(value: object) -> str | None:
    return None if value >= 0 else "must be 0 or more"


def _sanitizer(value: object) -> str | None:
    from cuconform.expectations import SANITIZER_TOOLS

    return None if value in ("", *SANITIZER_TOOLS) else f"must be one of {', '.join(SANITIZER_TOOLS)}"


def _profile(value: object) -> str | None:
    return None if value in PROFILES else f"must be one of {', '.join(PROFILES)}"


OPTIONS = (
    Option("build-dir", Path, None,
           "the build whose suites run (with its bin/cuconform-deviceinfo and cuconform-build.json); "
           "default: the folder above the bin/ folder of the binaries given"),
    Option("expectations", Path, REPO / "expectations", "the folder of expectation files (*.toml)"),
    Option("timeout", float, 60.0, "seconds a test may run without finishing before it is killed (timeout)",
           _positive),
    Option("jobs", int, 0, "GPU test processes at a time; 0: 4 per GPU (exclusive tests still run alone)", _not_negative),
    Option("host-jobs", int, 0, "worker processes for the tests that need no GPU; 0: one per CPU core",
           _not_negative),
    Option("batch-size", int, 500, "at most this many tests per process", _positive),
    Option("profile", str, "quick", "quick or full: sets CUCONFORM_PROFILE for the tests", _profile),
    Option("reports", Path, None, "write the reports into a new folder named after the run, under this folder"),
    Option("output", Path, None, "write the reports into this folder"),
    Option("sanitizer", str, "", "run every GPU test under this compute-sanitizer tool (memcheck, racecheck, "
           "synccheck, initcheck): an error it reports fails the test", lambda v: _sanitizer(v)),
    Option("shard", parse_shard, None, "run shard K of N (K/N, from 1): every N-th test of the selection in test "
           "id order, starting with the K-th; scripts/conformance merge joins the shards' reports"),
    Option("progress-every", float, 10.0, "seconds between progress lines when the output is not a terminal "
           "(a terminal gets a live line); 0: none", _not_negative),
)


@dataclass(frozen=True)
class Settings:
    build_dir: Path | None = None
    expectations: Path = REPO / "expectations"
    timeout: float = 60.0
    jobs: int = 0
    host_jobs: int = 0
    batch_size: int = 500
    profile: str = "quick"
    reports: Path | None = None
    output: Path | None = None
    sanitizer: str = ""
    rules: tuple[str, ...] = field(default_factory=tuple)
    shard: Shard | None = None
    progress_every: float = 10.0
    resume: Path | None = None  # the report folder of the interrupted run this one continues (scripts/conformance)
    rerun: dict | None = None  # how scripts/conformance runs it again on --resume: the journal's header keeps it


def add_options(parser: "pytest.Parser") -> None:
    group = parser.getgroup("cuconform", "cuconform: run CUDA conformance suite binaries")
    for option in OPTIONS:
        group.addoption(option.flag, dest=option.dest, default=None, metavar=option.name.split("-")[0].upper(),
                        help=f"{option.help} (ini: {option.ini}; default: {option.default})")
        parser.addini(option.ini, option.help, default=None)
    group.addoption("--cuconform-rule", dest="cuconform_rules", action="append", default=[], metavar="PATTERN",
                    help="run only tests whose rule id or test id matches this fnmatch pattern (repeatable)")


def read_settings(config: "pytest.Config") -> Settings:
    import pytest

    values = {}
    for option in OPTIONS:
        raw, source = config.getoption(option.dest), option.flag
        if raw is None:
            raw, source = config.getini(option.ini), f"ini option {option.ini}"
        if raw is None or raw == "":
            values[option.name.replace("-", "_")] = option.default
            continue
        try:
            value = option.parse(str(raw))
        except ValueError:
            raise pytest.UsageError(f"{source}: not a valid value: {raw!r}") from None
        problem = option.check(value)
        if problem:
            raise pytest.UsageError(f"{source}={raw}: {problem}")
        values[option.name.replace("-", "_")] = value
    return Settings(**values, rules=tuple(config.getoption("cuconform_rules") or ()))
