"""The census of a campaign without a GPU (census.py): one run of the areas with host-side mutants under the
library's counting mode, made by a fake harness that leaves what the library would (markers, counts, its operator
table); a mutant whose area never called its operator's entry points is not applicable without a run, the others
run; a census that fails, or an area whose census tests did not all end, leaves its mutants to run as before."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import threading
import time

import pytest
from conftest import H100

from test_mutation_campaign import (
    BASELINE,
    FAILS,
    Operator,
    document,
    fake_engine,
    judged,
    no_equivalents,
    plan_for,
)
from test_mutation_runtime import CUDA_INCLUDE, INTERPOSE, RUNTIME_MUTANT_RUNS, CallingHarness

from cuconform.mutation import census as counting
from cuconform.mutation import views
from cuconform.mutation.batches import Batch
from cuconform.mutation.campaign import Campaign, needs_rebuilds, ready_first
from cuconform.mutation import passes
from cuconform.mutation.progress import PROGRESS
from cuconform.mutation.runs import HarnessRun, subprocess_harness
from cuconform.mutation.runtime_operators import RuntimeOperator
from cuconform.results_file import read, write_results

WAIT = RuntimeOperator("rt-wait", "runtime: streams and events", "a wait for nothing", ("alpha", "beta"), ("cudaX",))
TYPO = RuntimeOperator("rt-typo", "runtime: memory", "a name the library does not know", ("alpha",), ("cudaY",))
GRAPH = RuntimeOperator("rt-beta", "runtime: graphs", "an operator of beta only", ("beta",), ("cudaZ",))
# the library's table (its `operators` file): rt-typo is not in it
TABLE = {"rt-wait": ("cuStreamWaitEvent",), "rt-beta": ("cuGraphAddNode", "cuGraphAddEmptyNode")}
NAMES = ["fail-all", "crash-all", "harmless", "hint", "rejected", "nowhere", "rt-wait", "rt-typo", "rt-beta"]


class CensusHarness(CallingHarness):
    """CallingHarness whose census run is made: each area's census processes called `called[area]` (entry points),
    and the run reports the baseline's tests (less those excluded), with `statuses` (baseline id -> its status in
    the census, 'missing': not reported, 'flake': failed, then passed when run again) where given. `unknown`: a
    library without the census mode. `would`: a library that counts what each operator would change, and in each
    area the calls it counted per operator (a count of "marker": only the first call's marker, the process crashed)."""

    def __init__(self, mutants, calls, called, statuses=None, unknown=False, would=None):
        super().__init__(BASELINE, mutants, calls)
        self.called, self.statuses, self.unknown, self.would = called, statuses or {}, unknown, would
        self.census_calls: list[dict] = []

    def census(self, areas, output, fail_fast, exclude, resume) -> HarnessRun:
        assert not fail_fast  # every test of the area runs to its end and counts its calls
        self.census_calls.append({"areas": tuple(areas), "exclude": tuple(exclude), "resume": resume})
        tests = []
        for binary in areas:
            area = binary.partition("@")[0]
            folder = output.parent / "calls" / area
            assert folder.is_dir() and binary == f"{area}@census"
            if self.unknown:
                (folder / "unknown-operator").touch()
            else:
                (folder / "operators").write_text("".join(f"{op} {' '.join(e)}\n" for op, e in TABLE.items()))
            for pid, entry in enumerate(self.called.get(area, ()), start=100):
                (folder / f"{entry}.{pid}").touch()
                (folder / f"{pid}.calls").write_text(f"{entry} 3\n")
            if self.would is not None:
                (folder / "would-change").touch()
                for op, count in self.would.get(area, {}).items():
                    (folder / f"would.{op}.200").touch()
                    if count != "marker":
                        (folder / "200.would").write_text(f"{op} {count}\n")
            for test in BASELINE["tests"]:
                renamed = f"{binary}/{test['id'].split('/', 1)[1]}"
                status = self.statuses.get(test["id"], test["status"])
                verdict = "flake" if status == "flake" else test["verdict"]  # failed, then passed when run again
                status = "fail" if status == "flake" else status
                if test["area"] == area and renamed not in exclude and status != "missing":
                    tests.append({**test, "id": renamed, "area": binary, "status": status, "verdict": verdict})
        output.mkdir(parents=True, exist_ok=True)
        found = document(*tests)
        write_results(output / "results.json", found)
        log = output.with_name(output.name + ".log")
        log.write_text("census\n")
        return HarnessRun(found, 0, log)


MUTANTS = RUNTIME_MUTANT_RUNS  # alpha's census called cuStreamWaitEvent, beta's cuGraphAddEmptyNode
# what each mutant's own processes call (its evidence, as before the census)
MUTANT_CALLS = {
    "rt-wait": {"alpha": "cuStreamWaitEvent.77", "beta": None},
    "rt-typo": {"alpha": "unknown"},
    "rt-beta": {"beta": "cuGraphAddNode.5"},
}


def campaign(tmp_path, capture_build, harness, operators=NAMES, say=lambda line: None, census=True) -> Campaign:
    (capture_build / "interpose").mkdir(exist_ok=True)
    (capture_build / "interpose" / "libcuconform-interpose.so").write_bytes(b"")
    engine = fake_engine(capture_build, {("fail-all", "alpha/a.cu"): FAILS})
    calls = engine.calls
    engine = dataclasses.replace(engine, operators=[*engine.operators, WAIT, TYPO, GRAPH])
    object.__setattr__(engine, "calls", calls)  # what build_mutant was asked
    plan = dataclasses.replace(plan_for(capture_build, tmp_path / "out", operators), census=census)
    return Campaign(plan, engine, no_equivalents(tmp_path, names=NAMES), harness, say=say)


def mutant_binaries(harness: CensusHarness) -> set[str]:
    return {binary for call in harness.calls for binary in call[1] if "@" in binary}


def test_a_mutant_whose_area_never_called_its_entry_points_is_not_applicable_without_a_run(tmp_path, capture_build):
    harness = CensusHarness(MUTANTS, MUTANT_CALLS, {"alpha": ["cuStreamWaitEvent"], "beta": ["cuGraphAddEmptyNode"]})
    lines = []
    results = campaign(tmp_path, capture_build, harness, say=lines.append).run()
    assert "census: 1 host-side mutant not applicable without a run" in lines
    mutants = judged(results)
    settled = mutants[("rt-wait", "beta")]
    assert settled["status"] == "not applicable" and settled["settled_by"] == "census"
    assert settled["why"].startswith("the census: the area's tests made no call of the entry point the operator wraps")
    assert "beta@rt-wait" not in mutant_binaries(harness)  # neither a focused nor a whole run of it
    # the others ran as before: their own counts are their evidence
    assert mutants[("rt-wait", "alpha")]["status"] == "killed" and "settled_by" not in mutants[("rt-wait", "alpha")]
    assert mutants[("rt-beta", "beta")]["status"] == "survived"  # beta called one of its two entry points
    assert mutants[("rt-typo", "alpha")]["status"] == "error"  # the census's table does not know it: it ran
    assert {"alpha@rt-wait", "beta@rt-beta", "alpha@rt-typo"} <= mutant_binaries(harness)
    # one census, of the areas with host-side mutants, leaving out the baseline's failures as the mutants' runs do
    assert [call["areas"] for call in harness.census_calls] == [("alpha@census", "beta@census")]
    assert harness.census_calls[0]["exclude"] == ("alpha@census/S.Flaky",)
    kept = json.loads((tmp_path / "out" / "census" / "census.json").read_text())
    assert kept["areas"]["beta"] == {"called": {"cuGraphAddEmptyNode": 3}}
    assert kept["operators"]["rt-wait"] == ["cuStreamWaitEvent"]
    time = results["mutation"]["time"]
    assert time["census_settled"] == 1 and time["census_seconds"] >= 0
    assert "1 host-side mutant not applicable without a run" in views.time_line(time)
    assert "1 host-side mutant not applicable without a run" in (tmp_path / "out" / "summary.md").read_text()
    steps = [json.loads(line) for line in (tmp_path / "out" / PROGRESS).read_text().splitlines()[1:]]
    assert [step["areas"] for step in steps if step.get("step") == "census"] == [2]


def test_a_mutant_whose_operator_would_change_none_of_its_areas_calls_is_not_applicable_without_a_run(
    tmp_path, capture_build
):
    """A library that counts what each operator would change: alpha called cuStreamWaitEvent, but no call that
    rt-wait would change (a wait it passes through), so its mutant is not run; beta's rt-beta would change calls (one
    counted at exit, or only the marker of a process that crashed): it runs."""
    for beta_would in (2, "marker"):
        folder = tmp_path / str(beta_would)
        folder.mkdir()
        called = {"alpha": ["cuStreamWaitEvent"], "beta": ["cuGraphAddEmptyNode", "cuStreamWaitEvent"]}
        harness = CensusHarness(MUTANTS, MUTANT_CALLS, called, would={"beta": {"rt-beta": beta_would}})
        results = campaign(folder, capture_build, harness).run()
        mutants = judged(results)
        for area in ("alpha", "beta"):
            settled = mutants[("rt-wait", area)]
            assert settled["status"] == "not applicable" and settled["settled_by"] == "census"
            assert settled["why"].startswith(
                "the census: the area's tests made 3 calls of the entry point the operator wraps, none that it would "
                "change"
            )
            assert f"{area}@rt-wait" not in mutant_binaries(harness)
        assert mutants[("rt-beta", "beta")]["status"] == "survived"  # it would change a call: it ran
        kept = json.loads((folder / "out" / "census" / "census.json").read_text())
        assert kept["areas"]["beta"]["would_change"] == {"rt-beta": 2 if beta_would == 2 else 1}
        assert kept["areas"]["alpha"]["would_change"] == {}
        assert counting.Census.of(kept).not_applicable("rt-wait", "alpha")  # census.json read back says the same


def test_a_resumed_campaign_reuses_its_census(tmp_path, capture_build):
    called = {"alpha": ["cuStreamWaitEvent"], "beta": []}
    first = CensusHarness(MUTANTS, MUTANT_CALLS, called)
    campaign(tmp_path, capture_build, first).run()
    progress = tmp_path / "out" / PROGRESS
    lines = progress.read_text().splitlines()
    progress.write_text("\n".join(line for line in lines if '"operator": "rt-beta"' not in line) + "\n")  # cut
    again = CensusHarness(MUTANTS, MUTANT_CALLS, called)
    results = campaign(tmp_path, capture_build, again).run(resume=True)
    assert again.census_calls == []  # census.json kept: no second census
    mutants = judged(results)
    assert mutants[("rt-beta", "beta")]["settled_by"] == "census"  # beta called no entry point of rt-beta
    assert "beta@rt-beta" not in mutant_binaries(again)
    assert len([line for line in progress.read_text().splitlines() if '"step": "census"' in line]) == 1


def test_a_census_cut_goes_on_where_it_stopped(tmp_path, capture_build):
    plan = campaign(tmp_path, capture_build, None).plan
    harness = CensusHarness(MUTANTS, MUTANT_CALLS, {"alpha": ["cuStreamWaitEvent"]})
    partial = plan.output / "census" / "run.partial"
    partial.mkdir(parents=True)
    (partial / "journal.jsonl").write_text("{}\n")  # a run killed in the middle (runs.partial_run)
    (plan.output / "census" / "calls" / "alpha").mkdir(parents=True)
    (plan.output / "census" / "calls" / "beta").mkdir(parents=True)
    found, seconds = counting.take_census(plan, harness, BASELINE, ("alpha", "beta"), lambda area: [], True, print)
    assert harness.census_calls[0]["resume"] is True and seconds is not None
    assert found.not_applicable("rt-wait", "beta") and not found.not_applicable("rt-wait", "alpha")


def test_an_area_whose_census_tests_did_not_all_end_settles_nothing(tmp_path, capture_build):
    plan = campaign(tmp_path, capture_build, None).plan
    for statuses, why in (
        ({"beta/S.Pass2": "crash"}, "beta/S.Pass2 ended with crash in the census (at baseline: pass)"),
        ({"beta/S.Pass1": "timeout"}, "beta/S.Pass1 ended with timeout"),
        ({"beta/S.Pass1": "fail"}, "beta/S.Pass1 ended with fail in the census (at baseline: pass)"),
        ({"beta/S.Pass1": "skip"}, "beta/S.Pass1 ended with skip"),
        ({"beta/S.Pass1": "missing"}, "1 of its 2 tests did not report in the census (beta/S.Pass1 first)"),
    ):
        harness = CensusHarness(MUTANTS, MUTANT_CALLS, {"alpha": []}, statuses)
        found, _ = counting.take_census(plan, harness, BASELINE, ("alpha", "beta"), lambda area: [], False, print)
        assert found.unsettled["beta"].startswith(why)
        assert found.not_applicable("rt-wait", "beta") is None  # its mutant runs, and measures itself
        assert found.not_applicable("rt-wait", "alpha")  # alpha's tests all ended: settled


def test_a_census_test_that_failed_then_passed_as_at_baseline_made_its_calls(tmp_path, capture_build):
    plan = campaign(tmp_path, capture_build, None).plan
    harness = CensusHarness(MUTANTS, MUTANT_CALLS, {}, {"beta/S.Pass1": "flake"})
    found, _ = counting.take_census(plan, harness, BASELINE, ("alpha", "beta"), lambda area: [], False, print)
    assert not found.unsettled and found.not_applicable("rt-wait", "beta")


def test_a_census_that_fails_leaves_every_mutant_to_run(tmp_path, capture_build):
    plan = campaign(tmp_path, capture_build, None).plan
    old_library = CensusHarness(MUTANTS, MUTANT_CALLS, {}, unknown=True)
    found, _ = counting.take_census(plan, old_library, BASELINE, ("alpha", "beta"), lambda area: [], False, print)
    assert "has no census mode" in found.failed and found.not_applicable("rt-wait", "beta") is None
    (tmp_path / "again").mkdir()
    results = campaign(tmp_path / "again", capture_build, CensusHarness(MUTANTS, MUTANT_CALLS, {}, unknown=True)).run()
    assert judged(results)[("rt-wait", "beta")]["why"].startswith("measured")  # the old path: it ran
    (capture_build / "interpose" / "libcuconform-interpose.so").unlink()
    unbuilt = CensusHarness(MUTANTS, MUTANT_CALLS, {})
    found, _ = counting.take_census(plan, unbuilt, BASELINE, ("alpha",), lambda area: [], False, print)
    assert "is not built" in found.failed and unbuilt.census_calls == []


def test_a_campaign_without_host_side_operators_takes_no_census(tmp_path, capture_build):
    harness = CensusHarness(MUTANTS, MUTANT_CALLS, {})
    results = campaign(tmp_path, capture_build, harness, operators=["fail-all"]).run()
    assert harness.census_calls == [] and not (tmp_path / "out" / "census").exists()
    assert "census_seconds" not in results["mutation"]["time"]


@pytest.mark.skipif(
    shutil.which("g++") is None or not (CUDA_INCLUDE / "cuda.h").exists(), reason="needs g++ and the CUDA headers"
)
def test_the_census_runs_an_area_under_the_real_library_through_the_real_harness(fake_build, tmp_path):
    """The census's scripts, the library's census mode and `scripts/conformance run` together: the fake binary (no
    CUDA at all) under the library reports its tests as at baseline, leaves the library's operator table, calls no
    entry point, and so settles every host-side operator in its area; the baseline's failure is left out."""
    fake_build.area("alpha", "Fake.Pass1", "Fake.Fail1", "Fake.Pass2")
    fake_build.devices(H100)
    library = fake_build.dir / "interpose" / "libcuconform-interpose.so"
    library.parent.mkdir()
    command = ["g++", "-std=c++17", "-O1", f"-I{CUDA_INCLUDE}", "-fPIC", "-shared", str(INTERPOSE / "interpose.cpp")]
    subprocess.run([*command, "-o", str(library), "-ldl"], check=True, capture_output=True, timeout=300)
    plan = plan_for(
        fake_build.dir, tmp_path / "out", ["rt-wait"], areas=("alpha",), expectations=fake_build.expectations
    )
    harness = subprocess_harness(plan)
    baseline = harness(fake_build.dir, ["alpha"], tmp_path / "out" / "baseline", ()).document
    found, seconds = counting.take_census(
        plan, harness, baseline, ("alpha",), lambda area: ["alpha/Fake.Fail1"], False, lambda line: None
    )
    assert found.failed is None and not found.unsettled and seconds > 0
    assert found.called == {"alpha": {}} and found.would == {"alpha": {}}  # it counts what operators would change
    assert found.wraps["malloc-misaligned"] >= {"cuMemAlloc", "cuMemFree"}
    assert found.not_applicable("stream-wait-event-dropped", "alpha").startswith("the census")
    tests = passes.tests_by_binary(read(plan.output / "census" / "run").document)["alpha@census"]
    assert sorted(tests) == ["alpha/Fake.Pass1", "alpha/Fake.Pass2"]  # Fail1 left out, as the mutants' runs do
    assert all(test["status"] == "pass" for test in tests.values())


def test_without_census_every_host_side_mutant_runs(tmp_path, capture_build):
    """--no-census: a plan without the census takes none, and the mutants whose area never calls their entry points
    run (and are measured not applicable by their own counts, as before the census)."""
    harness = CensusHarness(MUTANTS, MUTANT_CALLS, {"alpha": ["cuStreamWaitEvent"], "beta": ["cuGraphAddEmptyNode"]})
    results = campaign(tmp_path, capture_build, harness, census=False).run()
    assert harness.census_calls == [] and not (tmp_path / "out" / "census").exists()
    assert "beta@rt-wait" in mutant_binaries(harness)  # it ran, as before the census
    assert "settled_by" not in judged(results)[("rt-wait", "beta")]


class BaselineWaitsForARebuild(CensusHarness):
    """CensusHarness whose baseline run waits (up to 10 s) for the engine's first rebuild: it ends at once when the
    first batch's rebuilds began before the baseline; the order of the mutant runs is kept in `mutant_runs`."""

    engine = None
    rebuilt_during_baseline = False

    def __call__(self, build_dir, areas, output, rules=(), fail_fast=False, exclude=(), resume=False) -> HarnessRun:
        if output.name == "baseline":
            deadline = time.monotonic() + 10
            while not self.engine.calls and time.monotonic() < deadline:
                time.sleep(0.01)
            self.rebuilt_during_baseline = bool(self.engine.calls)
        return super().__call__(build_dir, areas, output, rules, fail_fast, exclude, resume)


def test_a_call_begins_with_a_batch_without_rebuilds_while_the_first_rebuilds_ran_during_the_baseline(
    tmp_path, capture_build
):
    """One operator a batch: the first batch that needs rebuilds (fail-all's) is rebuilt while the baseline runs, and
    the GPU's first batch is a host-side one (its mutants are scripts); a resumed call begins so too."""
    harness = BaselineWaitsForARebuild(MUTANTS, MUTANT_CALLS, {"alpha": ["cuStreamWaitEvent"], "beta": []})
    made = campaign(tmp_path, capture_build, harness)
    made.plan = dataclasses.replace(made.plan, batch_mutants=1)
    harness.engine = made.engine
    made.run()
    assert harness.rebuilt_during_baseline
    runs = [call[1] for call in harness.calls if any("@" in binary for binary in call[1])]
    assert runs[0] == ("alpha@rt-wait",) and runs[1][0].startswith("alpha@fail-all")
    progress = tmp_path / "out" / PROGRESS
    kept = [line for line in progress.read_text().splitlines() if '"operator": "fail-all"' not in line]
    kept = [line for line in kept if '"operator": "rt-typo"' not in line]
    progress.write_text("\n".join(kept) + "\n")  # cut: fail-all and rt-typo left
    again = BaselineWaitsForARebuild(MUTANTS, MUTANT_CALLS, {"alpha": ["cuStreamWaitEvent"], "beta": []})
    resumed = campaign(tmp_path, capture_build, again)
    resumed.plan = dataclasses.replace(resumed.plan, batch_mutants=1)
    again.engine = resumed.engine
    resumed.run(resume=True)
    runs = [call[1] for call in again.calls if any("@" in binary for binary in call[1])]
    assert runs[0] == ("alpha@rt-typo",) and runs[1][0].startswith("alpha@fail-all")


def test_ready_first_moves_the_first_batch_without_rebuilds_ahead():
    ptx, host = Operator("fail-all", "comparison"), WAIT

    def batch(op):
        return Batch(f"batch-{op.name}", [op], {}, {}, {})

    first, second, third = batch(ptx), batch(Operator("hint", "cache hint")), batch(host)
    assert [b.label for b in ready_first([first, second, third])] == [third.label, first.label, second.label]
    assert ready_first([third, first]) == [third, first] and ready_first([first, second]) == [first, second]
    assert needs_rebuilds(first) and not needs_rebuilds(third)


def test_a_resumed_call_runs_its_batch_without_rebuilds_while_the_next_batch_rebuilds(tmp_path, capture_build):
    """A resumed call reads its baseline and census back, so the rebuilds of its first batch that needs them are still
    running when the batch without rebuilds (ready_first) is due: that batch is not queued behind them (the fifth
    campaign's resumed call waited 44.8 s so). Here fail-all's rebuild waits (up to 10 s) for rt-typo's run."""
    first = CensusHarness(MUTANTS, MUTANT_CALLS, {"alpha": ["cuStreamWaitEvent"], "beta": []})
    made = campaign(tmp_path, capture_build, first)
    made.plan = dataclasses.replace(made.plan, batch_mutants=1)
    made.run()
    progress = tmp_path / "out" / PROGRESS
    kept = [line for line in progress.read_text().splitlines() if '"operator": "fail-all"' not in line]
    kept = [line for line in kept if '"operator": "rt-typo"' not in line]
    progress.write_text("\n".join(kept) + "\n")  # cut: fail-all and rt-typo left

    host_batch_ran = threading.Event()

    class Recording(CensusHarness):
        def __call__(self, build_dir, areas, output, rules=(), fail_fast=False, exclude=(), resume=False):
            if "alpha@rt-typo" in areas:
                host_batch_ran.set()
            return super().__call__(build_dir, areas, output, rules, fail_fast, exclude, resume)

    again = Recording(MUTANTS, MUTANT_CALLS, {"alpha": ["cuStreamWaitEvent"], "beta": []})
    resumed = campaign(tmp_path, capture_build, again)
    resumed.plan = dataclasses.replace(resumed.plan, batch_mutants=1)
    build_mutant = resumed.engine.build_mutant
    released_by_the_run = []

    def slow_build(manifest, op, workdir):
        released_by_the_run.append(host_batch_ran.wait(timeout=10))
        return build_mutant(manifest, op, workdir)

    resumed.engine = dataclasses.replace(resumed.engine, build_mutant=slow_build)
    resumed.run(resume=True)
    assert released_by_the_run and all(released_by_the_run)
    runs = [call[1] for call in again.calls if any("@" in binary for binary in call[1])]
    assert runs[0] == ("alpha@rt-typo",) and runs[1][0].startswith("alpha@fail-all")
