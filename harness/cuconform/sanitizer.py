"""The sanitizer mode: GPU test binaries run under NVIDIA's compute-sanitizer, and every error it reports while a
test runs fails that test (`scripts/conformance run --sanitizer memcheck`).

compute-sanitizer writes its reports into the binary's output stream, each line starting with PREFIX, so the
stream parser (gtest.py) gives each report to the test that was running. Its options:
- `--report-api-errors no`: many rules check on purpose that a call fails (an over-limit launch, a bad argument);
  those documented errors are the tests' business, not the sanitizer's;
- `--print-limit`: a broken test reports a few errors, not thousands;
- `--target-processes application-only`: the rules that run a child process of their own (a fresh runtime, another
  environment, an error that poisons the context) test what the driver does there, which instrumentation changes;
  the tool checks the test process itself;
- the binary's own exit code is kept (`--error-exitcode` is left alone), so a crash is still a crash.
Tests that must not run under a tool (those that fault on purpose, or race on purpose under racecheck) are listed
in the expectation files with `sanitizer = [...]` and status `skip`, with the reason.
The binaries are told the tool (CUCONFORM_SANITIZER, stage_run.launch_for): a sweep that launches one kernel in
many shapes samples them under it (cuconform/instrumented.h), since the tool checks the kernel, not the shapes.
"""

from __future__ import annotations

import os
import shutil

from cuconform import protocol

PREFIX = protocol.SANITIZER
SANITIZER_SLOWDOWN = 20  # the per-test timeout is multiplied by this: instrumented kernels run far slower


def executable() -> str:
    """compute-sanitizer: on PATH, or beside nvcc in $CUDA_HOME / /usr/local/cuda."""
    found = shutil.which("compute-sanitizer")
    if found:
        return found
    for root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if root and os.access(os.path.join(root, "bin", "compute-sanitizer"), os.X_OK):
            return os.path.join(root, "bin", "compute-sanitizer")
    return "compute-sanitizer"


def sanitizer_wrapper(tool: str) -> list[str]:
    wrapper = [
        executable(),
        "--tool",
        tool,
        "--prefix",
        PREFIX,
        "--print-limit",
        "20",
        "--report-api-errors",
        "no",
        "--target-processes",
        "application-only",
    ]
    if tool == "racecheck":
        wrapper += ["--racecheck-report", "all"]
    return wrapper


def is_report(line: str) -> bool:
    """A line of an error report (not compute-sanitizer's banner, its blank separators or its final summary)."""
    if not line.startswith(PREFIX):
        return False
    body = line[len(PREFIX) :].strip()
    return bool(body) and not body.startswith(
        ("COMPUTE-SANITIZER", "ERROR SUMMARY: 0 errors", "RACECHECK SUMMARY: 0 hazards")
    )
