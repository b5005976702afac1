"""scripts/conformance triage RUN...: a draft expectation entry for each unexpected result of a run.

On a GPU, driver or toolkit the suite has not seen, the first run shows unexpected results, and someone must tell the
suite's assumptions from the hardware's deviations. Triage writes down what was observed so that the next run is
judged against it, as Mesa's deqp-runner turns a run's failures into a baseline; reviewing the drafts stays a
person's work. Each RUN is a report folder or its results.json (or a merge of runs on several GPUs).

For each unexpected `fail`, `crash` or `timeout` that no entry judges, a draft entry:

    tests      the failing tests; the same failure (the same rule, status and failing check, file:line) over many
               parameters is one entry with one pattern (`warp/Types/Shfl.Delta/*`) when that pattern matches
               exactly those tests of the run, else the list of their ids
    status     the raw status observed
    draft      true: honoured by the next run, shown apart in every report as "accepted without review";
               `scripts/conformance run --strict` fails while one judges a test
    evidence   GPU, driver, CUDA toolkit, compiler, the date of the run, and the observed message
    reason     none: reviewing means writing it (what the documentation says, what happens instead), then
               deleting `draft = true`. The tool never writes a reason.

The file, by the rule's nature:

    a compile-time rule (compile/...[nvcc])   common.toml, with `compiler` and `compiler_versions` of that compiler:
                                              what a compiler accepts is the compiler's, on every GPU; in a run for
                                              another target (--target-cc 8.0), that target's file (sm_80.toml)
    a rule that needs no GPU                  common.toml: no device is involved
    a GPU rule                                the file of the CC it failed on (sm_89.toml); failing the same way on
                                              several CCs of one family, and passing on none of it, its family's
                                              (sm_8x.toml); on several families and passing nowhere, common.toml
`--scope cc|family|common` puts every draft in that kind of file instead. Under a sanitizer tool the entry gets
`sanitizer`, in a run of the full profile `profile = "full"`: it holds only where it was seen.

Not drafted, and listed for a person: an `xpass` (its entry is stale: remove or narrow it), a `missing` test (it
never produced a result: not a deviation of the GPU), a failure that an entry expected otherwise (expected crash,
got fail: edit that entry). A test that an entry now judges (written since the run) is left alone, so triage can run
twice. The drafts go under their area's marker (`# --- warp ---`), without changing a line of the file otherwise
(draft_entries.py).

Exit codes: 0 every unexpected result has an entry now; 1 some are left for a person (listed); 2 bad input (a run
that cannot be read, a malformed or unwritable expectation file).
"""

from __future__ import annotations

import fnmatch
import re
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from cuconform import overview
from cuconform.catalog import TestCase
from cuconform.draft_entries import Draft
from cuconform.expectations import ExpectationFile, chain_names
from cuconform.files import printable
from cuconform.results_file import ResultsError, read
from cuconform.stage_resolve import Judging, chain_of

EXIT_OK, EXIT_LEFT, EXIT_BAD_INPUT = 0, 1, 2
FAILURES = ("fail", "crash", "timeout")
SCOPES = ("cc", "family", "common")
OBSERVED_CHARS = 400  # of the observed message, the evidence keeps so much
_CHECK = re.compile(r"^(\S.*?):(\d+): Failure$")  # GoogleTest's first line of a failed check


class TriageError(Exception):
    """A run that cannot be read; str() is one line."""


@dataclass(frozen=True)
class Context:
    """Where the tests of a run (or of one part of a merge) ran."""

    run: str  # the report folder as the user named it
    environment: dict

    @property
    def cc(self) -> str | None:
        return self.environment.get("compute_capability")

    @property
    def for_target(self) -> bool:
        """A run judged by another CC's chain than its GPU's (run --target-cc: the compile-time rules of a build for
        that target), where a compile-time deviation is the target's."""
        listed = (self.environment.get("devices") or {}).get("devices") or [{}]
        return self.cc is not None and self.cc != listed[0].get("cc")

    @property
    def build(self) -> dict:
        return self.environment.get("build") or {}

    @property
    def date(self) -> str:
        return str(self.environment.get("started") or "")[:10] or date.today().isoformat()

    def judging(self) -> Judging:
        return Judging.of(self.build, self.environment.get("sanitizer"), self.environment.get("profile"))

    def describe(self) -> str:
        """'NVIDIA H200 (CC 9.0), driver 580.95.05 (CUDA 13.0), CUDA toolkit 13.0.88, nvcc 13.0.88, 2026-11-28'."""
        devices = self.environment.get("devices") or {}
        listed = devices.get("devices") or []
        parts = [f"{listed[0].get('name', '?')} (CC {listed[0].get('cc', '?')})" if listed else "no GPU"]
        if devices.get("driver_version") or devices.get("driver_cuda_version"):
            driver = f"driver {devices.get('driver_version') or '?'}"
            parts.append(
                driver + (f" (CUDA {devices['driver_cuda_version']})" if devices.get("driver_cuda_version") else "")
            )
        return ", ".join(parts + self._build_words())

    def describe_compile(self, compiler: str, version: str | None) -> str:
        """For a compile-time case: its own compiler, the toolkit, the host compiler and the target, the date."""
        build = self.build
        parts = [f"{compiler} {version or '?'}"]
        if build.get("cuda_toolkit"):
            parts.append(f"CUDA toolkit {build['cuda_toolkit']}")
        if build.get("host_compiler"):
            parts.append(f"host {build['host_compiler']}")
        if build.get("architectures"):
            parts.append(f"for sm_{build['architectures']}")
        return ", ".join(parts + [self.date])

    def _build_words(self) -> list[str]:
        build = self.build
        words = [f"CUDA toolkit {build['cuda_toolkit']}"] if build.get("cuda_toolkit") else []
        if build.get("compiler"):
            words.append(f"{build['compiler']} {build.get('compiler_version') or ''}".strip())
        if self.environment.get("sanitizer"):
            words.append(f"compute-sanitizer {self.environment['sanitizer']}")
        return words + [self.date]


@dataclass(frozen=True)
class Failure:
    """One unexpected failure that no entry judges, in the context it was seen in."""

    test: dict
    context: Context

    @property
    def id(self) -> str:
        return self.test["id"]

    @property
    def compiler(self) -> str | None:
        """The compiler of a compile-time case (None for a rule built into a GPU binary)."""
        return self.test.get("compiler")

    @property
    def check(self) -> str | None:
        """The check that failed (file:line of GoogleTest's failure), which tells one cause from another."""
        for line in str(self.test.get("message") or "").splitlines():
            match = _CHECK.match(line.strip())
            if match:
                return f"{match.group(1)}:{match.group(2)}"
        return None

    @property
    def cause(self) -> tuple:
        """Failures with the same cause: the same rule, status, failing check and what holds the entry down."""
        environment = self.context.environment
        return (
            self.test.get("rule") or self.id,
            self.test.get("status"),
            self.check,
            self.compiler,
            self.test.get("compiler_version") if self.compiler else None,
            environment.get("sanitizer") or None,
            "full" if environment.get("profile") == "full" else None,
        )


@dataclass
class Left:
    """An unexpected result triage does not draft, and what a person should do."""

    verdict: str
    id: str
    why: str


@dataclass
class Triage:
    contexts: list[Context]
    tests: list[tuple[dict, Context]]  # every test of every run
    failures: list[Failure] = field(default_factory=list)
    left: list[Left] = field(default_factory=list)
    covered: list[tuple[str, str]] = field(default_factory=list)  # (test id, entry) judged by an entry now
    drafts: list[Draft] = field(default_factory=list)
    members: dict[Draft, list[Failure]] = field(default_factory=dict)  # each draft's failures


# --- reading the runs ---------------------------------------------------------------------------------------------


def load_runs(paths: list[Path]) -> Triage:
    """Every test of the runs with its context (a merge of several GPUs: each part's); TriageError."""
    contexts, tests = [], []
    for path in paths:
        try:
            results = read(path)
        except ResultsError as error:
            raise TriageError(str(error)) from None
        parts = [
            Context(str(path), part.get("environment") or {})
            for part in results.document.get("parts") or []
            if isinstance(part, dict)
        ]
        whole = Context(str(path), results.environment)
        contexts += parts or [whole]
        for test in results.tests:
            part = test.get("part")
            tests.append((test, parts[part] if parts and isinstance(part, int) and 0 <= part < len(parts) else whole))
    return Triage(contexts, tests)


def _case(test: dict) -> TestCase:
    """The test as the resolve stage sees it, rebuilt from its results.json entry."""
    area = str(test.get("area") or test["id"].split("/", 1)[0])
    rule = str(test.get("rule") or test["id"])
    return TestCase(
        binary=Path(f"cuconform-{area}"),
        name=test["id"][len(area) + 1 :],
        rule_name=rule.split("/", 1)[-1],
        section=str(test.get("section") or ""),
        statement="",
        gpu=bool(test.get("gpu")),
        exclusive=bool(test.get("exclusive")),
        compiler=test.get("compiler"),
        compiler_version=test.get("compiler_version"),
    )


def sort_out(triage: Triage, files: dict[str, ExpectationFile], rules: list[str]) -> None:
    """Each unexpected result: a failure to draft, a result left for a person, or one an entry judges now."""
    for test, context in triage.tests:
        verdict = str(test.get("verdict"))
        if verdict not in overview.UNEXPECTED_VERDICTS:
            continue
        if rules and not any(
            fnmatch.fnmatchcase(test["id"], p) or fnmatch.fnmatchcase(str(test.get("rule")), p) for p in rules
        ):
            continue
        expected = test.get("expected") or {}
        if verdict == "xpass":
            triage.left.append(
                Left(
                    verdict,
                    test["id"],
                    f"passed; its entry {expected.get('entry')} expects "
                    f"{expected.get('status')}: remove or narrow that entry",
                )
            )
        elif verdict == "missing":
            triage.left.append(
                Left(
                    verdict,
                    test["id"],
                    "never produced a result: not a deviation of the GPU (did the binary change, or the harness fail?)",
                )
            )
        elif expected:
            triage.left.append(
                Left(
                    verdict,
                    test["id"],
                    f"its entry {expected.get('entry')} expects "
                    f"{expected.get('status')}, it did {test.get('status')}: edit that entry",
                )
            )
        else:
            entry = context.judging().entry_for(chain_of(files, context.cc), _case(test))
            if entry is not None:
                triage.covered.append((test["id"], entry.where))
            else:
                triage.failures.append(Failure(test, context))


# --- where each draft goes ----------------------------------------------------------------------------------------


def exact(cc: str | None) -> str:
    return chain_names(cc)[0]


def family(cc: str | None) -> str:
    return chain_names(cc)[-2] if cc else "common"


def scope_of(failures: list[Failure], passed_on: set[str | None], scope: str | None) -> dict[str, list[Failure]]:
    """The file(s) for one test's failures with one cause, seen on the CCs of `failures` and passing on those of
    `passed_on`: by `scope` when given, else by the rule's nature (the module's docstring)."""
    first = failures[0]
    if scope is None and first.compiler and first.context.for_target:  # --target-cc: the target's own file
        return _by(failures, lambda f: exact(f.context.cc))
    if scope is None and (first.compiler or not first.test.get("gpu")):
        return {"common": failures}
    if scope == "common":
        return {"common": failures}
    if scope == "family":
        return _by(failures, lambda f: family(f.context.cc))
    ccs = {f.context.cc for f in failures}
    if scope is None and len(ccs) > 1 and None not in ccs:
        majors = {cc.split(".")[0] for cc in ccs}
        passing = {cc.split(".")[0] for cc in passed_on if cc}
        if len(majors) == 1 and not majors & passing:
            return {family(first.context.cc): failures}
        if len(majors) > 1 and not passed_on:
            return {"common": failures}
    return _by(failures, lambda f: exact(f.context.cc))


def _by(failures: list[Failure], key) -> dict[str, list[Failure]]:
    grouped: dict[str, list[Failure]] = defaultdict(list)
    for failure in failures:
        grouped[key(failure)].append(failure)
    return dict(grouped)


# --- the tests an entry names -------------------------------------------------------------------------------------


def escape(text: str) -> str:
    """A test id as an fnmatch pattern that matches only itself (compile/A.B[nvcc] has brackets)."""
    return re.sub(r"([*?[])", r"[\1]", text)


def _base(test_id: str, compiler: str | None) -> str:
    """A compile-time case's id without its compiler: compile/A.B[nvcc] -> compile/A.B (the entry's `compiler`
    chooses the compiler, as the reviewed entries do)."""
    return test_id.removesuffix(f"[{compiler}]") if compiler else test_id


def patterns(ids: list[str], universe: list[str], rule_name: str, compiler: str | None) -> tuple[str, ...]:
    """The fewest patterns naming exactly `ids` among `universe` (every test of the runs that the entry could hold
    for): one `prefix*` whose fixed part holds the whole rule name (so it spans parameters of this rule only), else
    each id."""
    ids = sorted(set(ids))
    if len(ids) == 1 and not compiler:
        return (escape(ids[0]),)
    bases = [_base(test_id, compiler) for test_id in ids]
    prefix = bases[0]
    for base in bases[1:]:
        while not base.startswith(prefix):
            prefix = prefix[:-1]
    cut = max(prefix.rfind("/"), prefix.rfind("."))
    for fixed in dict.fromkeys([prefix[: cut + 1] if cut >= 0 else prefix, prefix]):
        pattern = escape(fixed) + "*"
        if rule_name in fixed and [t for t in universe if fnmatch.fnmatchcase(t, pattern)] == ids:
            return (pattern,)
    return tuple(escape(test_id) for test_id in ids)


# --- the drafts ---------------------------------------------------------------------------------------------------


def observed(failures: list[Failure]) -> str:
    """What was seen: the lines of the first failure's message that say what went wrong, and how many tests."""
    first = failures[0]
    lines = overview.failure_lines(first.test, 3) or [f"{first.test.get('status')} (no message)"]
    text = " / ".join(printable(line) for line in lines)
    if len(text) > OBSERVED_CHARS:
        text = text[: OBSERVED_CHARS - 1].rstrip() + "…"
    tests = sorted({f.id for f in failures})
    if len(tests) == 1:
        return f"observed: {text}"
    return f"observed in {len(tests)} tests, e.g. {first.id}: {text}"


def evidence(failures: list[Failure]) -> str:
    first = failures[0]
    seen = []
    for failure in failures:
        context = failure.context
        text = (
            context.describe_compile(first.compiler, first.test.get("compiler_version"))
            if first.compiler
            else context.describe()
        )
        if text not in seen:
            seen.append(text)
    return f"{'; '.join(seen)}; {observed(failures)}".strip()


def make_drafts(triage: Triage, scope: str | None, today: str) -> None:
    """The failures grouped by cause and file, one draft each."""
    by_test: dict[tuple, list[Failure]] = defaultdict(list)
    for failure in triage.failures:
        by_test[(failure.id, failure.cause)].append(failure)
    passed: dict[str, set[str | None]] = defaultdict(set)
    for test, context in triage.tests:
        if test.get("status") == "pass":
            passed[test["id"]].add(context.cc)
    by_entry: dict[tuple, list[Failure]] = defaultdict(list)
    for (test_id, cause), failures in by_test.items():
        for file, members in scope_of(failures, passed[test_id], scope).items():
            by_entry[(file, cause)] += members
    all_ids = {test["id"]: test for test, _ in triage.tests}
    runs = ", ".join(dict.fromkeys(context.run for context in triage.contexts))
    for (file, cause), failures in by_entry.items():
        first = failures[0]
        compiler = first.compiler
        universe = sorted(test_id for test_id, test in all_ids.items() if test.get("compiler") == compiler)
        rule = str(first.test.get("rule") or first.id)
        environment = first.context.environment
        draft = Draft(
            file=file,
            area=str(first.test.get("area") or first.id.split("/", 1)[0]),
            tests=patterns([f.id for f in failures], universe, rule.split("/", 1)[-1], compiler),
            status=str(first.test.get("status")),
            evidence=evidence(failures),
            comment=f"Draft by scripts/conformance triage on {today} from {runs}: accepted without review.\n"
            "To review it, write its reason (what the documentation says and what happens instead), then "
            "delete `draft = true`.",
            compiler=compiler,
            compiler_versions=f"=={first.test['compiler_version']}"
            if compiler and first.test.get("compiler_version")
            else None,
            sanitizer=(environment["sanitizer"],) if environment.get("sanitizer") else None,
            profile="full" if environment.get("profile") == "full" else None,
        )
        triage.drafts.append(draft)
        triage.members[draft] = failures
