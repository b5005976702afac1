#!/usr/bin/env python3
"""Where the harness's time goes after its tests, on this machine, without a GPU (issue 35; h200-2026-11-29-speed6.md,
"Where the harness's 3.4-3.9 s over the direct run go"): a fake build of 30 areas of 210 tests each (the fake suite
binary of harness/tests/fake) run once through scripts/conformance, with the end of the run stamped in seconds since
the harness started: pytest's session end, the reports, pytest's terminal summary, the console summary (profiled),
the exit.

    python3 docs/results/h200-2026-11-29-harness-end.py [FOLDER]        # the fake build in FOLDER

Run with the python3 that runs scripts/conformance there (one with pytest). On the H200 machines (2026-11-29, tree
c133ca5), with the nine pytest plugins installed there, 0.64 s passed between the harness's session end and
pytest's terminal summary; with PYTEST_DISABLE_PLUGIN_AUTOLOAD=1, and on the CPU machine, none. Since c00b3da the run
loads no plugin it is not named (-- -p NAME), so on a later tree the gap is gone.
"""

import cProfile
import functools
import io
import json
import pstats
import runpy
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FAKE = REPO / "harness" / "tests" / "fake"
sys.path.insert(0, str(REPO / "harness"))

import cuconform.plugin as plugin  # noqa: E402
import cuconform.session as session  # noqa: E402
import cuconform.stage_report as stage_report  # noqa: E402
from cuconform import script, since_start  # noqa: E402


def fake_build(root: Path) -> Path:
    shutil.rmtree(root, ignore_errors=True)
    build = root / "build" / "fake"
    (build / "bin").mkdir(parents=True)
    (root / "expectations").mkdir()
    (root / "expectations" / "common.toml").write_text("# the common base\n")
    shutil.copy(FAKE / "cuconform-deviceinfo", build / "bin" / "cuconform-deviceinfo")
    (build / "cuconform-build.json").write_text(json.dumps({"compiler": "nvcc", "compiler_version": "13.0.88"}))
    for area in range(30):
        binary = build / "bin" / f"cuconform-area{area:02d}"
        shutil.copy(FAKE / "cuconform-fake", binary)
        binary.chmod(0o755)
        names = [f"Fake.Pass{i}" if i % 3 else f"Fake.Metric{i}" for i in range(210)]
        binary.with_name(binary.name + ".tests").write_text("\n".join(names) + "\n")
    return build


def stamp(what: str) -> None:
    print(f"{since_start():7.3f} s  {what}", file=sys.stderr, flush=True)


def stamped(owner, name: str, profile: bool = False) -> None:
    """`owner.name` stamped when it begins and ends (and profiled); its signature kept, as pluggy reads it."""
    original = getattr(owner, name)

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        stamp(f"{name} begins")
        if profile:
            profiler = cProfile.Profile()
            result = profiler.runcall(original, *args, **kwargs)
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("cumtime").print_stats(12)
            print(text.getvalue(), file=sys.stderr, flush=True)
        else:
            result = original(*args, **kwargs)
        stamp(f"{name} ends")
        return result

    setattr(owner, name, wrapper)


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/cuconform-harness-end")
    build = fake_build(root)
    for owner, name in (
        (plugin, "pytest_sessionfinish"),
        (plugin, "pytest_terminal_summary"),
        (session.RunSession, "write_reports"),
    ):
        stamped(owner, name)
    stamped(stage_report, "console", profile=True)
    exit_now = script.os._exit
    script.os._exit = lambda code: (stamp("exit"), exit_now(code))
    sys.argv = [str(REPO / "scripts" / "conformance"), "run", "--build-dir", str(build), "--no-build"]
    sys.argv += ["--expectations", str(root / "expectations"), "--output", str(root / "reports"), "--", "-q"]
    runpy.run_path(str(REPO / "scripts" / "conformance"), run_name="__main__")


if __name__ == "__main__":
    main()
