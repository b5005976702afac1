"""cuconform-compile: the compile-time rules of suites/compile/, run through nvcc, clang and NVRTC, behind the
interface every suite binary has (docs/architecture.md, "What a test binary prints").

The build writes `build/<preset>/bin/cuconform-compile`, a small script that calls `main` here, so the harness lists
and runs compile-time rules exactly like the tests of a GoogleTest binary: same batches, timeouts, expectations,
verdicts and reports. Each (case, compiler) pair is one test, `<Rule>[<compiler>]`, e.g.
`compile/ExecutionSpace.GlobalMustReturnVoid[nvcc]`; its listing names the compiler and its version, so that an
expectation entry can hold for one compiler and a version range.

    cuconform-compile --cuconform_list                       one JSON object per line, per (case, compiler)
    cuconform-compile --gtest_filter=A.B[nvcc]:C.D[clang]    run those, printing GoogleTest's stream
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from cuconform import protocol as stream
from cuconform_compile import cache as compile_cache
from cuconform_compile.cache import CompileCache
from cuconform_compile.cases import COMPILERS, CaseError, CompileCase, load_cases
from cuconform_compile.compilers import Toolchain, no_such_target

COMPILE_TIMEOUT_S = 300  # the harness's inactivity timeout usually ends a stuck compiler first
DIAGNOSTIC_LINES = 10
_ERROR_LINE = re.compile(r"\berror\b", re.IGNORECASE)


@dataclass
class Result:
    status: str  # pass | fail | skip
    message: str = ""


@dataclass
class Compiled:
    command: list[str]
    returncode: int | None  # None: it did not finish
    output: str
    assembly: str | None = None  # the device assembly, for a PTX check
    seconds: float = 0.0
    cached_at: str | None = None  # when the result comes from the compile cache: when it was compiled


def _first_errors(output: str) -> str:
    lines = [line for line in output.splitlines() if _ERROR_LINE.search(line)]
    lines = lines or output.strip().splitlines()[-DIAGNOSTIC_LINES:]
    return "\n".join(lines[:DIAGNOSTIC_LINES])


def judge(case: CompileCase, compiler: str, compiled: Compiled, target: str | None = None) -> Result:
    """Compares what the compiler did with what the case's documentation says it must do (for the run's target)."""
    where = f"[{case.section}] {case.statement}"
    if compiled.returncode is None:
        return Result("fail", f"{compiler} did not finish within {COMPILE_TIMEOUT_S} s")
    accepted = compiled.returncode == 0
    if case.unavailable_on(target):  # only a .pass case compiles here (run() skips the others)
        if accepted:
            return Result(
                "fail",
                f"the documentation gives this to CC {case.requires_cc} and later {where}\n"
                f"{compiler} accepted it for {case.target(target)}",
            )
        return Result("pass")
    pattern = case.pattern(compiler)
    if case.outcome == "pass":
        if not accepted:
            return Result(
                "fail",
                f"the documentation says this compiles {where}\n{compiler} rejected it "
                f"(exit code {compiled.returncode}):\n{_first_errors(compiled.output)}",
            )
        return _check_assembly(case, compiler, compiled.assembly)
    if case.outcome == "fail":
        if accepted:
            return Result("fail", f"the documentation says this is an error {where}\n{compiler} accepted it")
        if re.search(pattern, compiled.output, re.MULTILINE):
            return Result("pass")
        return Result(
            "fail",
            f"{compiler} rejected it, but without the expected diagnostic /{pattern}/ "
            f"(a failure for another reason):\n{_first_errors(compiled.output)}",
        )
    if case.outcome == "warn":
        if not accepted:
            return Result(
                "fail",
                f"the documentation says this compiles with a warning {where}\n{compiler} "
                f"rejected it (exit code {compiled.returncode}):\n{_first_errors(compiled.output)}",
            )
        if re.search(pattern, compiled.output, re.MULTILINE):
            return Result("pass")
        return Result(
            "fail",
            f"the documentation says this warns {where}\n{compiler} accepted it without the "
            f"expected warning /{pattern}/",
        )
    raise ValueError(f"unknown outcome {case.outcome!r}")


def _check_assembly(case: CompileCase, compiler: str, assembly: str | None) -> Result:
    if not case.checks_ptx:
        return Result("pass")
    if assembly is None:
        return Result("fail", f"{compiler} reported success but wrote no device assembly")
    for pattern in case.ptx_match:
        if not re.search(pattern, assembly, re.MULTILINE):
            return Result(
                "fail",
                f"the device assembly {compiler} generated does not match /{pattern}/ "
                f"[{case.section}] {case.statement}",
            )
    for pattern in case.ptx_no_match:
        found = re.search(pattern, assembly, re.MULTILINE)
        if found:
            line = assembly[: found.start()].count("\n") + 1
            text = assembly.splitlines()[line - 1].strip()
            return Result(
                "fail",
                f"the device assembly {compiler} generated matches /{pattern}/, which it must "
                f"not [{case.section}] {case.statement}\n  line {line}: {text}",
            )
    return Result("pass")


class CompileSuite:
    """The cases of one folder and the tools that compile them."""

    def __init__(self, cases: list[CompileCase], toolchain: Toolchain, cache: CompileCache | None = None):
        self.cases = cases
        self.toolchain = toolchain
        self.cache = cache
        self._versions: dict[str, str | None] = {}
        self._fingerprints: dict[str, str] = {}
        self._targets_lacking: dict[tuple, str | None] = {}  # (compiler, target, std, flags) -> the probe's line
        self._headers_lacking: dict[tuple[str, ...], str | None] = {}  # a case's headers -> why they are missing
        self.by_name = {case.test_name(compiler): (case, compiler) for case in cases for compiler in COMPILERS}

    def version(self, compiler: str) -> str | None:
        if compiler not in self._versions:
            self._versions[compiler] = self.toolchain.version(compiler)
        return self._versions[compiler]

    def listing(self) -> list[dict]:
        """One entry per (case, compiler); `cost_hint` says when the test will skip or be judged from the compile
        cache (the harness plans its batches by it)."""
        entries = []
        for case in self.cases:
            for compiler in COMPILERS:
                entry = {
                    "test": case.test_name(compiler),
                    "rule": case.rule,
                    "section": case.section,
                    "statement": case.statement,
                    "gpu": False,
                    "exclusive": False,
                    "param": compiler,
                    "file": str(case.path),
                    "line": 1,
                    "compiler": compiler,
                    "compiler_version": self.version(compiler),
                }
                hint = self.cost_hint(case, compiler)
                if hint:
                    entry["cost_hint"] = hint
                entries.append(entry)
        return entries

    def compile(self, case: CompileCase, compiler: str, workdir: Path) -> Compiled:
        ptx = case.outcome == "pass" and case.checks_ptx
        output = workdir / ("device.s" if ptx else "case.o")
        output.unlink(missing_ok=True)
        command = self.toolchain.command(compiler, case, output, ptx)
        key = None
        if self.cache is not None:
            key = self._key(case, compiler, command, workdir)
            if compile_cache.enabled():
                entry = self.cache.get(key)
                if entry is not None:
                    return Compiled(
                        command,
                        entry.returncode,
                        entry.output,
                        entry.assembly,
                        entry.seconds,
                        cached_at=entry.compiled_at,
                    )
        started = time.monotonic()
        try:
            done = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=COMPILE_TIMEOUT_S,
                cwd=workdir,
            )
        except subprocess.TimeoutExpired as expired:
            text = (expired.output or b"").decode("utf-8", errors="backslashreplace")
            return Compiled(command, None, text, seconds=time.monotonic() - started)
        text = done.stdout.decode("utf-8", errors="backslashreplace")
        assembly = None
        if ptx and done.returncode == 0 and output.exists():
            assembly = output.read_text(encoding="utf-8", errors="backslashreplace")
        seconds = time.monotonic() - started
        if key is not None:
            self.cache.put(key, done.returncode, text, assembly, seconds)
        return Compiled(command, done.returncode, text, assembly, seconds)

    def _key(self, case: CompileCase, compiler: str, command: list[str], workdir: Path) -> str:
        return CompileCache.key(
            case.path.read_bytes(),
            command,
            workdir,
            self._fingerprint(compiler),
            tool_in_fingerprint=compiler == "nvrtc",
        )

    def _fingerprint(self, compiler: str) -> str:
        if compiler not in self._fingerprints:
            paths, host_compiler, built = self.toolchain.inputs(compiler)
            self._fingerprints[compiler] = compile_cache.fingerprint(paths, host_compiler, built)
        return self._fingerprints[compiler]

    def cost_hint(self, case: CompileCase, compiler: str) -> str | None:
        """What running the test will cost, where it is known before it runs: 'skip' (it cannot run here) or
        'cached' (the compile cache has the compiler's result); None: a compilation."""
        if self._skip_reason(case, compiler) is not None:
            return "skip"
        if self.cache is None or not compile_cache.enabled():
            return None
        ptx = case.outcome == "pass" and case.checks_ptx
        workdir = Path("/cuconform-compile-listing")  # the key takes the scratch folder out: any name will do
        command = self.toolchain.command(compiler, case, workdir / ("device.s" if ptx else "case.o"), ptx)
        try:
            return "cached" if self.cache.has(self._key(case, compiler, command, workdir)) else None
        except OSError:
            return None

    def _skip_reason(self, case: CompileCase, compiler: str) -> str | None:
        """Why the case cannot run through `compiler` here, known before compiling it; None: it runs."""
        if compiler in case.skips:
            return f"{compiler} cannot take this case: {case.skips[compiler]}"
        missing = self.toolchain.missing(compiler)
        if missing:
            return missing
        if case.required_headers not in self._headers_lacking:  # a look at the toolkit per set, not per test
            self._headers_lacking[case.required_headers] = self.toolchain.missing_headers(case.required_headers)
        lacking = self._headers_lacking[case.required_headers]
        if lacking:
            return lacking
        target = self.toolchain.target
        if case.unavailable_on(target) and case.outcome != "pass":
            return (
                f"the case misuses a feature of CC {case.requires_cc} and later, which {case.target(target)} "
                "does not have"
            )
        return None

    def run(self, case: CompileCase, compiler: str, workdir: Path) -> tuple[Result, Compiled | None]:
        skipped = self._skip_reason(case, compiler)
        if skipped is not None:
            return Result("skip", skipped), None
        target = self.toolchain.target
        compiled = self.compile(case, compiler, workdir)
        lacking_target = self.lacks_target(case, compiler, compiled, workdir)
        if lacking_target:
            return Result("skip", lacking_target), compiled
        return judge(case, compiler, compiled, target), compiled

    def lacks_target(self, case: CompileCase, compiler: str, compiled: Compiled, workdir: Path) -> str | None:
        """Why the case cannot be judged with `compiler`: it rejected the case as a target it does not have, and
        an empty file compiled the same way is rejected in the same words (probed once per compiler, target,
        standard and flags in a run). None for anything else, which is judged: a case rejected for another reason,
        or in those words where the empty file compiles, fails as it should."""
        if compiled.returncode in (0, None) or no_such_target(compiled.output) is None:
            return None
        target = case.target(self.toolchain.target)
        key = (compiler, target, case.std, case.flags.get(compiler, ()))
        if key not in self._targets_lacking:
            self._targets_lacking[key] = self.toolchain.probe_target(compiler, case, workdir)
        diagnostic = self._targets_lacking[key]
        if diagnostic is None:
            return None
        flags = " ".join(case.flags.get(compiler, ()))
        given = f" (with the case's flags {flags})" if flags else ""
        return (
            f"{compiler} {self.version(compiler) or '(version unknown)'} ({self.toolchain.tool(compiler)}) has "
            f"no target {target}{given}: it rejects an empty file for it too: {diagnostic}\n"
            f"the case cannot be judged with this compiler for {target}"
        )


# --- the GoogleTest-style front ------------------------------------------------------------------------------


def gtest_pattern_matches(pattern: str, name: str) -> bool:
    """GoogleTest filter semantics for one positive pattern: '*' any text, '?' one character, nothing else special
    (names hold '[' and ']')."""
    regex = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, name) is not None


def select(names: list[str], gtest_filter: str | None) -> list[str]:
    """The names a --gtest_filter selects, in the filter's order for exact names (the harness's batch order)."""
    if not gtest_filter:
        return names
    positive, _, negative = gtest_filter.partition("-")
    positives = [p for p in positive.split(":") if p] or ["*"]
    negatives = [p for p in negative.split(":") if p]
    chosen: list[str] = []
    seen: set[str] = set()
    known = set(names)
    for pattern in positives:
        matched = [pattern] if pattern in known else [n for n in names if gtest_pattern_matches(pattern, n)]
        for name in matched:
            if name not in seen and not any(gtest_pattern_matches(p, name) for p in negatives):
                seen.add(name)
                chosen.append(name)
    return chosen


def _say(line: str = "") -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def run_tests(suite: CompileSuite, names: list[str]) -> int:
    failed = []
    _say(f"{stream.BANNER}Running {len(names)} tests from cuconform-compile.")
    with tempfile.TemporaryDirectory(prefix="cuconform-compile-") as scratch:
        workdir = Path(scratch)
        for name in names:
            case, compiler = suite.by_name[name]
            _say(f"{stream.RUN}{name}")
            started = time.monotonic()
            result, compiled = suite.run(case, compiler, workdir)
            if compiled is not None:
                _say("$ " + shlex.join(compiled.command))
                if compiled.cached_at:
                    _say(
                        f"(from the compile cache: compiled {compiled.cached_at} in {compiled.seconds:.2f} s; "
                        f"--no-compile-cache recompiles)"
                    )
                    _say(f'{stream.METRIC}compile_cache = "hit"')
                if compiled.output.strip():
                    _say(compiled.output.rstrip("\n"))
            elapsed_ms = int((time.monotonic() - started) * 1000)
            if result.status == "pass":
                _say(f"{stream.OK}{name} ({elapsed_ms} ms)")
            elif result.status == "skip":
                _say(f"{case.path}:1: Skipped")
                _say(result.message)
                _say(f"{stream.SKIPPED}{name} ({elapsed_ms} ms)")
            else:
                _say(f"{case.path}:1: Failure")
                _say(result.message)
                _say(f"{stream.FAILED}{name} ({elapsed_ms} ms)")
                failed.append(name)
    _say(f"{stream.BANNER}{len(names)} tests ran.")
    if failed:
        _say(f"{stream.FAILED}{len(failed)} tests, listed below:")
        for name in failed:
            _say(f"{stream.FAILED}{name}")
    return 1 if failed else 0


def load_config(path: Path) -> dict:
    config = json.loads(path.read_text(encoding="utf-8"))
    return config


def cases_root(config: dict, script_dir: Path) -> Path:
    """The case folder: the configured one, or (for a build carried to another machine) the one of the checkout
    the build folder sits in (build/<preset>/bin/ -> suites/compile/)."""
    configured = Path(config["cases"])
    if configured.is_dir():
        return configured
    return script_dir.parents[2] / "suites" / "compile"


def main(argv: list[str], config_path: Path) -> int:
    gtest_filter = None
    listing = False
    for arg in argv:
        if arg == "--cuconform_list":
            listing = True
        elif arg.startswith("--gtest_filter="):
            gtest_filter = arg.split("=", 1)[1]
    try:
        config = load_config(config_path)
        root = cases_root(config, config_path.parent / "bin")
        if not root.is_dir():
            # A build carried away from its checkout: say so, and offer no tests rather than break the whole run.
            print(
                f"cuconform-compile: no case folder at {config['cases']} or {root}: no compile-time rules here",
                file=sys.stderr,
            )
            return 0
        cases = load_cases(root)
    except (OSError, ValueError, KeyError) as error:
        print(f"cuconform-compile: cannot read {config_path}: {error}", file=sys.stderr)
        return 2
    except CaseError as error:
        print(f"cuconform-compile: {error}", file=sys.stderr)
        return 2
    bin_dir = config_path.parent / "bin"
    nvrtc_compile = Path(config["nvrtc_compile"])
    if not nvrtc_compile.is_absolute():
        config = dict(config, nvrtc_compile=str(bin_dir / nvrtc_compile))  # it sits beside this script
    suite = CompileSuite(cases, Toolchain.from_config(config), CompileCache(compile_cache.folder()))
    if listing:
        for entry in suite.listing():
            _say(json.dumps(entry))
        return 0
    return run_tests(suite, select(list(suite.by_name), gtest_filter))
