"""What a campaign's reports say beyond its counts: each survivor's answer from suites/<folder>/survivors.toml (and a
bad file stopping the command before anything runs), the answered and unanswered survivors per area and whether the
area is done, the stale answers, the suite's view (would it notice this bug in some area) and the time per area.
The fakes are test_mutation_campaign.py's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_mutation_campaign import (
    BASELINE,
    FAILS,
    HARMLESS,
    FakeHarness,
    document,
    fake_engine,
    no_equivalents,
    plan_for,
    result,
)

from cuconform.cli import conformance
from cuconform.cli.conformance import mutate
from cuconform.mutation import answers, equivalent, report, views
from cuconform.mutation.answers import AnswerError, Scope
from cuconform.mutation.area_names import SUITES, areas_of, built_areas
from cuconform.mutation.campaign import Campaign
from cuconform.results_file import read

FAKE_OPERATORS = ("fail-all", "crash-all", "harmless", "hint", "rejected", "nowhere")


def fake_suites(root: Path, **files: str) -> Path:
    """suites/ with the fake areas' folders (alpha, beta) and math's, which builds variants; `files` are the
    survivors.toml of the folders named."""
    suites = root / "suites"
    for area in ("alpha", "beta"):
        (suites / area).mkdir(parents=True)
        (suites / area / "CMakeLists.txt").write_text(f"cuconform_add_suite({area} SOURCES a.cu b.cu)\n")
    (suites / "math").mkdir()
    (suites / "math" / "CMakeLists.txt").write_text(
        "# cuconform_math_variant(<variant> <area> NVCC_FLAGS <flags> SOURCES <.cu files>)\n"
        "function(cuconform_math_variant variant area)\n  cuconform_add_suite(${area} SOURCES x.cu)\nendfunction()\n"
        "cuconform_math_variant(default math SOURCES a.cu)\n"
        "if(X)\n  cuconform_math_variant(ftz math-ftz NVCC_FLAGS -ftz=true SOURCES\n    a.cu)\nendif()\n"
    )
    for folder, text in files.items():
        (suites / folder / answers.FILE).write_text(text)
    return suites


def entry(operator: str, area: str, answer: str = "suite-code", why: str = "a failure counter", **extra) -> str:
    lines = [f'operator = "{operator}"', f'area = "{area}"', f'answer = "{answer}"', f'why = "{why}"']
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    return "[[survivor]]\n" + "\n".join(lines) + "\n\n"


# --- survivors.toml ---------------------------------------------------------------------------------------------


def test_the_areas_of_a_folder_are_the_binaries_its_cmakelists_builds(tmp_path):
    suites = fake_suites(tmp_path)
    assert areas_of(suites / "math") == ["math", "math-ftz"]  # neither the comment nor the function's ${area}
    assert areas_of(suites / "nowhere") == []
    assert built_areas(suites) == {"alpha": "alpha", "beta": "beta", "math": "math", "math-ftz": "math"}
    real = built_areas()  # the source tree's: math's and streams' variants are areas of their own
    assert real["math-fast-math"] == "math" and real["streams-per-thread"] == "streams"
    assert real["dynamic_parallelism-cdp1"] == "dynamic_parallelism" and real["graphs-device-launch"] == "graphs"


def test_each_answer_is_read_with_its_file_and_line(tmp_path):
    suites = fake_suites(
        tmp_path,
        alpha="# answers\n\n" + entry("harmless", "alpha", "new-rule", "no rule read it", rule="alpha/S.New"),
        math=entry("fail-all", "math-ftz", "permitted", "within   2 ulp")
        + entry("harmless", "math", "not-run", "CC 10.0", rule=["math/A.B", "math/C.D"]),
    )
    loaded = answers.load(suites, FAKE_OPERATORS)
    assert loaded.files == ("suites/alpha/survivors.toml", "suites/math/survivors.toml")
    first, second, third = loaded.entries
    assert (first.operator, first.area, first.kind, first.rules, first.line) == (
        "harmless",
        "alpha",
        "new-rule",
        ("alpha/S.New",),
        3,
    )
    assert first.entry() == {
        "answer": "new-rule",
        "why": "no rule read it",
        "file": "suites/alpha/survivors.toml",
        "line": 3,
        "rule": ["alpha/S.New"],
    }
    assert (second.area, second.why, second.line, third.line, third.rules) == (
        "math-ftz",
        "within 2 ulp",
        1,
        7,
        ("math/A.B", "math/C.D"),
    )
    assert answers.load(fake_suites(tmp_path / "none"), FAKE_OPERATORS) == answers.NONE


@pytest.mark.parametrize(
    "text, line, message",
    [
        (entry("harmless", "math") + entry("no-such", "math"), 7, "'operator' must name an operator of operators.py"),
        (entry("harmless", "beta"), 1, "'area' must name an area built from math/ (math, math-ftz), not 'beta'"),
        (entry("harmless", "math-fast"), 1, "'area' must name an area built from math/"),
        (entry("harmless", "math", "weak"), 1, "'answer' must be one of new-rule, suite-code, permitted, not-obs"),
        (entry("harmless", "math", "equivalent"), 1, "belongs in harness/cuconform/mutation/equivalent.toml"),
        (entry("harmless", "math", why="  "), 1, "every entry needs a non-empty 'why'"),
        (entry("harmless", "math", "new-rule"), 1, "a new-rule answer needs 'rule'"),
        (entry("harmless", "math", "new-rule", rule=["math/A.B", ""]), 1, "'rule' must be a rule id or a list"),
        (entry("harmless", "math", "new-rule", rule=3), 1, "'rule' must be a rule id or a list"),
        ("# c\n" + entry("harmless", "math", colour="red"), 2, "unknown key 'colour' in [[survivor]]"),
        (entry("harmless", "math") + entry("harmless", "math", "permitted"), 7, "answered already, at line 1"),
        ('[[survivor]]\noperator = "harmless\n', 2, "invalid TOML"),
        ("[survivors]\n", 1, "unknown top-level key 'survivors' (expected [[survivor]])"),
        ("survivor = 1\n", 1, "'survivor' must be an array of tables"),
    ],
)
def test_a_bad_survivors_file_is_one_line_with_its_file_and_line(tmp_path, text, line, message):
    suites = fake_suites(tmp_path, math=text)
    path = suites / "math" / answers.FILE
    with pytest.raises(AnswerError) as error:
        answers.load(suites, FAKE_OPERATORS)
    assert str(error.value).startswith(f"{path}:{line}: ") and message in str(error.value), str(error.value)
    assert "\n" not in str(error.value)


def test_the_command_stops_at_a_bad_survivors_file_before_anything_runs(tmp_path, capture_build, monkeypatch, capsys):
    monkeypatch.setattr(mutate, "real_engine", lambda: fake_engine(capture_build, {}))
    suites = fake_suites(tmp_path, alpha=entry("harmless", "alpha", "new-rule"))
    (tmp_path / "none.toml").write_text("")
    arguments = ["mutate", "--no-build", "--build-dir", str(capture_build), "--equivalent", str(tmp_path / "none.toml")]
    code = conformance.main([*arguments, "--survivors", str(suites), "--output", str(tmp_path / "out")])
    err = capsys.readouterr().err
    path = suites / "alpha" / answers.FILE
    assert code == 2
    assert err == f"{path}:1: a new-rule answer needs 'rule': the rule or rules added or strengthened to kill it\n"
    assert not (tmp_path / "out").exists()
    code = conformance.main([*arguments, "--survivors", str(tmp_path / "nothing"), "--output", str(tmp_path / "out")])
    assert code == 2 and "--survivors=" in capsys.readouterr().err and not (tmp_path / "out").exists()


def test_the_shipped_survivors_files_name_operators_of_the_engine_and_areas_of_their_folders():
    """Every suites/<folder>/survivors.toml of the tree loads (the areas' helpers write them)."""
    operators = pytest.importorskip("cuconform.mutation.operators", reason="the mutation engine is not here")
    from cuconform.mutation import runtime_operators

    names = [op.name for op in operators.OPERATORS + runtime_operators.RUNTIME_OPERATORS]
    loaded = answers.load(SUITES, names)
    assert all(file.endswith("/survivors.toml") for file in loaded.files)


def test_an_equivalent_entry_may_name_an_area_built_from_a_folder_of_another_name(tmp_path):
    path = tmp_path / "equivalent.toml"
    path.write_text('[[equivalent]]\noperator = "hint"\narea = "math-ftz"\nwhy = "a hint"\n')
    assert equivalent.load(path, ["hint"], set(built_areas())).why("hint", "math-ftz") == "a hint"


# --- answers in a campaign --------------------------------------------------------------------------------------


def test_an_answer_needs_a_surviving_mutant_else_it_is_stale_and_outside_the_campaign_it_is_neither():
    listed = answers.Answers(
        ("suites/alpha/survivors.toml",),
        tuple(
            answers.Answer(op, area, "suite-code", "why", (), "suites/alpha/survivors.toml", line)
            for line, (op, area) in enumerate(
                [("alive", "alpha"), ("dead", "alpha"), ("na", "alpha"), ("sampled", "alpha"), ("absent", "alpha")]
                + [("other", "alpha"), ("alive", "gamma")],
                1,
            )
        ),
    )
    mutants = [
        {"operator": "alive", "area": "alpha", "status": "survived"},
        {"operator": "alive", "area": "beta", "status": "survived"},
        {"operator": "dead", "area": "alpha", "status": "killed", "killed_by": "alpha/S.Pass1"},
        {"operator": "na", "area": "alpha", "status": "not applicable"},
    ]
    scope = Scope(
        frozenset({"alpha", "beta"}),
        frozenset({"alive", "dead", "na", "sampled", "absent"}),  # "other" was not run yet; gamma is not chosen
        frozenset({("sampled", "alpha")}),
    )
    shown, stale = answers.attach(listed, mutants, scope)
    assert shown[0]["answer"]["answer"] == "suite-code" and shown[0]["answer"]["line"] == 1
    assert [m.get("answer") for m in shown[1:]] == [None, None, None]
    assert "answer" not in mutants[0]  # the records are not changed
    assert [(e["operator"], e["line"], e["now"]) for e in stale] == [
        ("dead", 2, "killed by alpha/S.Pass1"),
        ("na", 3, "not applicable"),
        ("sampled", 4, "left out by the sample"),
        ("absent", 5, "no such mutant: the operator is not tried in this area"),
    ]


def test_a_survivor_that_equivalent_toml_lists_since_its_campaign_is_answered_by_that_entry(tmp_path):
    path = tmp_path / "equivalent.toml"
    path.write_text('[[equivalent]]\noperator = "rotate"\narea = "alpha"\nwhy = "rotates by constants below 32"\n')
    listed = answers.Answers(
        ("suites/alpha/survivors.toml",),
        (answers.Answer("alive", "alpha", "suite-code", "why", (), "suites/alpha/survivors.toml", 1),),
    )
    mutants = [
        {"operator": "rotate", "area": "alpha", "status": "survived"},
        {"operator": "rotate", "area": "beta", "status": "survived"},  # the entry names alpha only
        {"operator": "alive", "area": "alpha", "status": "survived"},  # survivors.toml answers it
    ]
    scope = Scope(frozenset({"alpha", "beta"}), frozenset({"rotate", "alive"}))
    shown, stale = answers.attach(listed, mutants, scope, equivalent.load(path, ["rotate", "alive"]))
    assert shown[0]["answer"] == {
        "answer": "equivalent",
        "why": "rotates by constants below 32",
        "file": "equivalent.toml",
    }
    assert "answer" not in shown[1] and shown[2]["answer"]["answer"] == "suite-code"
    assert stale == []


def answered_campaign(tmp_path: Path, capture_build: Path) -> tuple[dict, Path]:
    """fail-all is killed in alpha and survives in beta; harmless survives in both; crash-all changes nothing.
    alpha's answers: harmless (new-rule), fail-all (killed now: stale), crash-all (not applicable: stale) and hint
    (not in this campaign); beta's: fail-all. harmless in beta is unanswered."""
    behaviour = {
        ("fail-all", "alpha/a.cu"): FAILS,
        ("fail-all", "beta/a.cu"): HARMLESS,
        ("harmless", "alpha/a.cu"): HARMLESS,
        ("harmless", "beta/a.cu"): HARMLESS,
    }
    engine = fake_engine(capture_build, behaviour)
    suites = fake_suites(
        tmp_path,
        alpha=entry("harmless", "alpha", "new-rule", "no rule reads <it>", rule="alpha/S.New")
        + entry("fail-all", "alpha")
        + entry("crash-all", "alpha", "permitted", "within the bound")
        + entry("hint", "alpha", "not-run", "CC 10.0"),
        beta=entry("fail-all", "beta", "suite-code", "beta's copy only counts failures"),
    )
    passing = document(
        *(result(f"{area}/S.Pass{n}", "pass", duration=1.5) for area in ("alpha", "beta") for n in (1, 2)),
        result("alpha/S.Skip", "skip", duration=0.0),  # a judge too: it skipped itself at baseline
    )
    killed_in_alpha = document(result("alpha/S.Pass1", "fail", duration=2.0), *passing["tests"][1:])
    harness = FakeHarness(BASELINE, {"fail-all": killed_in_alpha, "harmless": passing})
    plan = plan_for(capture_build, tmp_path / "out", ["fail-all", "crash-all", "harmless"])
    campaign = Campaign(
        plan,
        engine,
        no_equivalents(tmp_path),
        harness,
        say=lambda line: None,
        answers=answers.load(suites, FAKE_OPERATORS),
    )
    return campaign.run(), tmp_path / "out"


def test_each_survivor_shows_its_answer_and_each_area_its_unanswered_survivors(tmp_path, capture_build):
    results, out = answered_campaign(tmp_path, capture_build)
    section = results["mutation"]
    answered = {(m["operator"], m["area"]): m.get("answer") for m in section["mutants"] if m["status"] == "survived"}
    assert answered[("harmless", "alpha")] == {
        "answer": "new-rule",
        "why": "no rule reads <it>",
        "file": "suites/alpha/survivors.toml",
        "line": 1,
        "rule": ["alpha/S.New"],
    }
    assert answered[("fail-all", "beta")]["answer"] == "suite-code" and answered[("harmless", "beta")] is None
    # the score does not change: an answer is no kill
    assert section["total"]["score"] == round(1 / 4, 4) and section["areas"]["alpha"]["score"] == 0.5
    alpha, beta = section["areas"]["alpha"], section["areas"]["beta"]
    assert (alpha["survived"], alpha["answered"], alpha["unanswered"], alpha["done"]) == (1, 1, 0, True)
    assert (beta["survived"], beta["answered"], beta["unanswered"], beta["done"]) == (2, 1, 1, False)
    assert {key: section["total"][key] for key in ("answered", "unanswered", "areas_done", "areas")} == {
        "answered": 2,
        "unanswered": 1,
        "areas_done": 1,
        "areas": 2,
    }
    assert section["answers"]["files"] == ["suites/alpha/survivors.toml", "suites/beta/survivors.toml"]
    assert [(e["operator"], e["area"], e["now"]) for e in section["answers"]["stale"]] == [
        ("fail-all", "alpha", "killed by alpha/S.Pass1"),
        ("crash-all", "alpha", "not applicable"),
    ]


def test_an_area_at_95_percent_is_done_with_survivors_unanswered():
    section = {
        "areas": {"alpha": {"score": 0.95}, "beta": {"score": 0.9}, "gamma": {"score": None}},
        "mutants": [
            {"operator": "x", "area": "alpha", "status": "survived"},
            {"operator": "x", "area": "beta", "status": "survived"},
        ],
    }
    done = {area: view["done"] for area, view in views.area_answers(section).items()}
    assert done == {"alpha": True, "beta": False, "gamma": True}


def test_the_suite_view_says_which_operators_are_killed_in_some_area(tmp_path, capture_build):
    results, _ = answered_campaign(tmp_path, capture_build)
    suite = results["mutation"]["suite"]
    assert (suite["killed"], suite["scored"], suite["score"], suite["nowhere"]) == (1, 2, 0.5, ["harmless"])
    assert suite["operators"]["fail-all"] == {"killed_in": {"alpha": "alpha/S.Pass1"}, "survived_in": ["beta"]}
    assert views.killed_elsewhere(suite, "fail-all") == "killed in alpha (S.Pass1)"
    assert views.killed_elsewhere(suite, "harmless") == "killed nowhere"
    many = {"operators": {"op": {"killed_in": {f"a{n}": f"a{n}/S.T" for n in range(5)}}}}
    assert views.killed_elsewhere(many, "op", shown=2) == "killed in a0 (S.T); a1 (S.T) and 3 more areas"
    assert views.killed_elsewhere(many, "op", shown=4).endswith("a3 (S.T) and 1 more area")


def test_the_time_per_area_shares_the_runs_wall_time_by_the_mutants_test_seconds():
    section = {
        "mutants": [
            {"area": "alpha", "status": "killed", "run": "focused", "seconds": 3.0},
            {"area": "alpha", "status": "survived", "run": "whole area", "seconds": 5.0},
            {"area": "beta", "status": "killed", "run": "focused", "seconds": 2.0},
            {"area": "beta", "status": "equivalent", "seconds": 0.0},
            {"area": "beta", "status": "invalid", "seconds": 0.0},
        ],
        "operators": [{"seconds": 40.0}, {"seconds": 20.0}],
        "batches": [
            {"focus_seconds": 10.0, "whole_seconds": 10.0, "waited": 30.0, "patch_seconds": 1.0, "rebuild_cpu": 99.0}
        ],
    }
    environment = {"started": "2026-11-29T09:00:00+00:00", "ended": "2026-11-29T09:01:00+00:00"}
    time = views.time_view(section, environment)
    assert time["areas"] == {
        "alpha": {"mutants": 2, "test_seconds": 8.0, "seconds": 16.0},
        "beta": {"mutants": 1, "test_seconds": 2.0, "seconds": 4.0},
    }
    assert (time["baseline_seconds"], time["batches_seconds"], time["wall_seconds"]) == (60.0, 60.0, 120.0)
    assert (time["runs_seconds"], time["waited_seconds"], time["patch_seconds"]) == (20.0, 30.0, 1.0)
    assert time["mutants"] == 4 and time["mutants_per_minute"] == 2.0  # killed, survived and invalid: built
    assert views.time_line(time).startswith("time: 4 mutants built and judged in 2.0 min (2.0 a minute): ")
    assert views.time_view({}, {})["mutants_per_minute"] is None


def test_the_reports_show_the_answers_the_suite_view_the_stale_answers_and_the_time(tmp_path, capture_build):
    results, out = answered_campaign(tmp_path, capture_build)
    section = results["mutation"]
    assert set(section["time"]["areas"]) == {"alpha", "beta"} and section["time"]["mutants"] == 4

    console = "\n".join(report.console_lines(section))
    assert (
        "the suite's view: 1 of 2 operators with a scored mutant are killed in some area (50.0%); killed "
        "nowhere: harmless" in console
    )
    assert "answers: 2 of 3 survivors answered (1 new-rule, 1 suite-code), 1 unanswered; done: 1 of 2 areas" in console
    lines = console.splitlines()
    survivors = [line for line in lines if line.startswith("  ") and " in " in line and "site" in line]
    assert survivors[0].startswith("  harmless in beta: ") and survivors[0].endswith("killed nowhere; unanswered")
    assert (
        "  fail-all in beta: 2 sites in beta/a.cu.o; killed in alpha (S.Pass1); answered suite-code: beta's "
        "copy only counts failures" in lines
    )
    assert any(line.endswith("answered new-rule: no rule reads <it> (rule alpha/S.New)") for line in lines)
    assert (
        "  suites/alpha/survivors.toml:8: fail-all in alpha is answered suite-code, but is now killed by "
        "alpha/S.Pass1" in lines
    )
    assert any(line.startswith("time: 4 mutants built and judged in ") for line in lines)
    beta_row = next(line for line in lines if line.startswith("  beta "))
    assert beta_row.split()[-4:-1] == ["1", "1", "no"]  # answered, unanswered, done; then its device seconds

    summary = (out / "summary.md").read_text()
    assert "| alpha | 1 | 1 | 1 | 0 | 0 | 0 | 50.0% | 1 | 0 | yes |" in summary
    assert "| beta | 0 | 2 | 1 | 0 | 0 | 0 | 0.0% | 1 | 1 | **no** |" in summary
    assert "| harmless | beta | 2 | unanswered | killed nowhere |" in summary
    assert (
        "| harmless | alpha | 2 | new-rule: no rule reads &lt;it&gt; (rule alpha/S.New) | killed nowhere |" in summary
    )
    assert summary.index("| harmless | beta |") < summary.index("| harmless | alpha |")  # the unanswered first
    assert (
        "Stale answers (2)" in summary
        and "crash-all in alpha is answered permitted, but is now not applicable" in summary
    )
    assert "the suite's view: 1 of 2 operators" in summary
    assert "| area | mutants run | test s | device s |" in summary and "mutants built and judged in" in summary

    page = (out / "report.html").read_text()
    assert "no rule reads &lt;it&gt;" in page and "<it>" not in page
    assert '<section id="mutation" class="attention">' in page  # a survivor is unanswered
    assert "Stale answers" in page and "killed in alpha (S.Pass1)" in page and "device s" in page
    assert page.index("harmless") < page.index("m-killed")

    # `scripts/conformance report` renders the section again as it is
    (out / "summary.md").unlink()
    assert conformance.main(["report", str(out)]) == 0 and (out / "summary.md").read_text() == summary


def test_a_section_written_before_the_answers_renders_the_suite_view_and_no_answer(tmp_path, capture_build):
    results, _ = answered_campaign(tmp_path, capture_build)
    old = {key: value for key, value in results["mutation"].items() if key not in ("answers", "suite", "time")}
    old["mutants"] = [{k: v for k, v in m.items() if k != "answer"} for m in old["mutants"]]
    lines = report.console_lines(old)
    assert any("1 of 2 operators with a scored mutant are killed" in line for line in lines)
    assert any(line.startswith("answers: 0 of 3 survivors answered") for line in lines)
    assert not any(line.startswith("time:") or line.startswith("stale") for line in lines)
    page, *summary = report_part(old)  # report.html and summary.md make its time from its timings
    assert "Mutation" in page and "device s" in page
    assert any(line.startswith("time: 4 mutants built and judged in ") for line in summary)


def report_part(section: dict) -> list[str]:
    from cuconform.mutation.report_pages import html_section, summary_lines

    return [html_section({"mutation": section}), *summary_lines({"mutation": section})]


def test_report_only_reads_the_answers_again_without_the_capture_build(tmp_path, capture_build, monkeypatch, capsys):
    results, out = answered_campaign(tmp_path, capture_build)
    engine = fake_engine(capture_build, {})
    monkeypatch.setattr(mutate, "real_engine", lambda: engine)
    suites = fake_suites(tmp_path / "later", beta=entry("harmless", "beta", "not-observable", "L2 is coherent"))
    (tmp_path / "none.toml").write_text("")
    progress = out / "mutation.jsonl"
    header, *rest = progress.read_text().splitlines()
    header = json.loads(header)
    header.update(build_dir=str(tmp_path / "gone"), expectations=str(tmp_path / "expectations"))
    (tmp_path / "expectations").mkdir()
    progress.write_text("\n".join([json.dumps(header), *rest]) + "\n")
    arguments = ["--equivalent", str(tmp_path / "none.toml"), "--survivors", str(suites)]
    code = conformance.main(["mutate", "--output", str(out), "--report-only", *arguments])
    captured = capsys.readouterr()
    assert code == 1, captured.err  # survivors remain: an answer is no kill
    section = read(out).document["mutation"]
    assert section["areas"]["beta"]["unanswered"] == 1 and section["areas"]["beta"]["answered"] == 1
    assert section["total"]["score"] == results["mutation"]["total"]["score"]
    assert "answered not-observable: L2 is coherent" in captured.out
