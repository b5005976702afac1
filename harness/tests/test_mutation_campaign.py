"""scripts/conformance mutate without a GPU: the campaign driven by a fake mutation engine (objects, rebuilds and
patches of fake binaries) and by fake or real harness runs of fake builds (conftest.py)."""

from __future__ import annotations

import json
import signal
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import H100

from cuconform.cli import conformance
from cuconform.cli.conformance import mutate
from cuconform.catalog import suite_areas
from cuconform.mutation import capture_build as capturing
from cuconform.mutation import equivalent, outcome, overlay
from cuconform.mutation.campaign import Campaign
from cuconform.mutation.plan import Engine, Plan
from cuconform.mutation.progress import PROGRESS, Progress
from cuconform.mutation.runs import HarnessRun, subprocess_harness
from cuconform.mutation.equivalent import EquivalentError
from cuconform.results_file import read, write_results

# --- a fake engine ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Operator:
    name: str
    family: str
    description: str = "a fake operator"
    rule: object = None


@dataclass(frozen=True)
class Mutant:
    object: str
    sites: int
    original: bytes
    mutant: bytes


class Rejected(Exception):
    """ptxas rejected the mutated PTX (the engine's MutantError)."""


# Byte changes of the fake suite binary (harness/tests/fake/cuconform-fake), as a mutant's fatbin would be patched:
PASS_RETURNS = b'out("pass output of %s\\n" % name)\n        return "OK"'
FAILS = (PASS_RETURNS, PASS_RETURNS.replace(b'"OK"', b'"FAILED"'))  # every Pass* test fails
CRASHES = (PASS_RETURNS, PASS_RETURNS.replace(b'return "OK"', b"os.abort()"))  # every Pass* test aborts
HARMLESS = (b"pass output of", b"PASS output of")  # what a Pass* test prints, nothing it reports


def fake_engine(
    build_dir: Path, behaviour: dict[tuple[str, str], object], areas=("alpha", "beta"), source: str | None = None
) -> Engine:
    """Areas with two objects each, `<area>/a.cu.o` and `<area>/b.cu.o` (made from `source`, or from
    /repo/suites/<area>/<a or b>.cu); `behaviour[(operator, object)]` is a (original, mutant) pair, Rejected (ptxas
    rejects it), or missing (the operator changes nothing there)."""
    calls = []

    def objects_of(build: Path) -> dict[Path, list[dict]]:
        assert build == build_dir
        return {
            build / "bin" / f"cuconform-{area}": [
                {
                    "object": str(build / f"CMakeFiles/cuconform-{area}.dir/{area}/{name}.cu.o"),
                    "rdc": False,
                    "source": source or f"/repo/suites/{area}/{name}.cu",
                }
                for name in ("a", "b")
            ]
            for area in areas
        }

    def build_mutant(manifest: dict, op: Operator, workdir: Path):
        assert workdir.is_dir()
        short = manifest["object"].split(".dir/", 1)[1].removesuffix(".o")
        calls.append((op.name, short))
        change = behaviour.get((op.name, short))
        if change is Rejected:
            raise Rejected(f"ptxas fatal: {short}.ptx: unknown modifier '.rz' on line 12")
        if change is None:
            return None
        return Mutant(manifest["object"], 2, *change)

    def patch_executable(source: Path, target: Path, replacements: list[tuple[bytes, bytes]]) -> None:
        data = source.read_bytes()
        for original, mutant in replacements:
            assert original in data, original
            data = data.replace(original, mutant)
        target.write_bytes(data)

    engine = Engine(
        [
            Operator("fail-all", "comparison"),
            Operator("crash-all", "control"),
            Operator("harmless", "cache hint"),
            Operator("hint", "cache hint"),
            Operator("rejected", "rounding"),
            Operator("nowhere", "scope"),
        ],
        build_mutant,
        Rejected,
        patch_executable,
        objects_of,
    )
    object.__setattr__(engine, "calls", calls)  # what build_mutant was asked, for the tests
    return engine


def plan_for(build_dir: Path, output: Path, operators, areas=("alpha", "beta"), **extra) -> Plan:
    return Plan(build_dir=build_dir, output=output, areas=tuple(areas), operators=tuple(operators), timeout=5, **extra)


def no_equivalents(
    tmp_path: Path, text: str = "", names=("fail-all", "crash-all", "harmless", "hint", "rejected", "nowhere")
):
    path = tmp_path / "equivalent.toml"
    path.write_text(text)
    return equivalent.load(path, names)


# --- fake harness runs -------------------------------------------------------------------------------------------


def result(
    test_id: str,
    verdict: str,
    status: str | None = None,
    expected: str | None = None,
    duration: float = 0.5,
    source: str | None = None,
) -> dict:
    status = (
        status if status is not None else ({"xfail": "fail", "flake": "fail", "missing": None}.get(verdict, verdict))
    )
    return {
        "id": test_id,
        "area": test_id.split("/")[0],
        "rule": _rule_of(test_id),
        "verdict": verdict,
        "status": status,
        "expected": {"status": expected} if expected else None,
        "duration": duration,
        "source": f"{source}:12" if source else None,
    }


def _rule_of(test_id: str) -> str:
    """'beta/P/S.InB/1' -> 'beta/S.InB': the area and the part of the GoogleTest name with the suite's dot."""
    area, *parts = test_id.split("/")
    return f"{area}/{next(part for part in parts if '.' in part)}"


def document(*tests: dict, complete: bool = True) -> dict:
    return {"format": 1, "environment": {"run": "fake"}, "complete": complete, "tests": list(tests)}


BASELINE = document(
    result("alpha/S.Pass1", "pass"),
    result("alpha/S.Pass2", "pass"),
    result("alpha/S.Known", "xfail", expected="fail"),
    result("alpha/S.Skip", "skip"),
    result("alpha/S.Flaky", "flake"),
    result("alpha/S.Wobbly", "pass", expected="flake"),
    result("beta/S.Pass1", "pass"),
    result("beta/S.Pass2", "pass"),
)


class FakeHarness:
    """Returns a canned results document per run: the baseline's, then for a batch's mutant binaries
    (<area>@<operator>) the tests of each area in the document given per operator (or per operator and run folder,
    'run-focus' or 'run'), renamed to the mutant binary's, less those --exclude-rule names (`excluded`: each run's
    patterns). An operator given None cannot run: a run that includes it writes no document."""

    def __init__(self, baseline: dict, mutants: dict[str, dict | None]):
        self.baseline, self.mutants, self.calls, self.excluded = baseline, mutants, [], []

    def __call__(self, build_dir: Path, areas, output: Path, rules=(), fail_fast=False, exclude=()) -> HarnessRun:
        assert fail_fast == (output.name != "baseline")  # the mutants' runs stop each binary at its first failure
        assert not exclude or output.name != "baseline"
        self.calls.append((build_dir.name, tuple(areas), *([tuple(rules)] if rules else [])))
        self.excluded.append((output.name, tuple(exclude)))
        output.parent.mkdir(parents=True, exist_ok=True)
        log = output.with_name(output.name + ".log")
        log.write_text("cuconform: no suite binaries in bin/\n")
        found = self.baseline if output.name == "baseline" else self._mutants(areas, output.name, rules, exclude)
        if found is not None:
            write_results(output / "results.json", found)
        return HarnessRun(found, 1 if found else 2, log)

    def _mutants(self, binaries, run: str, rules, exclude=()) -> dict | None:
        tests = []
        for binary in binaries:
            area, _, operator = binary.partition("@")
            found = self.mutants[operator]
            if isinstance(found, dict) and run in found:  # a focused run and a whole one: one document each
                found = found[run]
            if found is None:
                return None
            for test in found["tests"]:
                renamed = f"{binary}/{test['id'].split('/', 1)[1]}"
                chosen = (not rules or renamed in rules) and renamed not in exclude
                if test["id"].split("/")[0] == area and chosen:
                    tests.append({**test, "id": renamed, "area": binary})
        return document(*tests)


def judged(document_: dict) -> dict[tuple[str, str], dict]:
    return {(m["operator"], m["area"]): m for m in document_["mutation"]["mutants"]}


def test_each_mutant_is_judged_by_the_tests_that_passed_at_baseline(tmp_path, capture_build):
    behaviour = {
        ("fail-all", "alpha/a.cu"): FAILS,
        ("fail-all", "beta/a.cu"): FAILS,
        ("crash-all", "alpha/b.cu"): CRASHES,
        ("harmless", "alpha/a.cu"): HARMLESS,
        ("harmless", "beta/b.cu"): HARMLESS,
        ("hint", "beta/a.cu"): HARMLESS,
        ("rejected", "alpha/a.cu"): Rejected,
        ("rejected", "beta/a.cu"): Rejected,
        ("rejected", "beta/b.cu"): HARMLESS,
    }
    engine = fake_engine(capture_build, behaviour)
    harness = FakeHarness(
        BASELINE,
        {
            # alpha: Pass1 passes, Pass2 fails -> killed by Pass2; beta: every judge passes, Known crashes -> survived
            "fail-all": document(
                result("alpha/S.Pass1", "pass"),
                result("alpha/S.Pass2", "fail"),
                result("alpha/S.Skip", "skip"),
                result("beta/S.Pass1", "pass"),
                result("beta/S.Pass2", "pass"),
                result("alpha/S.Known", "crash"),
            ),
            # alpha: a judge that never reported kills (missing); nothing of beta changed
            "crash-all": document(result("alpha/S.Pass2", "pass")),
            # only tests that cannot judge fail (the flaky-by-entry Wobbly, the baseline flake): survived; beta: a test
            # that failed once and passed when run again still killed it
            "harmless": document(
                result("alpha/S.Pass1", "pass"),
                result("alpha/S.Pass2", "pass"),
                result("alpha/S.Skip", "skip"),
                result("alpha/S.Wobbly", "flake", "fail", expected="flake"),
                result("alpha/S.Flaky", "fail"),
                result("beta/S.Pass1", "flake", "fail"),
                result("beta/S.Pass2", "pass"),
            ),
            "rejected": None,  # the harness could not run beta's mutant at all
        },
    )
    equivalents = no_equivalents(tmp_path, '[[equivalent]]\noperator = "hint"\nwhy = "a cache hint changes no value"\n')
    campaign = Campaign(
        plan_for(capture_build, tmp_path / "out", [op.name for op in engine.operators]),
        engine,
        equivalents,
        harness,
        say=lambda line: None,
    )
    results = campaign.run()

    mutants = judged(results)
    assert mutants[("fail-all", "alpha")]["status"] == "killed"
    assert mutants[("fail-all", "alpha")]["killed_by"] == "alpha/S.Pass2"
    assert mutants[("fail-all", "alpha")]["killing_status"] == "fail" and mutants[("fail-all", "alpha")]["killers"] == 1
    assert mutants[("fail-all", "alpha")]["judges"] == 3  # Pass1, Pass2, Skip: not Known, Flaky, Wobbly
    assert mutants[("fail-all", "alpha")]["objects"] == ["alpha/a.cu.o"]
    assert mutants[("fail-all", "alpha")]["sites"] == 2
    assert mutants[("fail-all", "beta")]["status"] == "survived" and mutants[("fail-all", "beta")]["killed_by"] is None
    assert mutants[("crash-all", "alpha")]["status"] == "killed"
    assert (mutants[("crash-all", "alpha")]["killed_by"], mutants[("crash-all", "alpha")]["killing_status"]) == (
        "alpha/S.Pass1",
        "missing",
    )
    assert mutants[("crash-all", "beta")]["status"] == "not applicable"
    assert mutants[("harmless", "alpha")]["status"] == "survived"
    assert (mutants[("harmless", "beta")]["status"], mutants[("harmless", "beta")]["killing_status"]) == (
        "killed",
        "fail, then pass",
    )
    assert mutants[("hint", "beta")]["status"] == "equivalent"
    assert mutants[("hint", "beta")]["why"] == "a cache hint changes no value"
    assert mutants[("hint", "alpha")]["status"] == "not applicable"
    assert mutants[("rejected", "alpha")]["status"] == "invalid"
    assert "unknown modifier '.rz'" in mutants[("rejected", "alpha")]["why"]
    assert mutants[("rejected", "beta")]["status"] == "error"  # one object rejected, the other ran: and the run broke
    assert mutants[("rejected", "beta")]["invalid_objects"][0]["object"] == "beta/a.cu.o"
    assert "exit code 2" in mutants[("rejected", "beta")]["why"]
    assert "no suite binaries" in mutants[("rejected", "beta")]["why"]
    assert {m["status"] for (op, _), m in mutants.items() if op == "nowhere"} == {"not applicable"}

    # only the areas whose binaries changed run, all operators' mutants in one harness run (one batch); equivalents
    # never run. That run could not be made (rejected's mutant breaks it): each mutant then runs alone
    batch = ("alpha@fail-all", "beta@fail-all", "alpha@crash-all", "alpha@harmless", "beta@harmless", "beta@rejected")
    assert harness.calls == [
        ("mutation", ("alpha", "beta")),
        ("batch-fail-all", batch),
        *(("batch-fail-all", (binary,)) for binary in batch),
    ]
    # every object of the chosen areas is built once per operator
    assert len(engine.calls) == 4 * len(engine.operators)

    section = results["mutation"]
    assert section["areas"]["alpha"] == {
        "killed": 2,
        "survived": 1,
        "not applicable": 2,
        "invalid": 1,
        "equivalent": 0,
        "error": 0,
        "applicable": 4,
        "score": 0.6667,
        "judges": 3,
        "answered": 0,
        "unanswered": 1,
        "done": False,
    }
    assert section["areas"]["beta"]["score"] == 0.5 and section["areas"]["beta"]["equivalent"] == 1
    assert section["total"]["score"] == 0.6 and section["complete"] is True
    assert [record["operator"] for record in section["operators"]] == [op.name for op in engine.operators]
    assert results["tests"] == BASELINE["tests"]  # the rest of the document is the baseline run's
    assert results["environment"]["run"] == "out (mutation campaign)"


def test_the_score_is_killed_over_applicable_less_equivalent_invalid_and_error():
    counted = outcome.counts(
        ["killed"] * 7 + ["survived"] * 2 + ["not applicable"] * 30 + ["invalid"] * 3 + ["equivalent"] * 4 + ["error"]
    )
    assert counted["applicable"] == 17
    assert counted["score"] == round(7 / (17 - 4 - 3 - 1), 4) == 0.7778
    assert outcome.counts(["not applicable", "equivalent", "invalid"])["score"] is None
    assert outcome.score_text(None) == "-" and outcome.score_text(0.96391) == "96.4%"
    assert outcome.counts([])["applicable"] == 0


def test_a_cut_campaign_resumes_with_the_operators_it_had_not_finished(tmp_path, capture_build):
    behaviour = {(name, "alpha/a.cu"): FAILS for name in ("fail-all", "crash-all", "harmless")}
    engine = fake_engine(capture_build, behaviour, areas=("alpha",))
    killed = document(result("alpha/S.Pass1", "fail"))
    plan = plan_for(capture_build, tmp_path / "out", ["fail-all", "crash-all", "harmless"], areas=("alpha",))
    harness = FakeHarness(BASELINE, {"fail-all": killed, "crash-all": killed, "harmless": killed})
    equivalents = no_equivalents(tmp_path)
    Campaign(plan, engine, equivalents, harness, say=lambda line: None).run()

    progress = tmp_path / "out" / PROGRESS
    lines = progress.read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["operators"] == ["fail-all", "crash-all", "harmless"]
    progress.write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])  # cut while writing crash-all's line

    again = FakeHarness({"tests": "a baseline is not run again"}, {"crash-all": killed, "harmless": killed})
    results = Campaign(plan, engine, equivalents, again, say=lambda line: None).run(resume=True)
    assert again.calls == [("batch-crash-all", ("alpha@crash-all", "alpha@harmless"))]
    assert [m["operator"] for m in results["mutation"]["mutants"]] == ["fail-all", "crash-all", "harmless"]
    assert results["mutation"]["areas"]["alpha"]["killed"] == 3
    assert len(Progress.read(progress).operators) == 3

    other = plan_for(capture_build, tmp_path / "out", ["fail-all"], areas=("alpha",))
    with pytest.raises(Exception, match="recorded for another campaign"):
        Campaign(other, engine, equivalents, again, say=lambda line: None).run(resume=True)
    with pytest.raises(Exception, match="holds a campaign already: --resume"):
        Campaign(plan, engine, equivalents, again, say=lambda line: None).run()


@pytest.mark.parametrize(
    "text, line, message",
    [
        (
            '[[equivalent]]\noperator = "hint"\nwhy = "ok"\n\n[[equivalent]]\noperator = "no-such"\nwhy = "x"\n',
            5,
            "'operator' must name an operator of operators.py, not 'no-such'",
        ),
        ('[[equivalent]]\noperator = "hint"\n', 1, "every entry needs a non-empty 'why'"),
        ('# c\n[[equivalent]]\noperator = "hint"\nwhy = "x"\ncolour = "red"\n', 2, "unknown key 'colour'"),
        (
            '[[equivalent]]\noperator = "hint"\nwhy = "x"\n[[equivalent]]\noperator = "hint"\nwhy = "y"\n',
            4,
            "listed already, at line 1",
        ),
        ('[[equivalent]]\noperator = "hint"\narea = "nosuch"\nwhy = "x"\n', 1, "'area' must name an area"),
        ('[[equivalent]]\noperator = "hint\n', 2, "invalid TOML"),
        ("[equivalents]\n", 1, "unknown top-level key 'equivalents'"),
    ],
)
def test_a_bad_equivalent_file_is_one_line_with_its_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "equivalent.toml"
    path.write_text(text)
    with pytest.raises(EquivalentError) as error:
        equivalent.load(path, ["hint", "harmless"], ["alpha"])
    assert str(error.value).startswith(f"{path}:{line}: ") and message in str(error.value)
    assert "\n" not in str(error.value)


def test_the_command_stops_at_a_bad_equivalent_file_before_anything_runs(tmp_path, capture_build, monkeypatch, capsys):
    monkeypatch.setattr(mutate, "real_engine", lambda: fake_engine(capture_build, {}))
    bad = tmp_path / "equivalent.toml"
    bad.write_text('[[equivalent]]\noperator = "harmless"\nwhy = ""\n')
    code = conformance.main(
        [
            "mutate",
            "--no-build",
            "--build-dir",
            str(capture_build),
            "--equivalent",
            str(bad),
            "--output",
            str(tmp_path / "out"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and err == f"{bad}:1: every entry needs a non-empty 'why': what makes the change unobservable\n"
    assert not (tmp_path / "out").exists()


def test_an_area_specific_entry_wins_over_the_operator_alone(tmp_path):
    entries = no_equivalents(
        tmp_path,
        '[[equivalent]]\noperator = "hint"\nwhy = "everywhere"\n\n'
        '[[equivalent]]\noperator = "hint"\narea = "alpha"\nwhy = "in alpha"\n',
    )
    assert entries.why("hint", "alpha") == "in alpha" and entries.why("hint", "beta") == "everywhere"
    assert entries.why("harmless", "alpha") is None


def test_the_shipped_equivalent_file_is_well_formed():
    text = equivalent.DEFAULT.read_text()
    names = set()
    for line in text.splitlines():
        if line.startswith("operator = "):
            names.add(line.split("=", 1)[1].strip().strip('"'))
    equivalent.load(equivalent.DEFAULT, names, suite_areas())


def test_the_overlay_holds_patched_binaries_and_links_to_what_the_harness_reads(tmp_path, capture_build):
    (capture_build / "bin" / "cuconform-alpha.tests").write_text("Fake.Pass1\n")
    folder = tmp_path / "mutants" / "op"
    bin_dir = overlay.make_overlay(capture_build, folder)
    (bin_dir / "cuconform-alpha").write_bytes(b"patched")

    assert sorted(path.name for path in folder.iterdir()) == ["bin", "cuconform-build.json", "lib"]
    assert (folder / "cuconform-build.json").resolve() == capture_build / "cuconform-build.json"
    assert (folder / "lib").is_symlink()
    assert sorted(path.name for path in bin_dir.iterdir()) == [
        "cuconform-alpha",
        "cuconform-alpha.tests",
        "cuconform-deviceinfo",
    ]
    assert (bin_dir / "cuconform-deviceinfo").resolve() == capture_build / "bin" / "cuconform-deviceinfo"
    assert not (bin_dir / "cuconform-alpha").is_symlink()  # the harness resolves a binary to find its build folder
    assert (capture_build / "bin" / "cuconform-alpha").read_bytes() != b"patched"

    overlay.make_overlay(capture_build, folder)  # made again (a resumed operator): emptied first
    assert not (folder / "bin" / "cuconform-alpha").exists()


def test_a_campaign_through_the_real_harness_on_fake_binaries(fake_build, tmp_path, monkeypatch, capsys):
    """The whole command: options, equivalent.toml, baseline and mutant runs of scripts/conformance run over an
    overlay, the reports, the console and `scripts/conformance report` on the campaign's folder."""
    for area in ("alpha", "beta"):
        fake_build.area(area, "Fake.Pass1", "Fake.Pass2", "Fake.FailKnown", "Fake.Skip1", "Fake.Slow1")
    fake_build.devices(H100)
    fake_build.expect(
        "sm_90", '[[expect]]\ntests = ["*/Fake.FailKnown"]\nstatus = "fail"\nreason = "known"\nevidence = "fake"\n'
    )
    behaviour = {
        ("fail-all", "alpha/a.cu"): FAILS,
        ("crash-all", "beta/b.cu"): CRASHES,
        ("harmless", "alpha/a.cu"): HARMLESS,
        ("hint", "beta/a.cu"): HARMLESS,
    }
    engine = fake_engine(fake_build.dir.resolve(), behaviour, source="/fake/fake.cu")  # the fake's tests' file
    engine = Engine(
        engine.operators[:4], engine.build_mutant, engine.mutant_error, engine.patch_executable, engine.objects_of
    )
    monkeypatch.setattr(mutate, "real_engine", lambda: engine)
    monkeypatch.setattr(signal, "signal", lambda *args: None)
    equivalents = tmp_path / "equivalent.toml"
    equivalents.write_text('[[equivalent]]\noperator = "hint"\nwhy = "a cache hint <changes> nothing"\n')
    no_answers = tmp_path / "suites"  # the fake areas' folders: no survivors.toml
    no_answers.mkdir()
    out = tmp_path / "campaign"
    code = conformance.main(
        [
            "mutate",
            "--no-build",
            "--build-dir",
            str(fake_build.dir),
            "--expectations",
            str(fake_build.expectations),
            "--equivalent",
            str(equivalents),
            "--survivors",
            str(no_answers),
            "--output",
            str(out),
            "--timeout",
            "30",
        ]
    )
    console = capsys.readouterr().out
    assert code == 1, console  # harmless survived

    results = read(out).document
    mutants = judged(results)
    assert {key: m["status"] for key, m in mutants.items()} == {
        ("fail-all", "alpha"): "killed",
        ("fail-all", "beta"): "not applicable",
        ("crash-all", "alpha"): "not applicable",
        ("crash-all", "beta"): "killed",
        ("harmless", "alpha"): "survived",
        ("harmless", "beta"): "not applicable",
        ("hint", "alpha"): "not applicable",
        ("hint", "beta"): "equivalent",
    }
    assert mutants[("fail-all", "alpha")]["killed_by"] == "alpha/Fake.Pass1"
    assert mutants[("crash-all", "beta")]["killing_status"] == "crash"
    assert mutants[("harmless", "alpha")]["seconds"] > 0  # the test time of its binary in the mutant runs
    assert results["mutation"]["areas"]["alpha"]["score"] == 0.5
    assert results["mutation"]["areas"]["beta"]["score"] == 1.0
    # the tests of the mutated sources run first: a kill there decides, a survivor runs its whole area again
    assert (mutants[("fail-all", "alpha")]["run"], mutants[("harmless", "alpha")]["run"]) == ("focused", "whole area")
    # every mutant of the batch in one focused run, then the survivor's whole area: the harness's own tests ids
    batch = out / "mutants" / "batch-fail-all"
    focused = {t["id"] for t in read(batch / "run-focus").tests}
    assert {"alpha@fail-all/Fake.Pass1", "beta@crash-all/Fake.Pass1", "alpha@harmless/Fake.Pass1"} <= focused
    assert {t["id"].split("/")[0] for t in read(batch / "run").tests} == {"alpha@harmless"}
    assert not (batch / "bin").exists()  # patched binaries are removed after their run
    assert "time:   focus run: " in console and "time:   whole run: " in console and "time: batch 1/1 " in console
    assert {t["id"] for t in read(out / "baseline").tests} == {t["id"] for t in results["tests"]}

    lines = console.splitlines()
    assert any(line.startswith("fail-all") and "1 killed, 1 not applicable" in line for line in lines), console
    assert any(line.startswith("harmless") and "(survived in alpha)" in line for line in lines), console
    assert "mutation score 66.7%: 2 of 3 scored mutants killed" in console
    assert "  harmless in alpha: 2 sites in alpha/a.cu.o" in console

    summary = (out / "summary.md").read_text()
    assert "#### Mutation: mutation score 66.7%" in summary
    assert summary.index("Survived (1)") < summary.index("| area | killed |")
    assert "| alpha | 1 | 1 | 2 | 0 | 0 | 0 | 50.0% |" in summary
    assert "- hint in beta: a cache hint &lt;changes&gt; nothing" in summary
    page = (out / "report.html").read_text()
    assert '<section id="mutation" class="attention">' in page
    assert "a cache hint &lt;changes&gt; nothing" in page and "<changes>" not in page
    assert page.index("m-survived") < page.index("m-killed")

    # `scripts/conformance report` remakes both from results.json; a run without a campaign shows no section
    (out / "report.html").unlink()
    assert conformance.main(["report", str(out)]) == 0 and 'id="mutation"' in (out / "report.html").read_text()
    baseline_page = (out / "baseline" / "report.html").read_text()
    assert 'id="mutation"' not in baseline_page and "Mutation:" not in (out / "baseline" / "summary.md").read_text()

    # a resumed campaign that has every operator runs nothing again and writes the same score
    capsys.readouterr()
    again = [
        "mutate",
        "--output",
        str(out),
        "--resume",
        "--equivalent",
        str(equivalents),
        "--survivors",
        str(no_answers),
    ]
    assert conformance.main(again) == 1
    assert read(out).document["mutation"]["total"] == results["mutation"]["total"]
    assert conformance.main(["mutate", "--output", str(out), "--resume", "--area", "alpha"]) == 2
    assert "--resume goes on with the campaign as it was begun: leave out --area" in capsys.readouterr().err


def test_the_shipped_equivalent_file_names_operators_of_the_engine():
    operators = pytest.importorskip("cuconform.mutation.operators", reason="the mutation engine is not here")
    equivalent.load(equivalent.DEFAULT, [op.name for op in operators.OPERATORS], suite_areas())


def test_a_baseline_where_nothing_passes_stops_the_campaign(tmp_path, capture_build):
    engine = fake_engine(capture_build, {("fail-all", "alpha/a.cu"): FAILS})
    harness = FakeHarness(
        document(result("alpha/S.Pass1", "skip"), result("beta/S.Pass1", "xfail", expected="fail")), {}
    )
    campaign = Campaign(
        plan_for(capture_build, tmp_path / "out", ["fail-all"]),
        engine,
        no_equivalents(tmp_path),
        harness,
        say=lambda line: None,
    )
    with pytest.raises(Exception, match=r"no test passed in the baseline run .*2 tests.*is there a GPU"):
        campaign.run()
    assert harness.calls == [("mutation", ("alpha", "beta"))]


def test_an_engine_that_cannot_list_the_objects_is_one_line(tmp_path, capture_build):
    def broken(build):
        raise OSError("ninja -t inputs bin/cuconform-compile exited 1")

    engine = fake_engine(capture_build, {})
    engine = Engine(engine.operators, engine.build_mutant, engine.mutant_error, engine.patch_executable, broken)
    campaign = Campaign(
        plan_for(capture_build, tmp_path / "out", ["fail-all"]),
        engine,
        no_equivalents(tmp_path),
        FakeHarness(BASELINE, {}),
        say=lambda line: None,
    )
    with pytest.raises(Exception, match=r"^cannot list the captured objects of .*: OSError: ninja -t inputs"):
        campaign.run()


def test_the_tests_of_the_mutated_sources_run_first_and_a_kill_there_decides(tmp_path, capture_build):
    """alpha/a.cu changed: its tests run alone first (--rule), a kill there is final; beta/b.cu changed, whose tests
    pass: beta then runs whole. A build made elsewhere still matches its sources below suites/."""
    engine = fake_engine(capture_build, {("fail-all", "alpha/a.cu"): FAILS, ("fail-all", "beta/b.cu"): FAILS})
    baseline = document(
        result("alpha/S.InA", "pass", source="/elsewhere/suites/alpha/a.cu"),
        result("alpha/S.InB", "pass", source="/repo/suites/alpha/b.cu"),
        result("beta/P/S.InB/1", "pass", source="/repo/suites/beta/b.cu"),
        result("beta/S.InA", "pass", source="/repo/suites/beta/a.cu"),
    )
    harness = FakeHarness(
        baseline,
        {
            "fail-all": {
                "run-focus": document(result("alpha/S.InA", "fail"), result("beta/P/S.InB/1", "pass")),
                "run": document(result("beta/P/S.InB/1", "pass"), result("beta/S.InA", "timeout")),
            }
        },
    )
    plan = plan_for(capture_build, tmp_path / "out", ["fail-all"])
    results = Campaign(plan, engine, no_equivalents(tmp_path), harness, say=lambda line: None).run()
    # one focused run of both mutants, each its own tests by test id; then beta's mutant, not killed, runs whole
    assert harness.calls[1:] == [
        ("batch-fail-all", ("alpha@fail-all", "beta@fail-all"), ("alpha@fail-all/S.InA", "beta@fail-all/P/S.InB/1")),
        ("batch-fail-all", ("beta@fail-all",)),
    ]
    mutants = judged(results)
    assert (mutants[("fail-all", "alpha")]["killed_by"], mutants[("fail-all", "alpha")]["run"]) == (
        "alpha/S.InA",
        "focused",
    )
    assert (mutants[("fail-all", "beta")]["killed_by"], mutants[("fail-all", "beta")]["run"]) == (
        "beta/S.InA",
        "whole area",
    )
    assert mutants[("fail-all", "beta")]["judges"] == 2 and mutants[("fail-all", "beta")]["seconds"] == 1.5

    whole = Campaign(
        plan_for(capture_build, tmp_path / "whole", ["fail-all"], focus=False),
        engine,
        no_equivalents(tmp_path),
        harness,
        say=lambda line: None,
    )
    harness.calls.clear()
    whole.run()
    assert harness.calls[1:] == [("batch-fail-all", ("alpha@fail-all", "beta@fail-all"))]


def test_a_test_that_passed_or_skipped_itself_at_baseline_judges_and_a_failure_there_is_left_out():
    baseline = [
        result("alpha/S.Pass", "pass"),
        result("alpha/S.NotObservable", "skip"),  # ran and skipped itself (a litmus sibling without weak outcomes)
        result("alpha/S.Hangs", "skip", expected="skip"),  # an entry skips it: it never runs
        result("alpha/S.KnownWhenRun", "skip", expected="fail"),  # its failure would be an xfail
        result("alpha/S.Wobbly", "pass", expected="flake"),
        result("alpha/S.Known", "xfail", expected="fail"),
        result("alpha/S.Lucky", "xpass", "pass", expected="fail"),
        result("alpha/S.Broken", "fail"),
        result("alpha/S.Dies", "crash"),
        result("alpha/S.Slow", "timeout"),
        result("alpha/S.Gone", "missing"),
        result("alpha/S.Flaky", "flake"),
        result("beta/S.Broken", "fail"),
    ]
    judges = outcome.judges_of(baseline, "alpha")
    assert judges == ["alpha/S.Pass", "alpha/S.NotObservable"]
    assert outcome.failures_of(baseline, "alpha") == [
        "alpha/S.Broken",
        "alpha/S.Dies",
        "alpha/S.Slow",
        "alpha/S.Gone",
        "alpha/S.Flaky",
    ]
    # campaign 2's litmus@atom-add-to-exch: a test that skipped at baseline fails under the mutant, and kills it
    for how in ("fail", "crash", "timeout"):
        ran = {
            "alpha/S.Pass": result("alpha/S.Pass", "pass"),
            "alpha/S.NotObservable": result("alpha/S.NotObservable", how),
        }
        verdict = outcome.judge(judges, ran)
        assert (verdict.status, verdict.killed_by, verdict.killing_status, verdict.judges) == (
            outcome.MutantStatus.KILLED,
            "alpha/S.NotObservable",
            how,
            2,
        )
    # skipping again, passing this time (the sibling happened to observe) or --fail-fast's "not run": no kill
    for again in ("skip", "pass"):
        ran = {
            "alpha/S.Pass": result("alpha/S.Pass", "pass"),
            "alpha/S.NotObservable": result("alpha/S.NotObservable", again),
        }
        assert outcome.judge(judges, ran).status is outcome.MutantStatus.SURVIVED


def test_the_mutants_runs_leave_out_the_baseline_failures_and_a_skip_at_baseline_judges(tmp_path, capture_build):
    """campaign 2: a failure at baseline stopped every mutant binary of its area (--fail-fast) before its judges
    ran, and a test that skipped at baseline could not judge. Now both runs leave out the area's failures, by their
    exact ids, and a skip at baseline that fails under the mutant kills it."""
    engine = fake_engine(capture_build, {("fail-all", "alpha/a.cu"): FAILS, ("fail-all", "beta/a.cu"): FAILS})
    baseline = document(
        result("alpha/P/S.Broken/*", "fail", source="/repo/suites/alpha/a.cu"),  # a wildcard in its id, literally
        result("alpha/S.InA", "pass", source="/repo/suites/alpha/a.cu"),
        result("alpha/S.NotObservable", "skip", source="/repo/suites/alpha/b.cu"),
        result("alpha/S.Known", "xfail", expected="fail", source="/repo/suites/alpha/b.cu"),
        result("beta/S.InA", "pass", source="/repo/suites/beta/a.cu"),
        result("beta/S.Slow", "timeout", source="/repo/suites/beta/b.cu"),
    )
    whole = document(
        result("alpha/P/S.Broken/*", "fail"),  # would have stopped the binary: the harness leaves it out
        result("alpha/S.InA", "pass"),
        {**result("alpha/S.NotObservable", "fail"), "message": "engine error: classified 3 instances, ran 486912"},
        result("beta/S.InA", "pass"),
    )
    focused = document(result("alpha/S.InA", "pass"), result("beta/S.InA", "pass"))
    harness = FakeHarness(baseline, {"fail-all": {"run-focus": focused, "run": whole}})
    plan = plan_for(capture_build, tmp_path / "out", ["fail-all"])
    results = Campaign(plan, engine, no_equivalents(tmp_path), harness, say=lambda line: None).run()

    left_out = ("alpha@fail-all/P/S.Broken/[*]", "beta@fail-all/S.Slow")
    assert harness.excluded == [("baseline", ()), ("run-focus", left_out), ("run", left_out)]
    mutants = judged(results)
    assert (mutants[("fail-all", "alpha")]["status"], mutants[("fail-all", "alpha")]["run"]) == ("killed", "whole area")
    assert mutants[("fail-all", "alpha")]["killed_by"] == "alpha/S.NotObservable"
    assert mutants[("fail-all", "alpha")]["judges"] == 2  # InA and NotObservable
    assert mutants[("fail-all", "beta")]["status"] == "survived" and mutants[("fail-all", "beta")]["judges"] == 1


def test_the_harness_command_leaves_out_the_tests_it_is_given(fake_build, tmp_path):
    """--exclude-rule reaches scripts/conformance run: with --fail-fast, a test that failed at baseline would stop
    the binary, and the tests after it would be reported skipped, not run."""
    binary = fake_build.area("alpha", "Fake.Pass1", "Fake.Fail1", "Fake.Gate2")  # Gate2 waits until it is let pass
    fake_build.devices(H100)
    plan = plan_for(
        fake_build.dir, tmp_path / "out", ["fail-all"], areas=("alpha",), expectations=fake_build.expectations
    )
    harness = subprocess_harness(plan)
    stopped = harness(fake_build.dir, ["alpha"], tmp_path / "stopped", (), fail_fast=True)
    assert [test["verdict"] for test in stopped.document["tests"]] == ["pass", "fail", "skip"]  # Gate2: not run
    binary.with_name(binary.name + ".open").touch()
    done = harness(fake_build.dir, ["alpha"], tmp_path / "run", (), fail_fast=True, exclude=["alpha/Fake.Fail1"])
    assert "--exclude-rule alpha/Fake.Fail1" in done.log.read_text().splitlines()[0]
    assert done.usable and {test["id"]: test["verdict"] for test in done.document["tests"]} == {
        "alpha/Fake.Pass1": "pass",
        "alpha/Fake.Gate2": "pass",
    }


def test_the_capture_build_is_configured_with_the_launcher_and_builds_only_the_areas(tmp_path, monkeypatch):
    commands = []
    folder = tmp_path / "mutation"

    def cmake(command):  # configuring writes cuconform-build.json and the compile area's script
        commands.append(command)
        if "--preset" in command:
            (folder / "bin").mkdir(parents=True)
            (folder / "bin" / "cuconform-compile").write_text("#!/usr/bin/env bash\n")
            suites = ["cuconform-sync", "cuconform-math", "cuconform-math-ftz", "cuconform-compile"]
            (folder / "cuconform-build.json").write_text(json.dumps({"suites": suites}))

    monkeypatch.setattr(capturing, "_cmake", cmake)
    monkeypatch.setattr(capturing.build, "check_prerequisites", lambda clang: None)
    capturing.ensure_capture_build(folder, "gpu", 8, ["sync", "math-ftz", "compile"])
    configure, make = commands
    assert configure[:5] == ["cmake", "--preset", "gpu", "-B", str(folder)]
    assert configure[5].startswith("-DCMAKE_CUDA_COMPILER_LAUNCHER=/usr/bin/env;PYTHONPATH=")
    assert configure[5].endswith(";-m;cuconform.mutation.capture")
    # compile has no suite target (a script the configure step writes): only what has one is built; math-ftz,
    # a variant built from suites/math, is one of the build's suites (on the H200 it was left out, 2026-11-29)
    assert make == [
        "cmake",
        "--build",
        str(folder),
        "--target",
        "cuconform-sync",
        "cuconform-math-ftz",
        "cuconform-deviceinfo",
        "cuconform-interpose",
        "-j",
        "8",
    ]

    (folder / "CMakeCache.txt").write_text("CMAKE_CUDA_COMPILER_LAUNCHER:STRING=/src/scripts/mutation-capture\n")
    commands.clear()
    capturing.ensure_capture_build(folder, "gpu", None, [])
    assert commands == [["cmake", "--build", str(folder)]]  # configured already (by hand): built, all of it

    (folder / "CMakeCache.txt").write_text("CMAKE_CUDA_COMPILER_LAUNCHER:STRING=ccache\n")
    with pytest.raises(capturing.build.BuildError, match="without the capture launcher"):
        capturing.ensure_capture_build(folder, "gpu", None, [])


def test_a_configured_capture_build_without_its_build_info_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(capturing, "_cmake", lambda command: None)
    folder = tmp_path / "mutation"
    folder.mkdir()
    (folder / "CMakeCache.txt").write_text("CMAKE_CUDA_COMPILER_LAUNCHER:STRING=/src/scripts/mutation-capture\n")
    with pytest.raises(capturing.build.BuildError, match="cuconform-build.json: cannot read the configured build"):
        capturing.ensure_capture_build(folder, "gpu", None, ["sync"])
