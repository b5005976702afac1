"""The host-side (runtime) operators without a GPU: their table against the library that implements them
(suites/common/interpose/operators.h), their sites, the mutant's wrapper script, the calls the library counts, a
campaign that scores them (fake engine and harness of test_mutation_campaign.py), and the library itself against a
fake driver (its self-test, compiled here with g++ when the CUDA headers are present)."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO
from test_mutation_campaign import (
    BASELINE,
    FAILS,
    FakeHarness,
    document,
    fake_engine,
    judged,
    no_equivalents,
    plan_for,
    result,
)

from cuconform.catalog import suite_areas
from cuconform.mutation import census, classify, runtime_operators
from cuconform.mutation.batches import Slot
from cuconform.mutation.campaign import Campaign
from cuconform.mutation.operators import OPERATORS
from cuconform.mutation.plan import real_engine
from cuconform.mutation.runs import HarnessRun
from cuconform.mutation.runtime_operators import (
    FAMILIES,
    RUNTIME_OPERATORS,
    Calls,
    RuntimeOperator,
    read_calls,
    wrapper_script,
)

INTERPOSE = REPO / "suites" / "common" / "interpose"
CUDA_INCLUDE = Path("/usr/local/cuda/include")


def implemented() -> dict[str, set[str]]:
    """operators.h: each operator's name and the entry points it wraps (groups such as CUCONFORM_MEMSETS opened)."""
    text = (INTERPOSE / "operators.h").read_text()
    groups = {
        name: set(re.findall(r"E_(\w+)", body))
        for name, body in re.findall(r"#define (CUCONFORM_[A-Z_]+)\s*\\?\n?((?:[^\n]*\\\n)*[^\n]*)", text)
    }
    found = {}
    for name, body in re.findall(r'X\(\w+, "([a-z0-9-]+)",((?:[^\n]*\\\n)*?[^\n]*)\)\s*\\?\n', text):
        entries = set(re.findall(r"E_(\w+)", body))
        for group in re.findall(r"\b(CUCONFORM_[A-Z_]+)\b", body):
            entries |= groups[group]
        found[name] = entries
    return found


def test_every_runtime_operator_is_implemented_by_the_library_and_named_once():
    names = [op.name for op in RUNTIME_OPERATORS]
    assert len(names) >= 30 and len(set(names)) == len(names)
    assert not set(names) & {op.name for op in OPERATORS}  # one namespace with the PTX operators
    library = implemented()
    assert set(library) == set(names)
    assert all(library[name] for name in names)  # each wraps at least one entry point


def test_each_runtime_operator_is_described_and_placed_in_areas_of_the_suite():
    areas = suite_areas()
    for op in RUNTIME_OPERATORS:
        assert op.family in FAMILIES and op.family.startswith("runtime")
        assert op.description and not op.description.endswith(".")
        assert op.areas and set(op.areas) <= areas, op.name
        assert op.apis, op.name
    assert {area for op in RUNTIME_OPERATORS for area in op.areas} >= set(runtime_operators.RUNTIME_AREAS)


def test_the_real_engine_lists_the_runtime_operators_after_the_ptx_ones():
    engine = real_engine()
    assert [op.name for op in engine.operators] == [op.name for op in OPERATORS + RUNTIME_OPERATORS]


def test_a_runtime_operators_sites_are_the_lines_of_the_area_that_name_its_apis(tmp_path):
    suites = tmp_path / "suites"
    (suites / "streams" / "selftest").mkdir(parents=True)
    (suites / "streams" / "events.cu").write_text(
        "cudaEventRecord(e, s);\ncudaEventRecordWithFlags(e, s, 0);  // cudaEventRecord\nmyEventRecorder();\n"
    )
    (suites / "streams" / "other.cu").write_text("cudaStreamSynchronize(s);\n")
    (suites / "streams" / "selftest" / "model_test.cpp").write_text("cudaEventRecord(e, s);\n")
    op = runtime_operators.BY_NAME["event-record-dropped"]
    assert runtime_operators.sites(op, "streams", suites) == {"suites/streams/events.cu": 2}
    assert runtime_operators.sites(op, "graphs", suites) == {}


def test_the_wrapper_script_runs_the_real_binary_under_the_library_with_the_operator_named(tmp_path):
    binary = tmp_path / "cuconform-streams"
    binary.write_text('#!/bin/sh\necho "$LD_PRELOAD|$CUCONFORM_RUNTIME_MUTANT|$CUCONFORM_RUNTIME_CALLS|$*"\n')
    binary.chmod(0o755)
    library = tmp_path / "lib" / "libcuconform-interpose.so"
    library.parent.mkdir()
    shutil.copy("/bin/true", library)  # not loadable: ld.so says so on stderr and goes on
    mutant = tmp_path / "cuconform-streams@event-record-dropped"
    op = runtime_operators.BY_NAME["event-record-dropped"]
    mutant.write_text(wrapper_script(binary, op.name, op.description, tmp_path / "calls", library))
    mutant.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    done = subprocess.run([str(mutant), "--gtest_list_tests"], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.strip() == f"{library}|event-record-dropped|{tmp_path / 'calls'}|--gtest_list_tests"


def test_the_calls_are_read_from_the_markers_and_the_exit_counts(tmp_path):
    assert not read_calls(tmp_path / "none").applicable
    (tmp_path / "cuEventRecord.101").touch()  # a process that crashed after its first call: a marker only
    (tmp_path / "102.calls").write_text("cuEventRecord 3\ncuEventRecordWithFlags 1\n")
    (tmp_path / "103.calls").write_text("cuEventRecord 2\n")
    calls = read_calls(tmp_path)
    assert calls.applicable and calls.total == 6 and calls.by_entry == {"cuEventRecord": 5, "cuEventRecordWithFlags": 1}
    assert calls.called == {"cuEventRecord"} and not calls.unknown_operator
    assert not calls.counts_changes and not calls.changed_none  # the old format: whether it changed one is unknown
    (tmp_path / "unknown-operator").touch()
    assert read_calls(tmp_path).unknown_operator


def test_the_calls_an_operator_changed_are_read_beside_the_calls_it_saw(tmp_path):
    (tmp_path / "cuEventCreate.101").touch()  # a process that crashed: its calls are not in a .calls file
    (tmp_path / "102.calls").write_text("cuEventCreate 3 0\ncuEventRecord 2 0\n")
    (tmp_path / "103.calls").write_text("cuEventCreate 1 0\n")
    calls = read_calls(tmp_path)
    assert calls.by_entry == {"cuEventCreate": 4, "cuEventRecord": 2} and calls.counts_changes
    assert calls.changed == 0 and calls.changed_none  # entered, changed none: the baseline's run
    (tmp_path / "cuEventCreate.101.changed").touch()  # ... but it changed a call before it crashed
    calls = read_calls(tmp_path)
    assert calls.changed_marked == {"cuEventCreate"} and calls.called == {"cuEventCreate"} and not calls.changed_none
    (tmp_path / "cuEventCreate.101.changed").unlink()
    (tmp_path / "104.calls").write_text("cuEventCreate 2 1\n")
    calls = read_calls(tmp_path)
    assert calls.changed_by_entry == {"cuEventCreate": 1, "cuEventRecord": 0} and not calls.changed_none
    (tmp_path / "104.calls").write_text("cuEventCreate 2\n")  # one process of an older library: unknown again
    assert not read_calls(tmp_path).changed_none
    for path in tmp_path.glob("*.calls"):
        path.unlink()
    assert read_calls(tmp_path).applicable and not read_calls(tmp_path).changed_none  # markers only: unknown


def test_the_calls_each_operator_would_change_are_read_from_the_census(tmp_path):
    assert not read_calls(tmp_path).counts_would  # an older library: what operators would change is not known
    (tmp_path / "would-change").touch()
    (tmp_path / "102.would").write_text("memset-value-changed 3\nmalloc-misaligned 1\n")
    (tmp_path / "103.would").write_text("memset-value-changed 2\n")
    (tmp_path / "would.launch-error-swallowed.104").touch()  # a process that crashed after its first such call
    (tmp_path / "would.memset-value-changed.102").touch()
    calls = read_calls(tmp_path)
    assert calls.counts_would and calls.would == {"memset-value-changed": 5, "malloc-misaligned": 1}
    assert calls.would_marked == {"launch-error-swallowed", "memset-value-changed"}
    assert calls.would_change("launch-error-swallowed") and calls.would_change("malloc-misaligned")
    assert not calls.would_change("memset-count-halved")
    assert calls.by_entry == {} and not calls.called  # none of these is an entry point's count or marker


class CallingHarness(FakeHarness):
    """The fake harness, and what the library would leave in each runtime mutant's calls folder when its binary ran:
    `calls[operator][area]` is a marker file name (the area made a wrapped call), {file name: text} (the files the
    library wrote), 'unknown' or None (no call). The census's run (DIR/census/run: test_mutation_census.py's
    CensusHarness makes one) cannot be made here."""

    def __init__(self, baseline, mutants, calls):
        super().__init__(baseline, mutants)
        self.runtime_calls = calls
        self.census_runs: list[tuple[str, ...]] = []

    def census(self, areas, output, fail_fast, exclude, resume) -> HarnessRun:
        log = output.with_name(output.name + ".log")
        log.write_text("cuconform: the census could not run\n")
        return HarnessRun(None, 2, log)

    def __call__(self, build_dir, areas, output, rules=(), fail_fast=False, exclude=(), resume=False):
        if output.parent.name == census.FOLDER:
            self.census_runs.append(tuple(areas))
            return self.census(areas, output, fail_fast, exclude, resume)
        for binary in areas:
            area, _, operator = binary.partition("@")
            made = self.runtime_calls.get(operator, {}).get(area)
            folder = output.parent / "calls" / binary
            if made and folder.is_dir() and isinstance(made, dict):
                for name, text in made.items():
                    (folder / name).write_text(text)
            elif made and folder.is_dir():
                (folder / ("unknown-operator" if made == "unknown" else made)).touch()
        return super().__call__(build_dir, areas, output, rules, fail_fast, exclude)


# What each mutant's runs report in the runtime campaigns of these tests (and test_mutation_census.py's).
RUNTIME_MUTANT_RUNS = {
    "fail-all": document(result("alpha/S.Pass1", "fail"), result("alpha/S.Pass2", "pass")),
    # alpha: a judge fails (and the area called the wrapped entry point): killed; beta: every judge passed and no
    # wrapped call was made: not applicable, measured
    "rt-wait": document(
        result("alpha/S.Pass1", "pass"),
        result("alpha/S.Pass2", "fail"),
        result("beta/S.Pass1", "pass"),
        result("beta/S.Pass2", "pass"),
    ),
    "rt-typo": document(result("alpha/S.Pass1", "pass"), result("alpha/S.Pass2", "pass")),
    # beta called it and every judge passed: survived
    "rt-beta": document(result("beta/S.Pass1", "pass"), result("beta/S.Pass2", "pass")),
}


def test_a_campaign_scores_runtime_mutants_and_measures_where_they_do_not_apply(tmp_path, capture_build):
    (capture_build / "interpose").mkdir()
    (capture_build / "interpose" / "libcuconform-interpose.so").write_bytes(b"")
    engine = fake_engine(capture_build, {("fail-all", "alpha/a.cu"): FAILS})
    wait = RuntimeOperator(
        "rt-wait", "runtime: streams and events", "a wait that waits for nothing", ("alpha", "beta"), ("cudaX",)
    )
    typo = RuntimeOperator("rt-typo", "runtime: memory", "a name the library does not know", ("alpha",), ("cudaY",))
    only_beta = RuntimeOperator("rt-beta", "runtime: graphs", "an operator of beta only", ("beta",), ("cudaZ",))
    engine = dataclasses.replace(engine, operators=[*engine.operators, wait, typo, only_beta])
    harness = CallingHarness(
        BASELINE,
        RUNTIME_MUTANT_RUNS,
        {
            "rt-wait": {"alpha": "cuStreamWaitEvent.77", "beta": None},
            "rt-typo": {"alpha": "unknown"},
            "rt-beta": {"beta": "cuGraphAddNode.5"},
        },
    )
    names = ["fail-all", "crash-all", "harmless", "hint", "rejected", "nowhere", "rt-wait", "rt-typo", "rt-beta"]
    equivalents = no_equivalents(tmp_path, names=names)
    results = Campaign(
        dataclasses.replace(plan_for(capture_build, tmp_path / "out", names), census=True),
        engine,
        equivalents,
        harness,
        say=lambda line: None,
    ).run()
    mutants = judged(results)
    assert mutants[("rt-wait", "alpha")]["status"] == "killed"
    assert mutants[("rt-wait", "alpha")]["killed_by"] == "alpha/S.Pass2"
    assert mutants[("rt-wait", "beta")]["status"] == "not applicable"
    assert mutants[("rt-wait", "beta")]["why"].startswith("measured")  # the census failed: every mutant ran
    assert harness.census_runs == [("alpha@census", "beta@census")]
    assert "failed" in json.loads((tmp_path / "out" / "census" / "census.json").read_text())
    assert results["mutation"]["time"]["census_settled"] == 0
    assert (
        mutants[("rt-typo", "alpha")]["status"] == "error"
        and "knows no operator" in mutants[("rt-typo", "alpha")]["why"]
    )
    assert mutants[("rt-beta", "beta")]["status"] == "survived"
    assert ("rt-beta", "alpha") not in mutants  # outside the operator's areas: no mutant at all
    assert mutants[("rt-wait", "alpha")]["family"] == "runtime: streams and events"
    # the runtime mutants are scripts in their batch's overlay, no rebuild made for them
    scripts = list((tmp_path / "out" / "mutants").glob("batch-*/calls/alpha@rt-wait"))
    assert len(scripts) == 1
    host = results["mutation"]["host_side"]
    assert host["alpha"]["killed"] == 1 and host["alpha"]["error"] == 1
    assert host["beta"]["survived"] == 1 and host["beta"]["not applicable"] == 1


def test_a_runtime_mutant_that_changed_no_call_is_not_applicable_and_one_that_changed_one_is_judged(
    tmp_path, capture_build
):
    (capture_build / "interpose").mkdir()
    (capture_build / "interpose" / "libcuconform-interpose.so").write_bytes(b"")
    engine = fake_engine(capture_build, {})
    timing = RuntimeOperator(
        "rt-timing", "runtime: streams and events", "a flag that is never set ignored", ("alpha", "beta"), ("cudaX",)
    )
    engine = dataclasses.replace(engine, operators=[*engine.operators, timing])
    harness = CallingHarness(
        BASELINE,
        {
            # alpha: every test as at baseline; beta: a judge failed
            "rt-timing": document(
                *[test for test in BASELINE["tests"] if test["area"] == "alpha"],
                result("beta/S.Pass1", "fail"),
                result("beta/S.Pass2", "pass"),
            ),
        },
        {
            "rt-timing": {
                "alpha": {"cuEventCreate.7": "", "7.calls": "cuEventCreate 3 0\n"},
                "beta": {"cuEventCreate.8": "", "cuEventCreate.8.changed": "", "8.calls": "cuEventCreate 1 0\n"},
            }
        },
    )
    results = Campaign(
        plan_for(capture_build, tmp_path / "out", ["rt-timing"]),
        engine,
        no_equivalents(tmp_path, names=["rt-timing"]),
        harness,
        say=lambda line: None,
    ).run()
    mutants = judged(results)
    quiet, changed = mutants[("rt-timing", "alpha")], mutants[("rt-timing", "beta")]
    assert quiet["status"] == "not applicable"
    assert quiet["why"] == "entered 3 times, changed none: the run is the baseline's"
    assert quiet["calls"] == {"cuEventCreate": 3} and quiet["changed"] == {"cuEventCreate": 0}
    # beta's second process changed a call before it crashed (a marker, no count): judged, and its judge killed it
    assert changed["status"] == "killed" and changed["killed_by"] == "beta/S.Pass1"
    assert results["mutation"]["host_side"]["alpha"]["not applicable"] == 1


def test_a_kill_of_a_runtime_mutant_that_changed_no_call_is_a_flake():
    entry = {"status": "killed", "killed_by": "alpha/S.Pass1", "killing_status": "fail", "killers": ["alpha/S.Pass1"]}
    slot = Slot(runtime_operators.BY_NAME["event-disable-timing-ignored"], "alpha", Path("bin"), [], entry)
    classify.from_calls(slot, Calls({"cuEventCreate": 1}, frozenset({"cuEventCreate"}), False, counts_changes=True))
    assert entry["status"] == "not applicable" and entry["killed_by"] is None
    assert "killers" not in entry and "killing_status" not in entry
    assert entry["why"] == (
        "entered once, changed none: the run is the baseline's (its kill by alpha/S.Pass1 is a flake)"
    )


@pytest.mark.skipif(
    shutil.which("g++") is None or not (CUDA_INCLUDE / "cuda.h").exists(), reason="needs g++ and the CUDA headers"
)
def test_the_library_changes_what_a_wrapped_call_does_against_a_fake_driver(tmp_path):
    """What cuconform-interpose-selftest checks (test_selftests.py runs the one a real build made), built here."""
    include = ["-std=c++17", "-O1", f"-I{CUDA_INCLUDE}"]
    library, driver, selftest = tmp_path / "libcuconform-interpose.so", tmp_path / "libfake.so", tmp_path / "selftest"
    for command in (
        ["g++", *include, "-fPIC", "-shared", str(INTERPOSE / "interpose.cpp"), "-o", str(library), "-ldl"],
        ["g++", *include, "-fPIC", "-shared", str(INTERPOSE / "selftest" / "fake_driver.cpp"), "-o", str(driver)],
        [
            "g++",
            *include,
            f'-DCUCONFORM_INTERPOSE_LIBRARY="{library}"',
            f'-DCUCONFORM_FAKE_DRIVER="{driver}"',
            str(INTERPOSE / "selftest" / "interpose_test.cpp"),
            "-o",
            str(selftest),
            "-ldl",
        ],
    ):
        subprocess.run(command, check=True, capture_output=True, timeout=300)
    done = subprocess.run([str(selftest)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "all cases passed" in done.stdout
    assert re.search(r"stream-wait-event-dropped\s+ok", done.stdout)


def test_device_mutate_begins_the_campaign_then_resumes_it_call_after_call(tmp_path):
    """scripts/device-mutate (scripts/device-run --mutate S) with a stand-in for `scripts/conformance mutate`."""
    shims = tmp_path / "bin"
    shims.mkdir()
    asked = tmp_path / "asked.txt"
    real_python = shutil.which("python3")
    (shims / "python3").write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = "-" ]; then exec {real_python} "$@"; fi\n'
        f'echo "$*" >> {asked}\n'
        'case "$*" in *--report-only*) exit 1 ;; esac\n'
        "exit 0\n"
    )
    (shims / "python3").chmod(0o755)
    campaign, out = tmp_path / "campaign", tmp_path / "out"
    env = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}", "OUT": str(out)}
    command = [str(REPO / "scripts" / "device-mutate"), "--seconds", "30", "--dir", str(campaign), "--jobs", "2"]
    subprocess.run(command, env=env, check=True, capture_output=True)
    first = asked.read_text().splitlines()
    assert first == [
        f"scripts/conformance mutate --output {campaign} --jobs 2 --deadline 20 --preset gpu --build-dir build/mutation"
    ]
    assert "campaign: not begun" in (out / "summary.txt").read_text()

    campaign.mkdir()
    (campaign / "mutation.jsonl").write_text('{"campaign": 1}\n')
    (campaign / "results.json").write_text('{"mutation": {"complete": false}}')
    subprocess.run(command, env=env, check=True, capture_output=True)
    second = asked.read_text().splitlines()[1:]
    assert second == [
        f"scripts/conformance mutate --output {campaign} --jobs 2 --deadline 20 --resume",
        f"scripts/conformance mutate --output {campaign} --report-only",
    ]
    assert "campaign: cut, call again" in (out / "summary.txt").read_text()
    assert (out / "mutation" / "mutation.jsonl").exists()
