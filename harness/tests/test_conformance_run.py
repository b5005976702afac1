"""scripts/conformance run, end to end on fake builds: verdicts, exit codes, reports, console summary."""

import argparse
import json
import re
import shutil
import time
import xml.etree.ElementTree as ET

from conftest import H100

from cuconform import options

SM90 = """
[[expect]]
tests = ["alpha/Fake.FailKnown"]
status = "fail"
reason = "the guide says 1, the GPU says 2"
evidence = "NVIDIA H100 80GB HBM3, driver 580.00, CUDA 13.0, 2026-11-22"

[[expect]]
tests = ["alpha/Fake.PassFixed"]
status = "fail"
reason = "used to fail"
evidence = "NVIDIA H100 80GB HBM3, driver 570.00, CUDA 12.8, 2026-01-01"

[[expect]]
tests = ["alpha/Fake.HangKnown"]
status = "skip"
reason = "hangs the GPU: known bug 123"
evidence = "NVIDIA H100 80GB HBM3, driver 580.00, CUDA 13.0, 2026-11-22"

[[expect]]
tests = ["alpha/Fake.NoSuchTest*"]
status = "crash"
reason = "a test that was renamed"
evidence = "NVIDIA H100 80GB HBM3, driver 580.00, CUDA 13.0, 2026-11-22"

[[expect]]
tests = ["beta/Fake.PassElsewhere"]
status = "fail"
reason = "an area this run may not list"
evidence = "NVIDIA H100 80GB HBM3, driver 580.00, CUDA 13.0, 2026-11-22"

[[expect]]
tests = ["alpha/Fake.FailClang"]
status = "fail"
reason = "only clang gets this wrong"
evidence = "clang 22, 2026-11-22"
compiler = "clang"
"""
ALPHA = [
    "Fake.Pass1",
    "Fake.FailKnown",
    "Fake.PassFixed",
    "Fake.HangKnown",
    "Fake.Skip1",
    "Fake.Flaky1",
    "Fake.Abort1",
    "Fake.Pass2",
    "Fake.Metric1",
    "Fake.Hostile1",
    "Fake.FailClang",
    "Fake.Pass3 host",
]


def make_alpha(fake_build):
    fake_build.area("alpha", *ALPHA)
    fake_build.devices(H100)
    fake_build.expect("sm_90", SM90)


def test_a_run_classifies_every_test_and_writes_its_reports(fake_build):
    make_alpha(fake_build)
    run = fake_build.run("--timeout", "5")
    assert run.code == 1, run.stdout + run.stderr
    assert run.verdicts() == {
        "alpha/Fake.Pass1": "pass",
        "alpha/Fake.FailKnown": "xfail",
        "alpha/Fake.PassFixed": "xpass",
        "alpha/Fake.HangKnown": "skip",
        "alpha/Fake.Skip1": "skip",
        "alpha/Fake.Flaky1": "flake",
        "alpha/Fake.Abort1": "crash",
        "alpha/Fake.Pass2": "pass",
        "alpha/Fake.Metric1": "pass",
        "alpha/Fake.Hostile1": "fail",
        "alpha/Fake.FailClang": "fail",
        "alpha/Fake.Pass3": "pass",
    }
    results = run.results
    assert results["complete"] is True and results["unexpected"] == 4
    assert results["counts"] == {
        "pass": 4,
        "fail": 2,
        "crash": 1,
        "timeout": 0,
        "skip": 2,
        "xfail": 1,
        "xpass": 1,
        "flake": 1,
        "missing": 0,
    }
    environment = results["environment"]
    assert [p.rsplit("/", 1)[1] for p in environment["expectation_chain"]] == ["sm_90.toml", "common.toml"]
    assert environment["devices"]["devices"][0]["name"] == "NVIDIA H100 80GB HBM3"
    assert environment["compute_capability"] == "9.0" and environment["build"]["compiler"] == "nvcc"
    assert environment["profile"] == "quick" and environment["command"][:2] == ["scripts/conformance", "run"]
    assert environment["host"]["cpus"] >= 1 and environment["started"] <= environment["ended"]
    assert [entry["entry"] for entry in results["stale_expectations"]] == ["sm_90.toml:20"]

    tests = run.tests
    known = tests["alpha/Fake.FailKnown"]
    assert known["rule"] == "alpha/Fake.FailKnown" and known["section"] == "2.2.3" and known["statement"]
    assert known["status"] == "fail" and known["expected"]["status"] == "fail"
    assert known["expected"]["evidence"].startswith("NVIDIA H100") and known["expected"]["entry"] == "sm_90.toml:2"
    assert known["message"].startswith("/fake/fake.cu:12: Failure")
    hang = tests["alpha/Fake.HangKnown"]
    assert hang["status"] is None and hang["attempts"] == [] and hang["message"] == "hangs the GPU: known bug 123"
    assert tests["alpha/Fake.Skip1"]["message"] == "needs compute capability 10.0, device is 9.0"
    assert [a["status"] for a in tests["alpha/Fake.Flaky1"]["attempts"]] == ["fail", "pass"]
    assert tests["alpha/Fake.Metric1"]["metrics"] == {"bandwidth_gbps": 123.5, "note": "fast", "broken": "{nope"}
    assert tests["alpha/Fake.Abort1"]["output"].startswith("about to abort\npartial line")
    assert all(t["duration"] > 0 for t in tests.values() if t["status"])
    assert tests["alpha/Fake.Pass3"]["gpu"] is False
    assert r"\xff\xfe" in tests["alpha/Fake.Hostile1"]["output"] and "]]>" in tests["alpha/Fake.Hostile1"]["output"]

    # the console summary: counts, each unexpected result with its message, flakes, stale entries, slowest, where
    out = run.stdout
    assert "verdicts: 4 pass, 2 fail, 1 crash, 2 skip, 1 xfail, 1 xpass, 1 flake" in out
    assert re.search(r"CRASH +alpha/Fake.Abort1 .*\n +the process was killed by SIGABRT", out)
    assert re.search(r"XPASS +alpha/Fake.PassFixed .*\n +expected fail \(sm_90.toml:8\) but it passed", out)
    assert "alpha/Fake.Flaky1: fail then pass" in out
    assert "sm_90.toml:20: alpha/Fake.NoSuchTest*" in out and "beta/Fake.PassElsewhere" not in out
    assert "expectations: sm_90 -> common" in out and "slowest" in out
    assert f"reports: {run.folder}/results.json" in out
    assert "\x1b" not in out and "\x00" not in out  # a test's escape sequences do not reach the terminal
    assert out.rstrip().splitlines()[-1].startswith("=") and "4 failed" in out.rstrip().splitlines()[-1]


def test_the_junit_file_parses_and_carries_properties_and_durations(fake_build):
    make_alpha(fake_build)
    run = fake_build.run()
    text = (run.folder / "junit.xml").read_bytes()
    cases = {case.get("name"): case for case in ET.fromstring(text).iter("testcase")}
    assert len(cases) == len(ALPHA)
    for name, case in cases.items():
        properties = {p.get("name"): p.get("value") for p in case.iter("property")}
        assert properties["rule"] == f"alpha/{name}" and properties["section"] == "2.2.3"
        assert properties["test"] == f"alpha/{name}" and properties["statement"]
        if name != "Fake.HangKnown":
            assert float(case.get("time")) > 0, name
    assert cases["Fake.Abort1"].find("failure") is not None
    assert cases["Fake.FailKnown"].find("skipped").get("type") == "pytest.xfail"
    assert "H100" in cases["Fake.FailKnown"].find("skipped").get("message")
    assert cases["Fake.Skip1"].find("skipped").get("message") == "needs compute capability 10.0, device is 9.0"
    hostile = cases["Fake.Hostile1"].find("failure").text
    assert "<script>" in hostile and "]]>" in hostile
    assert not re.search(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]", text)
    metric = {p.get("name"): p.get("value") for p in cases["Fake.Metric1"].iter("property")}
    assert metric["metric.bandwidth_gbps"] == "123.5" and metric["verdict"] == "pass"
    flaky = {p.get("name"): p.get("value") for p in cases["Fake.Flaky1"].iter("property")}
    assert flaky["verdict"] == "flake" and flaky["attempts"] == "fail then pass"


def test_a_run_with_nothing_unexpected_exits_0(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.FailKnown", "Fake.Skip1")
    fake_build.devices(H100)
    fake_build.expect("sm_90", SM90.split("[[expect]]")[0] + "[[expect]]" + SM90.split("[[expect]]")[1])
    run = fake_build.run()
    assert run.code == 0, run.stdout
    assert run.verdicts() == {"alpha/Fake.Pass1": "pass", "alpha/Fake.FailKnown": "xfail", "alpha/Fake.Skip1": "skip"}


def test_without_a_gpu_the_chain_is_common_alone(fake_build):
    make_alpha(fake_build)
    (fake_build.bin / "cuconform-deviceinfo.json").unlink()
    run = fake_build.run("--area", "alpha", "--rule", "alpha/Fake.Pass*")
    assert run.code == 0, run.stdout
    results = run.results
    assert [p.rsplit("/", 1)[1] for p in results["environment"]["expectation_chain"]] == ["common.toml"]
    assert results["environment"]["compute_capability"] is None and results["environment"]["run"] == "only"
    assert set(run.verdicts()) == {"alpha/Fake.Pass1", "alpha/Fake.Pass2", "alpha/Fake.Pass3", "alpha/Fake.PassFixed"}


def test_a_build_without_the_device_probe_is_one_line_and_exit_2(fake_build):
    # without it, GPU tests would still run, judged by the no-GPU chain (common alone): a misleading report
    fake_build.area("alpha", "Fake.Pass1")
    (fake_build.bin / "cuconform-deviceinfo").unlink()
    run = fake_build.run()
    assert run.code == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and "cuconform-deviceinfo is missing" in run.stderr, run.stderr
    assert not fake_build.reports.exists()


def test_a_missing_test_is_unexpected(fake_build):
    binary = fake_build.area("alpha", "Fake.Pass1", "Fake.Gone")
    # the binary lists Fake.Gone but does not run it (as a binary out of step with its listing would)
    text = binary.read_text().replace(
        "chosen = [name for name, _ in tests()", 'chosen = [name for name, _ in tests() if "Gone" not in name'
    )
    binary.write_text(text.replace("if wanted is None or name in wanted]", "and (wanted is None or name in wanted)]"))
    run = fake_build.run()
    assert run.code == 1
    assert run.verdicts() == {"alpha/Fake.Pass1": "pass", "alpha/Fake.Gone": "missing"}


def test_compiler_specific_entries_follow_the_build(fake_build):
    make_alpha(fake_build)
    build_info = fake_build.dir / "cuconform-build.json"
    build_info.write_text(json.dumps({"compiler": "clang", "compiler_version": "22.1.0"}))
    run = fake_build.run("--rule", "*FailClang")
    assert run.code == 0 and run.verdicts() == {"alpha/Fake.FailClang": "xfail"}


def test_exclude_rule_leaves_out_what_it_names_after_rule_has_chosen(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2", "Fake.Fail1", "P/Fake.PassP/0", "P/Fake.PassP/1")
    fake_build.area("beta", "Fake.Pass1")
    # a test id named exactly (a mutation campaign's baseline failures: brackets make a wildcard literal), and a pattern
    run = fake_build.run(
        "--rule", "alpha/*Pass*", "--exclude-rule", "alpha/Fake.Pass2", "--exclude-rule", "alpha/P/Fake.PassP/[1]"
    )
    assert run.code == 0, run.stdout
    assert set(run.verdicts()) == {"alpha/Fake.Pass1", "alpha/P/Fake.PassP/0"}
    # without --rule every test is chosen first; a rule id leaves out all of its tests
    run = fake_build.run("--exclude-rule", "alpha/Fake.PassP", "--exclude-rule", "*Fail*")
    assert run.code == 0 and set(run.verdicts()) == {"alpha/Fake.Pass1", "alpha/Fake.Pass2", "beta/Fake.Pass1"}
    assert "--exclude-rule" in run.results["environment"]["command"]  # the report says how the tests were chosen


def test_a_run_of_fewer_tests_than_listed_says_how_many_and_by_what(fake_build):
    # A run without the rules that need processes of their own must not read as the whole suite's.
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2 isolated", "Fake.Pass3 child_processes", "Fake.Pass4")
    fake_build.area("beta", "Fake.Pass1")
    run = fake_build.run("--exclude-rule", "beta/*", "--", "-m", "not isolated and not child_processes")
    assert run.code == 0 and set(run.verdicts()) == {"alpha/Fake.Pass1", "alpha/Fake.Pass4"}
    assert run.results["environment"]["chosen"] == {
        "tests": 2,
        "listed": 5,
        "by": ["--exclude-rule=beta/*", "-m not isolated and not child_processes"],
    }
    assert (
        "chosen: 2 of the 5 tests the binaries list, by --exclude-rule=beta/* -m not isolated and not child_processes"
        in run.stdout
    )
    # a shard, and many patterns of one option, shortened
    run = fake_build.run(*[f"--exclude-rule=alpha/Fake.Pass{i}" for i in (1, 2, 3, 4)], "--shard", "1/1")
    assert run.results["environment"]["chosen"]["by"] == [
        "--exclude-rule=alpha/Fake.Pass1",
        "--exclude-rule=alpha/Fake.Pass2",
        "--exclude-rule=alpha/Fake.Pass3",
        "and 1 more",
        "--shard 1/1",
    ]
    # every test listed: nothing to say
    run = fake_build.run()
    assert "chosen" not in run.results["environment"] and "chosen:" not in run.stdout


def test_an_exclusion_that_leaves_nothing_is_bad_input_that_names_it(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2")
    run = fake_build.run("--rule", "alpha/Fake.Pass1", "--exclude-rule", "alpha/*")
    assert run.code == 2 and run.stderr.strip().splitlines() == [
        "nothing matched the filters given: --rule=alpha/Fake.Pass1, --exclude-rule=alpha/* select no test among "
        "the 2 tests collected"
    ]
    assert run.stdout == "" and not run.folder.exists()
    run = fake_build.run("--exclude-rule", "")
    assert run.code == 2 and "--exclude-rule=: must be an fnmatch pattern" in run.stderr


def test_profile_and_filters_reach_the_tests(fake_build):
    fake_build.area("alpha", "Fake.Env1", "Fake.Pass1")
    fake_build.area("beta", "Fake.Env2")
    run = fake_build.run("--profile", "full", "--area", "alpha", "-k", "Env")
    assert run.code == 0 and set(run.verdicts()) == {"alpha/Fake.Env1"}
    assert run.tests["alpha/Fake.Env1"]["output"] == "profile=full devices=None\n"
    assert run.results["environment"]["profile"] == "full"


def test_the_isolated_batches_run_before_the_others_unless_told_not_to(fake_build):
    fake_build.area("order", "Fake.Pass1", "Fake.Pass2 isolated", "Fake.Pass3 isolated")

    def started(*options):
        run = fake_build.run("--jobs", "1", *options)
        assert run.code == 0
        batches = sorted(run.results["environment"]["batches"], key=lambda batch: batch["start_s"])
        return [batch.get("isolated", False) for batch in batches]

    assert started() == [True, True, False]  # the default: right after the exclusive batches
    assert started("--no-isolated-first") == [False, True, True]  # as costly as each other: the listing's order
    assert started("--isolated-first") == [True, True, False]


def test_a_switch_on_by_default_is_turned_off_by_its_no_option():
    parser = argparse.ArgumentParser()
    options.add_arguments(parser, ["isolated-first", "launch-heavy-last"])
    assert vars(parser.parse_args([])) == {"isolated_first": None, "launch_heavy_last": None}
    given = parser.parse_args(["--no-isolated-first", "--launch-heavy-last"])
    assert (given.isolated_first, given.launch_heavy_last) == ("false", "true")
    assert "--no-isolated-first" in parser.format_help() and "(default: on)" in parser.format_help()


def test_launch_heavy_last_runs_the_batches_of_many_short_tests_after_the_others(fake_build):
    fake_build.area("many", *[f"Fake.Sleep10_{i:03d}" for i in range(200)])  # 2 s of 10 ms tests
    fake_build.area("few", "Fake.Sleep300_1", "Fake.Sleep300_2")  # 0.6 s

    def started(*options):
        run = fake_build.run("--jobs", "1", *options)
        assert run.code == 0
        batches = sorted(run.results["environment"]["batches"], key=lambda batch: batch["start_s"])
        return [batch["binary"] for batch in batches]

    assert started() == ["cuconform-many", "cuconform-few"]  # the longest first; its durations are kept now
    assert started("--launch-heavy-last") == ["cuconform-few", "cuconform-many"]


def test_pytest_plugins_installed_beside_pytest_load_only_when_named(fake_build, tmp_path, monkeypatch):
    site = tmp_path / "site"
    (site / "autoplug-1.0.dist-info").mkdir(parents=True)
    (site / "autoplug-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: autoplug\nVersion: 1.0\n")
    (site / "autoplug-1.0.dist-info" / "entry_points.txt").write_text("[pytest11]\nautoplug = autoplug\n")
    (site / "autoplug.py").write_text(
        "import os, pathlib\n\ndef pytest_configure(config):\n"
        "    pathlib.Path(os.environ['AUTOPLUG_MARK']).write_text('loaded')\n"
    )
    mark = tmp_path / "loaded"
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.setenv("AUTOPLUG_MARK", str(mark))
    fake_build.area("alpha", "Fake.Pass1")
    assert fake_build.run().code == 0 and not mark.exists()  # installed, so pytest alone would load it
    assert fake_build.run("--", "-p", "autoplug").code == 0 and mark.exists()


def test_pytest_arguments_pass_through(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Fail1", "Fake.Pass2", "Fake.Fail2")
    first = fake_build.run("--", "-x")
    assert first.code == 1 and "1 failed, 1 passed" in first.stdout
    # pytest stopped at the first failure and the run stopped the batch still running: results.json keeps the tests
    # pytest reported and any the batch had finished by then (how many is a race with the stop)
    kept = [test["id"] for test in first.results["tests"]]
    assert first.results["complete"] is False and kept[:2] == ["alpha/Fake.Pass1", "alpha/Fake.Fail1"]
    assert kept == ["alpha/Fake.Pass1", "alpha/Fake.Fail1", "alpha/Fake.Pass2", "alpha/Fake.Fail2"][: len(kept)]
    again = fake_build.run("--", "--lf", "-v")
    assert again.code == 1 and "alpha/Fake.Fail1" in again.verdicts() and "alpha/Fake.Pass1" not in again.verdicts()


def test_an_output_folder_that_cannot_be_made_is_bad_input(fake_build, tmp_path):
    fake_build.area("alpha", "Fake.Pass1")
    (tmp_path / "a-file").write_text("not a folder\n")
    run = fake_build.run("--output", str(tmp_path / "a-file" / "run"))
    assert run.code == 2 and run.stderr.strip().splitlines() == [
        f"ERROR: {tmp_path / 'a-file' / 'run.partial'}: cannot write the run's reports there: Not a directory"
    ]
    assert "Traceback" not in run.stdout + run.stderr


def test_no_test_selected_is_bad_input(fake_build):
    fake_build.area("alpha", "Fake.Pass1")
    run = fake_build.run("-k", "NothingLikeThis")
    assert run.code == 2 and run.stderr.strip().splitlines() == [
        "ERROR: nothing matched the filters given: -k NothingLikeThis select no test"
    ]
    assert "verdicts:" not in run.stdout and not run.folder.exists()
    run = fake_build.run("--rule", "zzz*")
    assert run.code == 2 and run.stderr.strip().splitlines() == [
        "nothing matched the filters given: --rule=zzz* select no test among the 1 tests collected"
    ]
    assert run.stdout == "" and not run.folder.exists()
    run = fake_build.run("--rule", "zzz*", "-k", "Pass")
    assert run.code == 2 and run.stderr.strip().splitlines() == [
        "ERROR: nothing matched the filters given: --rule=zzz*, -k Pass select no test"
    ]
    run = fake_build.run("--area", "nosuch")
    assert run.code == 2 and run.stderr.strip().splitlines() == ["--area=nosuch: no such area (areas: alpha)"]


def test_an_unannotated_test_is_a_collection_error(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Bare norule")
    run = fake_build.run()
    assert run.code == 2
    assert "alpha/Fake.Bare (/fake/fake.cu:9) has no rule annotation" in run.stdout


def test_a_second_run_gets_a_folder_of_its_own(fake_build):
    fake_build.area("alpha", "Fake.Pass1")
    import subprocess
    import sys
    from conftest import CONFORMANCE

    command = [
        sys.executable,
        str(CONFORMANCE),
        "run",
        "--build-dir",
        str(fake_build.dir),
        "--expectations",
        str(fake_build.expectations),
        "--reports",
        str(fake_build.reports),
    ]
    # The folder's name has the minute the run started: a pair of runs that crossed a minute's end (the clock read
    # before and after differs) names its folders apart anyway, so that pair is made again, once.
    for attempt in range(2):
        minute = time.strftime("%Y%m%d-%H%M", time.gmtime())
        for _ in range(2):
            assert subprocess.run(command, capture_output=True).returncode == 0
        if time.strftime("%Y%m%d-%H%M", time.gmtime()) == minute:
            break
        shutil.rmtree(fake_build.reports)
    folders = sorted(p.name for p in fake_build.reports.iterdir())
    assert len(folders) == 2 and folders[1] == folders[0] + "-2"
    assert re.fullmatch(r"\d{8}-\d{4}-nogpu-nvcc", folders[0])
    assert sorted(p.name for p in (fake_build.reports / folders[0]).iterdir()) == [
        "journal.jsonl",
        "junit.xml",
        "report.html",
        "results.json",
        "summary.md",
    ]


def test_a_hang_times_out_and_the_run_goes_on(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Hang1", "Fake.Pass2")
    run = fake_build.run("--timeout", "2")
    assert run.code == 1
    assert run.verdicts() == {"alpha/Fake.Pass1": "pass", "alpha/Fake.Hang1": "timeout", "alpha/Fake.Pass2": "pass"}
    hang = run.tests["alpha/Fake.Hang1"]
    assert hang["message"] == "no result after 2 s: the process was killed" and hang["duration"] >= 2
    assert [a["status"] for a in hang["attempts"]] == ["timeout", "timeout"]  # its batch ran again, once


def test_ctrl_c_stops_the_run_kills_its_tests_and_keeps_what_ran(fake_build):
    import signal
    import time

    fake_build.area("alpha", "Fake.Pass1", "Fake.Hang1", "Fake.Pass2")
    folder = fake_build.reports / "only"
    process = fake_build.start("--timeout", "60")
    log = fake_build.bin / "cuconform-alpha.log"
    deadline = time.monotonic() + 60
    while not (fake_build.bin / "cuconform-alpha.hanging").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    journal = folder.with_name("only.partial") / "journal.jsonl"
    while not (journal.exists() and "alpha/Fake.Pass1" in journal.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)  # Pass1 has been journaled: what ran is what the reports must keep
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=120)  # generous: a loaded 2-core CI machine is slow to write the reports
    assert process.returncode == 2, output
    results = json.loads((folder / "results.json").read_text())
    assert results["complete"] is False
    assert [(t["id"], t["verdict"]) for t in results["tests"]] == [("alpha/Fake.Pass1", "pass")]
    pid = int(log.read_text().split()[1])
    try:
        import os

        os.kill(pid, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive, "the hung test process outlived the run"
    assert not (fake_build.reports / "only.partial").exists()


def test_workers_spread_over_the_gpus_each_seeing_its_own(fake_build, monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1")  # how many GPUs the driver shows, before the probe says
    monkeypatch.setenv("CUCONFORM_KEEP_DURATIONS", "0")  # costs stay unknown: the tests are cut by count
    two = dict(H100, devices=[dict(H100["devices"][0], ordinal=0), dict(H100["devices"][0], ordinal=1, uuid="GPU-1")])
    fake_build.devices(two)
    fake_build.area("alpha", *[f"Fake.Env{i}" for i in range(40)])
    run = fake_build.run()
    assert run.code == 0 and run.results["environment"]["jobs"] == 8  # 4 per GPU by default
    assert {test["output"].split("devices=")[1].strip() for test in run.tests.values()} <= {"0", "1"}
    run = fake_build.run("--jobs", "2")
    assert run.code == 0 and run.results["environment"]["jobs"] == 2
    seen = {test["output"].split("devices=")[1].strip() for test in run.tests.values()}
    assert seen == {"0", "1"}
    assert len(fake_build.launches("alpha")) == 3 + 2  # 40 tests: 3 batches for 8 workers, then 2 for 2
    # the reports say which GPU ran each test, and the summary how the run spread
    for test in run.tests.values():
        assert test["attempts"][0]["gpus"] == test["output"].split("devices=")[1].strip()
    spread = [line for line in run.stdout.splitlines() if line.startswith("GPUs (CUDA_VISIBLE_DEVICES")]
    assert len(spread) == 1 and "0: " in spread[0] and "1: " in spread[0], run.stdout


def test_the_run_starts_before_pytest_and_holds_back_what_some_gpu_skips(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2", "Fake.Pass3", "Fake.Hang1")
    fake_build.devices(H100)
    skip = 'status = "skip"\nreason = "hangs there"\nevidence = "e"\n'
    fake_build.expect("sm_80", f'[[expect]]\ntests = ["alpha/Fake.Pass2"]\n{skip}')  # another GPU's known hang
    fake_build.expect("sm_90", f'[[expect]]\ntests = ["alpha/Fake.Hang1"]\n{skip}')  # this GPU's
    run = fake_build.run()
    assert run.code == 0, run.stdout
    assert run.results["environment"]["early_start"] is True
    assert run.verdicts() == {
        "alpha/Fake.Pass1": "pass",
        "alpha/Fake.Pass2": "pass",
        "alpha/Fake.Pass3": "pass",
        "alpha/Fake.Hang1": "skip",
    }
    # started at once without the tests some expectation file skips; Pass2 once the device was known to be 9.0
    assert fake_build.launches("alpha") == [["Fake.Pass1", "Fake.Pass3"], ["Fake.Pass2"]]


def test_options_that_choose_tests_wait_for_pytest(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2")
    run = fake_build.run("--", "-q", "-m", "gpu")
    assert run.code == 0 and run.results["environment"]["early_start"] is False
    assert fake_build.run("-k", "Pass1").results["environment"]["early_start"] is False
    assert fake_build.run("--", "-q", "-rA", "-p", "no:cacheprovider").results["environment"]["early_start"] is True


def test_a_binary_that_cannot_start_is_one_line_and_the_rest_runs(fake_build):
    # As build/clang-cuda12.9/bin/cuconform-nvrtc on a machine without CUDA 12's libnvrtc.so.12 (2026-11-29): the
    # dynamic loader stops it before main with exit 127. The run reports the binary, runs the other areas, exits 1.
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2")
    missing = fake_build.bin / "cuconform-nvrtc"
    missing.write_text(
        "#!/bin/sh\n"
        f'echo "{missing}: error while loading shared libraries: libnvrtc.so.12: cannot open shared object file: '
        'No such file or directory" >&2\n'
        "exit 127\n"
    )
    missing.chmod(0o755)
    odd = fake_build.bin / "cuconform-odd"  # not an executable for this machine: exec fails
    odd.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(57))
    odd.chmod(0o755)
    run = fake_build.run()
    assert run.code == 1, run.stdout + run.stderr
    said = [line for line in run.stdout.splitlines() if line.startswith("NOT RUN")]
    assert said == [
        "NOT RUN  cuconform-nvrtc cannot start here, its tests were not run: libnvrtc.so.12: cannot open shared "
        "object file: No such file or directory",
        "NOT RUN  cuconform-odd cannot start here, its tests were not run: Exec format error",
    ]
    assert "Traceback" not in run.stdout + run.stderr and "error during collection" not in run.stdout
    assert run.verdicts() == {"alpha/Fake.Pass1": "pass", "alpha/Fake.Pass2": "pass"}
    assert run.results["unstartable"] == [line.removeprefix("NOT RUN  ") for line in said]
    # Every report says it, not the console alone: a CI job that reads only junit.xml or summary.md sees it red.
    suites = {suite.get("name"): suite for suite in ET.fromstring((run.folder / "junit.xml").read_bytes())}
    assert suites["nvrtc"].get("errors") == "1" and suites["odd"].get("errors") == "1"
    error = suites["nvrtc"].find("testcase/error")
    assert error.get("message") == run.results["unstartable"][0] and "libnvrtc.so.12" in error.text
    summary = (run.folder / "summary.md").read_text(encoding="utf-8")
    assert "**2 binaries could not start, their tests were not run**" in summary.splitlines()[0]
    assert "libnvrtc.so.12" in summary and "Exec format error" in summary
    page = (run.folder / "report.html").read_text(encoding="utf-8")
    assert 'href="#not-run">2 binaries could not start' in page and "libnvrtc.so.12" in page


def test_a_binary_whose_listing_cannot_be_read_still_stops_the_run(fake_build):
    # Only a binary that does not start is left out: one that starts and fails to list its tests is a suite defect.
    fake_build.area("alpha", "Fake.Pass1")
    broken = fake_build.bin / "cuconform-broken"
    broken.write_text("#!/bin/sh\necho 'listing failed' >&2\nexit 3\n")
    broken.chmod(0o755)
    run = fake_build.run()
    assert run.code == 2 and "cuconform-broken --cuconform_list exited with code 3: listing failed" in run.stdout
