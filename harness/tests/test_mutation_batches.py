"""How a campaign stays fast without judging less: sites found from the PTX text before any ptxas, a seeded sample of
the generic integer operators, mutants judged in batches, timing lines, a cut campaign that resumes, --report-only.
The fakes are test_mutation_campaign.py's."""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest
from test_mutation_campaign import (
    BASELINE,
    FAILS,
    HARMLESS,
    FakeHarness,
    document,
    fake_engine,
    judged,
    no_equivalents,
    plan_for,
    result,
)

from cuconform.cli import conformance
from cuconform.cli.conformance import mutate
from cuconform.mutation import sites
from cuconform.mutation.campaign import Campaign
from cuconform.mutation.rebuild_pool import CANCELLED
from cuconform.mutation.operators import OPERATORS, sites_by_operator
from cuconform.mutation.progress import PROGRESS, Progress
from cuconform.mutation.sample import SAMPLED_OPERATORS, Sample

PTX = """
.visible .entry k(.param .u64 p)
{
\tld.param.u64 \t%rd1, [p];
\tatom.global.add.u32 \t%r1, [%rd1], 1;
\tatom.global.exch.b32 \t%r2, [%rd1], 2;
\t@%p1 bra \t$L__BB0_2;
\tsetp.lt.s32 \t%p1, %r1, 10;
\tsetp.ne.s32 \t%p2, %r1, 0;
\tshr.u32 \t%r3, %r1, 2;
\tshr.s32 \t%r4, %r1, 2;
\tmul.lo.s32 \t%r5, %r1, %r2;
\tmin.s32 \t%r6, %r1, %r2;
\tadd.rn.f32 \t%f1, %f2, %f3;
\tcvt.rn.f32.f64 \t%f4, %fd1;
\tbar.sync \t0;
\tmembar.gl;
\tfence.acq_rel.gpu;
\tshfl.sync.bfly.b32 \t%r7|%p3, %r1, 1, 31, -1;
\tvote.sync.ballot.b32 \t%r8, %p1, -1;
\tld.global.cg.u32 \t%r9, [%rd1];
\tst.global.wb.u32 \t[%rd1], %r9;
\t@!%p2 st.volatile.global.u32 \t[%rd1], %r9;
\tpopc.b32 \t%r10, %r9;
\tcp.async.commit_group;
\tcp.async.wait_group 0;
\tmbarrier.arrive.shared.b64 \t%rd2, [%r11];
\tret;
}
"""


# --- sites: where an operator applies, from the text ------------------------------------------------------------


def test_the_text_scan_counts_what_the_operators_change():
    assert sites.count(PTX) == sites_by_operator(PTX)
    assert {"atom-add-to-exch", "setp-lt-to-le", "bar-sync-dropped"} <= set(sites.count(PTX))
    assert sites.count("") == {}


@pytest.mark.parametrize(
    "pattern, prefix",
    [
        (r"^atom\.(?:global\.)?add", "atom."),
        (r"^mul\.lo\.", "mul.lo."),
        (r"^(min|max)\.s32", "m"),
        (r"^(dp4a|dp2a\.(?:lo|hi))\.s32", "dp"),
        (r"^(?P<head>mbarrier\.try_wait)\.parity", "mbarrier.try_wait.parity"),
        (r"^[sl]d\.", ""),
        (r"(unbalanced", ""),
    ],
)
def test_a_rewrite_is_tried_only_where_the_literal_start_of_its_pattern_is(pattern, prefix):
    assert sites.literal_prefix(pattern) == prefix


def test_every_operator_pattern_has_a_prefix_its_matches_start_with():
    for op in OPERATORS:
        for step in op.rule:
            assert (
                step.pattern.lstrip("^").replace("\\", "").startswith(sites.literal_prefix(step.pattern))
                or "(" in step.pattern
            ), (op.name, step.pattern)


def test_the_index_is_kept_and_only_a_changed_ptx_is_scanned_again(tmp_path, monkeypatch):
    ptx = tmp_path / "a.ptx"
    ptx.write_text(PTX)
    manifests = [{"object": "a.o", "ptxas": [{"ptx": str(ptx)}]}, {"object": "rdc.o", "rdc": True, "ptxas": []}]
    cache = tmp_path / "sites.json"
    first = sites.index(manifests, cache, jobs=1)
    assert first["a.o"] == sites_by_operator(PTX) and first["rdc.o"] == {}

    def no_scan(text, operators=OPERATORS):
        raise AssertionError("scanned again")

    monkeypatch.setattr(sites, "count", no_scan)
    assert sites.index(manifests, cache, jobs=1) == first
    ptx.write_text(PTX.replace("atom.global.add.u32", "atom.global.or.b32 "))
    os.utime(ptx, ns=(1, 1))
    monkeypatch.undo()
    again = sites.index(manifests, cache, jobs=1)
    assert "atom-add-to-exch" not in again["a.o"] and again["a.o"]["atom-or-to-and"] == 1


def with_sites(engine, table: dict[tuple[str, str], int]):
    """The fake engine with a sites index: {(operator, 'alpha/a.cu'): sites}."""

    def sites_of(manifests, cache, jobs):
        found = {}
        for manifest in manifests:
            short = manifest["object"].split(".dir/", 1)[1].removesuffix(".o")
            found[manifest["object"]] = {op: n for (op, obj), n in table.items() if obj == short}
        return found

    return replace(engine, sites_of=sites_of)


def test_ptxas_runs_only_where_the_operator_has_a_site(tmp_path, capture_build):
    behaviour = {("fail-all", "alpha/a.cu"): FAILS, ("harmless", "beta/b.cu"): HARMLESS}
    engine = fake_engine(capture_build, behaviour)
    calls = engine.calls
    engine = with_sites(
        engine, {("fail-all", "alpha/a.cu"): 2, ("harmless", "beta/b.cu"): 1, ("rejected", "beta/a.cu"): 1}
    )  # a site ptxas turns out not to change: n/a
    harness = FakeHarness(
        BASELINE,
        {
            "fail-all": document(result("alpha/S.Pass1", "fail")),
            "harmless": document(result("beta/S.Pass1", "pass"), result("beta/S.Pass2", "pass")),
        },
    )
    results = Campaign(
        plan_for(capture_build, tmp_path / "out", [op.name for op in engine.operators]),
        engine,
        no_equivalents(tmp_path),
        harness,
        say=lambda line: None,
    ).run()
    assert sorted(calls) == [("fail-all", "alpha/a.cu"), ("harmless", "beta/b.cu"), ("rejected", "beta/a.cu")]
    mutants = judged(results)
    assert mutants[("fail-all", "alpha")]["status"] == "killed"
    assert mutants[("harmless", "beta")]["status"] == "survived"
    assert mutants[("rejected", "beta")]["status"] == "not applicable"
    assert {m["status"] for (op, _), m in mutants.items() if op in ("crash-all", "hint", "nowhere")} == {
        "not applicable"
    }
    assert len(mutants) == 12  # every (operator, area), as before


# --- the sample ---------------------------------------------------------------------------------------------------


def test_the_sample_is_seeded_and_leaves_every_other_operator_whole():
    quick = Sample()
    areas = [f"area{index}" for index in range(400)]
    kept = [area for area in areas if quick.keeps("setp-lt-to-le", area)]
    assert kept == [area for area in areas if Sample().keeps("setp-lt-to-le", area)]  # the same on every call
    assert 0.18 < len(kept) / len(areas) < 0.32
    assert kept != [area for area in areas if Sample(seed=1).keeps("setp-lt-to-le", area)]
    assert all(quick.keeps("atom-add-to-exch", area) for area in areas)
    assert all(Sample(rate=1.0).keeps(op, area) for op in SAMPLED_OPERATORS for area in areas)
    assert set(SAMPLED_OPERATORS) <= {op.name for op in OPERATORS} and len(SAMPLED_OPERATORS) == 9
    assert "seed 0" in quick.describe() and "--all" in quick.describe()
    assert Sample.from_header(quick.header()) == quick and Sample.from_header(None).everything


def test_a_sampled_out_mutant_is_named_in_the_report_and_never_built_or_counted(tmp_path, capture_build):
    behaviour = {
        ("fail-all", "alpha/a.cu"): FAILS,
        ("fail-all", "beta/a.cu"): FAILS,
        ("harmless", "alpha/a.cu"): HARMLESS,
    }
    engine = fake_engine(capture_build, behaviour)
    calls = engine.calls
    engine = with_sites(
        engine, {("fail-all", "alpha/a.cu"): 3, ("fail-all", "beta/a.cu"): 1, ("harmless", "alpha/a.cu"): 1}
    )
    plan = plan_for(
        capture_build, tmp_path / "out", ["fail-all", "harmless"], sample=Sample(rate=0.0, operators=("fail-all",))
    )
    harness = FakeHarness(
        BASELINE, {"harmless": document(result("alpha/S.Pass1", "pass"), result("alpha/S.Pass2", "pass"))}
    )
    results = Campaign(plan, engine, no_equivalents(tmp_path), harness, say=lambda line: None).run()
    assert calls == [("harmless", "alpha/a.cu")]
    section = results["mutation"]
    assert [(m["operator"], m["area"]) for m in section["mutants"]] == [("harmless", "alpha"), ("harmless", "beta")]
    assert section["sampling"]["left_out"] == [
        {"operator": "fail-all", "area": "alpha", "sites": 3},
        {"operator": "fail-all", "area": "beta", "sites": 1},
    ]
    assert section["sampling"]["rate"] == 0.0 and section["sampling"]["operators"] == ["fail-all"]
    assert section["total"]["applicable"] == 1
    from cuconform.mutation import report

    assert "2 mutants left out by the sample" in report.headline(section)
    assert "2 mutants left out by the sample" in (tmp_path / "out" / "summary.md").read_text()


# --- batches, timing, a cut, --report-only ------------------------------------------------------------------------


def test_mutants_of_several_operators_share_a_batch_and_each_phase_says_its_time(tmp_path, capture_build):
    behaviour = {
        (op, obj): FAILS for op in ("fail-all", "crash-all", "harmless") for obj in ("alpha/a.cu", "beta/b.cu")
    }
    engine = fake_engine(capture_build, behaviour)
    killed = document(result("alpha/S.Pass1", "fail"), result("beta/S.Pass1", "fail"))
    harness = FakeHarness(BASELINE, {"fail-all": killed, "crash-all": killed, "harmless": killed})
    lines = []
    plan = plan_for(capture_build, tmp_path / "out", ["fail-all", "crash-all", "harmless"], batch_mutants=4)
    results = Campaign(plan, engine, no_equivalents(tmp_path), harness, say=lines.append).run()
    # 2 mutants each: fail-all and crash-all make a batch of 4, harmless one of its own: 2 harness runs, not 3
    assert [call[:2] for call in harness.calls[1:]] == [
        ("batch-fail-all", ("alpha@fail-all", "beta@fail-all", "alpha@crash-all", "beta@crash-all")),
        ("batch-harmless", ("alpha@harmless", "beta@harmless")),
    ]
    assert {m["status"] for m in results["mutation"]["mutants"]} == {"killed"}
    text = "\n".join(lines)
    assert "plan: 3 operators left, 6 mutants to build and run in 2 batches" in text
    assert "time: batch 1/2 (2 operators: fail-all .. crash-all): 8 (operator, object) rebuilds in " in text
    assert "time: batch 2/2 (1 operator: harmless): " in text
    assert "time:   patched 4 mutant binaries in " in text
    assert "time:   whole run: 4 tests of 4 mutant binaries in " in text
    record = Progress.read(tmp_path / "out" / PROGRESS).operators[0]
    assert record["batch"]["label"] == "batch-fail-all" and record["batch"]["whole_tests"] == 4
    assert [batch["label"] for batch in results["mutation"]["batches"]] == ["batch-fail-all", "batch-harmless"]
    assert record["batch"]["rebuilds"] == 8 and "rebuild_cpu" in record["batch"] and "patch_seconds" in record["batch"]


class CutHarness(FakeHarness):
    """A harness whose run of one batch is cut (SIGINT: KeyboardInterrupt)."""

    def __init__(self, baseline, mutants, cut_at: str):
        super().__init__(baseline, mutants)
        self.cut_at = cut_at

    def __call__(self, build_dir, areas, output, rules=(), fail_fast=False, exclude=()):
        if build_dir.name == self.cut_at:
            raise KeyboardInterrupt
        return super().__call__(build_dir, areas, output, rules, fail_fast, exclude)


def cut_campaign(tmp_path, capture_build):
    behaviour = {(op, "alpha/a.cu"): FAILS for op in ("fail-all", "crash-all", "harmless")}
    engine = fake_engine(capture_build, behaviour, areas=("alpha",))
    killed = document(result("alpha/S.Pass1", "fail"))
    mutants = {"fail-all": killed, "crash-all": killed, "harmless": killed}
    plan = plan_for(
        capture_build, tmp_path / "out", ["fail-all", "crash-all", "harmless"], areas=("alpha",), batch_mutants=1
    )
    with pytest.raises(KeyboardInterrupt):
        Campaign(
            plan,
            engine,
            no_equivalents(tmp_path),
            CutHarness(BASELINE, mutants, "batch-crash-all"),
            say=lambda line: None,
        ).run()
    return engine, plan, mutants


def test_a_campaign_cut_in_a_batch_resumes_with_that_batch(tmp_path, capture_build):
    engine, plan, mutants = cut_campaign(tmp_path, capture_build)
    assert Progress.read(tmp_path / "out" / PROGRESS).done == {"fail-all"}
    again = FakeHarness({"tests": "a baseline is not run again"}, mutants)
    results = Campaign(plan, engine, no_equivalents(tmp_path), again, say=lambda line: None).run(resume=True)
    assert [call[0] for call in again.calls] == ["batch-crash-all", "batch-harmless"]
    assert [m["operator"] for m in results["mutation"]["mutants"]] == ["fail-all", "crash-all", "harmless"]
    assert results["mutation"]["complete"] is True and results["mutation"]["total"]["killed"] == 3


def test_a_stopped_campaign_makes_no_rebuild_it_had_not_begun(tmp_path, capture_build):
    engine = fake_engine(capture_build, {("fail-all", "alpha/a.cu"): FAILS})
    campaign = Campaign(
        plan_for(capture_build, tmp_path / "out", ["fail-all"]),
        engine,
        no_equivalents(tmp_path),
        FakeHarness(BASELINE, {}),
        say=lambda line: None,
    )
    (batch,) = campaign.planner(campaign.objects(), None).batches([engine.operator("fail-all")])
    campaign._stop.set()
    built = campaign.build(batch)
    assert engine.calls == [] and set(built.results.values()) == {CANCELLED} and len(built.results) == 4


def test_report_only_writes_the_reports_of_a_cut_campaign_and_runs_nothing(
    tmp_path, capture_build, monkeypatch, capsys
):
    engine, plan, _ = cut_campaign(tmp_path, capture_build)
    monkeypatch.setattr(mutate, "real_engine", lambda: engine)
    monkeypatch.setattr(Campaign, "run", lambda *args, **kwargs: pytest.fail("--report-only ran the campaign"))
    (tmp_path / "none.toml").write_text("")
    code = conformance.main(
        [
            "mutate",
            "--output",
            str(tmp_path / "out"),
            "--report-only",
            "--equivalent",
            str(tmp_path / "none.toml"),
            "--survivors",
            str(tmp_path),
        ]
    )
    captured = capsys.readouterr()
    out = captured.out
    assert code == 1, captured.err  # not every mutant was killed: the campaign is incomplete, which a report says
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["mutation"]["complete"] is False
    assert [m["operator"] for m in results["mutation"]["mutants"]] == ["fail-all"]
    assert "incomplete: not every operator ran" in out and "--resume" in out
    assert (tmp_path / "out" / "summary.md").exists() and (tmp_path / "out" / "report.html").exists()

    code = conformance.main(["mutate", "--output", str(tmp_path / "nothing"), "--report-only"])
    assert code == 2 and "does not exist" in capsys.readouterr().err


def test_resume_takes_the_sample_and_focus_from_the_campaign_and_refuses_other_ones(
    tmp_path, capture_build, monkeypatch, capsys
):
    engine, plan, _ = cut_campaign(tmp_path, capture_build)
    monkeypatch.setattr(mutate, "real_engine", lambda: engine)
    for flag in (["--all"], ["--sample-seed", "3"], ["--focus-only"], ["--no-census"]):
        code = conformance.main(["mutate", "--output", str(tmp_path / "out"), "--resume", *flag])
        assert code == 2 and f"leave out {flag[0]}".replace("--no-census", "--census/--no-census") in (
            capsys.readouterr().err
        )


def test_the_rules_an_object_includes_from_its_area_are_focused_too(tmp_path, capture_build):
    """math's rules are generated into .inc files of the build folder that each .cu includes; a header of another
    folder is not the area's: the files an object's compile read (ninja's dependency log) name the focused tests."""
    engine = fake_engine(capture_build, {("fail-all", "alpha/a.cu"): FAILS})
    listed = engine.objects_of

    def objects_of(build):
        found = listed(build)
        for manifests in found.values():
            for manifest in manifests:
                manifest["dependencies"] = [
                    manifest["source"],
                    "/repo/suites/alpha/gen/a.inc",
                    f"{capture_build}/generated/alpha/rules.inc",
                    "/repo/suites/common/include/shared.h",
                ]
        return found

    engine = replace(engine, objects_of=objects_of)
    baseline = document(
        result("alpha/S.Generated", "pass", source="/elsewhere/suites/alpha/gen/a.inc"),
        result("alpha/S.InBuild", "pass", source=f"{capture_build}/generated/alpha/rules.inc"),
        result("alpha/S.Shared", "pass", source="/repo/suites/common/include/shared.h"),
        result("alpha/S.Other", "pass", source="/repo/suites/alpha/other.cu"),
    )
    harness = FakeHarness(baseline, {"fail-all": document(result("alpha/S.Generated", "fail"))})
    results = Campaign(
        plan_for(capture_build, tmp_path / "out", ["fail-all"], areas=("alpha",)),
        engine,
        no_equivalents(tmp_path),
        harness,
        say=lambda line: None,
    ).run()
    assert harness.calls[1] == (
        "batch-fail-all",
        ("alpha@fail-all",),
        ("alpha@fail-all/S.Generated", "alpha@fail-all/S.InBuild"),
    )
    assert judged(results)[("fail-all", "alpha")]["killed_by"] == "alpha/S.Generated"


class ResumingHarness(FakeHarness):
    """A fake harness that says when it was asked to go on with a cut run (resume=True)."""

    def __call__(self, build_dir, areas, output, rules=(), resume=False, fail_fast=False, exclude=()):
        if resume:
            self.calls.append(("resumed", output.name))
        return super().__call__(build_dir, areas, output, rules, fail_fast, exclude)


def test_a_campaign_cut_in_its_baseline_resumes_that_run(tmp_path, capture_build):
    engine = fake_engine(capture_build, {("fail-all", "alpha/a.cu"): FAILS}, areas=("alpha",))
    plan = plan_for(capture_build, tmp_path / "out", ["fail-all"], areas=("alpha",))
    with pytest.raises(KeyboardInterrupt):
        Campaign(
            plan, engine, no_equivalents(tmp_path), CutHarness(BASELINE, {}, "mutation"), say=lambda line: None
        ).run()
    assert Progress.read(tmp_path / "out" / PROGRESS).header == plan.header()  # --resume can go on
    journal = tmp_path / "out" / "baseline.partial" / "journal.jsonl"
    journal.parent.mkdir(parents=True)
    journal.write_text("{}\n")  # what the harness leaves of a cut run
    harness = ResumingHarness(BASELINE, {"fail-all": document(result("alpha/S.Pass1", "fail"))})
    results = Campaign(plan, engine, no_equivalents(tmp_path), harness, say=lambda line: None).run(resume=True)
    assert harness.calls[:2] == [("resumed", "baseline"), ("mutation", ("alpha",))]
    assert judged(results)[("fail-all", "alpha")]["status"] == "killed"


def test_an_equivalent_mutant_with_a_site_is_listed_without_being_built(tmp_path, capture_build):
    engine = fake_engine(capture_build, {("hint", "beta/a.cu"): HARMLESS})
    calls = engine.calls
    engine = with_sites(engine, {("hint", "beta/a.cu"): 3})
    harness = FakeHarness(BASELINE, {})
    equivalents = no_equivalents(tmp_path, '[[equivalent]]\noperator = "hint"\nwhy = "a cache hint changes no value"\n')
    results = Campaign(
        plan_for(capture_build, tmp_path / "out", ["hint"]), engine, equivalents, harness, say=lambda line: None
    ).run()
    mutant = judged(results)[("hint", "beta")]
    assert (mutant["status"], mutant["why"], mutant["objects"], mutant["sites"]) == (
        "equivalent",
        "a cache hint changes no value",
        ["beta/a.cu.o"],
        3,
    )
    assert judged(results)[("hint", "alpha")]["status"] == "not applicable"
    assert calls == [] and harness.calls == [("mutation", ("alpha", "beta"))]


def test_focus_only_lets_a_mutant_survive_its_focused_tests_and_says_so(tmp_path, capture_build):
    engine = fake_engine(capture_build, {("harmless", "alpha/a.cu"): HARMLESS})
    baseline = document(
        result("alpha/S.InA", "pass", source="/repo/suites/alpha/a.cu"),
        result("alpha/S.InB", "pass", source="/repo/suites/alpha/b.cu"),
    )
    harness = FakeHarness(baseline, {"harmless": document(result("alpha/S.InA", "pass"))})
    plan = plan_for(capture_build, tmp_path / "out", ["harmless"], areas=("alpha",), focus_only=True)
    results = Campaign(plan, engine, no_equivalents(tmp_path), harness, say=lambda line: None).run()
    assert [call[0] for call in harness.calls[1:]] == ["batch-harmless"]  # no whole-area run
    mutant = judged(results)[("harmless", "alpha")]
    assert (mutant["status"], mutant["run"], mutant["focused"], mutant["judges"]) == ("survived", "focused", 1, 2)
    from cuconform.mutation import report

    assert report.what_happened(mutant) == (
        "its 1 focused tests passed again (--focus-only: the rest of the area's 2 did not run)"
    )
    assert Progress.read(tmp_path / "out" / PROGRESS).header["focus_only"] is True


def test_the_help_of_mutate_names_the_new_options(capsys):
    with pytest.raises(SystemExit):
        conformance.main(["mutate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--report-only", "--all", "--sample-seed", "--focus-only", "--batch-mutants"):
        assert option in text
    assert "sampled, 25% of them" in text
