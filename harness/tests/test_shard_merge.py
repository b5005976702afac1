"""Many machines: `run --shard K/N` takes a deterministic share of the selection, `merge` joins the shards."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from conftest import CONFORMANCE, H100
from cuconform.shard import Selection, Shard, digest, parse_shard

ALPHA = [
    "Fake.Pass1",
    "Fake.Fail1",
    "Fake.Skip1",
    "Fake.Pass2",
    "Fake.Pass3 exclusive",
    "Fake.Pass4 exclusive",
    "Fake.Pass5 exclusive",
    "Fake.Pass6 host",
]
BETA = ["Fake.Pass1", "Fake.Pass2", "Fake.Skip2"]


def merge(*args) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(CONFORMANCE), "merge", *map(str, args)], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("count", [1, 2, 3, 4, 7, 40])
def test_the_shards_of_a_selection_are_complete_and_disjoint(count):
    ids = [f"area{i % 3}/Suite.Test{i}" for i in range(37)]
    shares = [Selection.of(ids, Shard(k, count)).share(ids) for k in range(1, count + 1)]
    assert set().union(*shares) == set(ids)
    assert sum(len(share) for share in shares) == len(ids)
    assert max(map(len, shares)) - min(map(len, shares)) <= 1  # interleaved: even shares
    # deterministic: another order of the same ids, the same shares
    assert [Selection.of(ids[::-1], Shard(k, count)).share(ids[::-1]) for k in range(1, count + 1)] == shares


def test_every_shard_gets_a_slice_of_every_area():
    ids = [f"{area}/S.T{i}" for area in ("litmus", "sync") for i in range(20)]
    for k in (1, 2, 3, 4):
        assert {i.split("/")[0] for i in Selection.of(ids, Shard(k, 4)).share(ids)} == {"litmus", "sync"}


def test_the_digest_depends_on_the_ids_not_their_order():
    assert digest(["a/B.c", "a/B.d"]) == digest(["a/B.d", "a/B.c"]) != digest(["a/B.c"])


@pytest.mark.parametrize("text", ["0/3", "5/4", "1/0", "x", "2", "-1/3", "1/3/4", ""])
def test_a_wrong_shard_is_refused(text):
    with pytest.raises(ValueError):
        parse_shard(text)


@pytest.mark.parametrize("text", ["0/3", "5/4", "two/4"])
def test_a_wrong_shard_is_one_line_and_exit_2(text, fake_build):
    fake_build.area("alpha", "Fake.Pass1")
    run = fake_build.run("--shard", text)
    assert run.code == 2 and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "--shard" in run.stderr and "Traceback" not in run.stderr


def make_build(fake_build):
    fake_build.area("alpha", *ALPHA)
    fake_build.area("beta", *BETA)
    fake_build.devices(H100)


def run_shards(fake_build, count: int, *args: str) -> list:
    runs = []
    for k in range(1, count + 1):
        run = fake_build.run("--shard", f"{k}/{count}", "--output", str(fake_build.reports / f"shard{k}"), *args)
        run.folder = fake_build.reports / f"shard{k}"
        assert run.code in (0, 1), run.stdout + run.stderr
        runs.append(run)
    return runs


def test_shards_run_each_test_once_and_record_the_selection(fake_build):
    make_build(fake_build)
    runs = run_shards(fake_build, 3)
    ids = [set(run.tests) for run in runs]
    everything = {f"alpha/{t.split()[0]}" for t in ALPHA} | {f"beta/{t.split()[0]}" for t in BETA}
    assert set().union(*ids) == everything and sum(map(len, ids)) == len(everything)
    selections = [run.results["selection"] for run in runs]
    assert [s["shard"] for s in selections] == ["1/3", "2/3", "3/3"]
    assert {s["size"] for s in selections} == {len(everything)} and len({s["digest"] for s in selections}) == 1


def test_the_exclusive_tests_of_a_shard_share_one_process(fake_build):
    make_build(fake_build)
    run_shards(fake_build, 2)  # shard 2/2: Pass1, Skip1, then the exclusive Pass3 and Pass5, in the run's order
    assert ["Fake.Pass3", "Fake.Pass5"] in fake_build.launches("alpha")


def test_a_run_without_shard_is_shard_1_of_1(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2")
    selection = fake_build.run().results["selection"]
    assert selection["shard"] == "1/1" and selection["size"] == 2


def test_a_shard_with_no_test_is_fine(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2")
    run = fake_build.run("--shard", "3/3")
    assert run.code == 0, run.stdout + run.stderr


def test_merge_joins_the_shards_into_one_report(fake_build):
    make_build(fake_build)
    runs = run_shards(fake_build, 3)
    out = fake_build.reports / "merged"
    done = merge(out, *(run.folder for run in runs))
    assert done.returncode == 1, done.stderr  # alpha/Fake.Fail1 fails
    merged = json.loads((out / "results.json").read_text())
    assert merged["complete"] is True and merged["missing_shards"] == []
    assert len(merged["tests"]) == merged["selection"]["size"] == 11 and merged["selection"]["shard"] == "1/1"
    assert merged["counts"]["fail"] == 1 and merged["unexpected"] == 1
    assert [part["shard"] for part in merged["parts"]] == ["1/3", "2/3", "3/3"]
    assert {test["part"] for test in merged["tests"]} == {0, 1, 2}
    assert merged["environment"]["build"]["compiler"] == "nvcc" and merged["environment"]["merged_parts"] == 3
    cases = list(ET.fromstring((out / "junit.xml").read_bytes()).iter("testcase"))
    assert len(cases) == 11
    failing = [case for case in cases if case.find("failure") is not None]
    assert [case.get("name") for case in failing] == ["Fake.Fail1"]
    assert "FAIL" in done.stdout and "merged 3 parts" in done.stdout


def test_shards_on_two_gpus_of_one_model_merge_into_a_run_of_both(fake_build):
    # Seen on 2 x H200 (2026-11-29): one shard per GPU, so the parts' devices differ by UUID alone; the merged run
    # named no GPU at all ("no CUDA device (not probed)").
    make_build(fake_build)
    folders = []
    for k, uuid in ((1, "GPU-0"), (2, "GPU-1")):
        fake_build.devices(dict(H100, devices=[dict(H100["devices"][0], uuid=uuid)]))
        folders.append(fake_build.reports / f"shard{k}")
        assert fake_build.run("--shard", f"{k}/2", "--output", str(folders[-1])).code in (0, 1)
    out = fake_build.reports / "merged"
    done = merge(out, *folders)
    assert done.returncode == 1, done.stderr
    merged = json.loads((out / "results.json").read_text())
    assert [device["uuid"] for device in merged["environment"]["devices"]["devices"]] == ["GPU-0", "GPU-1"]
    assert merged["environment"]["visible_gpus"] == 2
    assert "2 × NVIDIA H100 80GB HBM3" in (out / "summary.md").read_text()


def test_merge_says_which_shards_are_missing(fake_build):
    make_build(fake_build)
    fake_build.expect(
        "sm_90", '[[expect]]\ntests = ["alpha/Fake.Fail1"]\nstatus = "fail"\nreason = "r"\nevidence = "e"\n'
    )
    runs = run_shards(fake_build, 4)
    out = fake_build.reports / "merged"
    done = merge(out, runs[0].folder, runs[2].folder / "results.json")
    assert done.returncode == 1
    assert "missing: shards 2/4, 4/4 absent" in done.stdout
    merged = json.loads((out / "results.json").read_text())
    assert merged["complete"] is False and merged["missing_shards"][0]["shards"] == ["2/4", "4/4"]
    everything = merge(out, *(run.folder for run in runs))
    assert everything.returncode == 0, everything.stdout  # complete, and the one failure is expected


def test_merge_keeps_the_binaries_that_could_not_start(fake_build):
    # Shards on machines without libnvrtc.so.12: each says cuconform-nvrtc did not start; the merge says it once,
    # in every report and its console, and fails though every test that ran is as expected.
    make_build(fake_build)
    fake_build.expect(
        "sm_90", '[[expect]]\ntests = ["alpha/Fake.Fail1"]\nstatus = "fail"\nreason = "r"\nevidence = "e"\n'
    )
    missing = fake_build.bin / "cuconform-nvrtc"
    missing.write_text(
        "#!/bin/sh\necho 'x: error while loading shared libraries: libnvrtc.so.12: gone' >&2\nexit 127\n"
    )
    missing.chmod(0o755)
    runs = run_shards(fake_build, 2)
    out = fake_build.reports / "merged"
    done = merge(out, *(run.folder for run in runs))
    line = "cuconform-nvrtc cannot start here, its tests were not run: libnvrtc.so.12: gone"
    assert done.returncode == 1 and f"NOT RUN  {line}" in done.stdout.splitlines(), done.stdout
    merged = json.loads((out / "results.json").read_text())
    assert merged["unstartable"] == [line] and merged["unexpected"] == 0
    errors = [s for s in ET.fromstring((out / "junit.xml").read_bytes()) if s.get("name") == "nvrtc"]
    assert len(errors) == 1 and errors[0].find("testcase/error").get("message") == line
    assert line in (out / "summary.md").read_text(encoding="utf-8")


def test_merge_refuses_parts_that_do_not_belong_together(fake_build):
    make_build(fake_build)
    runs = run_shards(fake_build, 2)
    out = fake_build.reports / "merged"

    other_split = fake_build.run("--shard", "1/3", "--output", str(fake_build.reports / "third"))
    done = merge(out, runs[0].folder, fake_build.reports / "third")
    assert done.returncode == 2 and "are not shards of one selection" in done.stderr

    twice = merge(out, runs[0].folder, runs[0].folder / "results.json")
    assert twice.returncode == 2 and "shard 1/2 is there twice" in twice.stderr

    fewer = fake_build.run("--shard", "2/2", "--area", "alpha", "--output", str(fake_build.reports / "alpha"))
    assert fewer.code in (0, 1)
    done = merge(out, runs[0].folder, fake_build.reports / "alpha")
    assert done.returncode == 2 and "not shards of one selection" in done.stderr

    for stderr in (done.stderr, twice.stderr):
        assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr
    assert other_split.code in (0, 1)


def test_merge_refuses_another_build(fake_build):
    make_build(fake_build)
    runs = run_shards(fake_build, 2)
    document = json.loads((runs[1].folder / "results.json").read_text())
    document["environment"]["build"]["compiler"] = "clang"
    (runs[1].folder / "results.json").write_text(json.dumps(document))
    done = merge(fake_build.reports / "merged", *(run.folder for run in runs))
    assert done.returncode == 2 and "different builds" in done.stderr and "diff" in done.stderr


def test_runs_of_different_gpus_merge_only_when_asked(fake_build):
    make_build(fake_build)
    h100 = run_shards(fake_build, 2)
    h200 = dict(H100, devices=[dict(H100["devices"][0], name="NVIDIA H200")])
    fake_build.devices(h200)
    assert fake_build.run("--output", str(fake_build.reports / "h200")).code == 1
    out, whole = fake_build.reports / "fleet", fake_build.reports / "h200"
    refused = merge(out, *(run.folder for run in h100), whole)
    assert refused.returncode == 2 and "--different-gpus" in refused.stderr
    assert "NVIDIA H100 80GB HBM3" in refused.stderr and "NVIDIA H200" in refused.stderr
    done = merge(out, *(run.folder for run in h100), whole, "--different-gpus")
    assert done.returncode == 1, done.stderr
    merged = json.loads((out / "results.json").read_text())
    assert merged["complete"] is True and merged["selection"] is None
    assert [(p["gpu"].split(" (")[0], p["shard"]) for p in merged["parts"]] == [
        ("NVIDIA H100 80GB HBM3", "1/2"),
        ("NVIDIA H100 80GB HBM3", "2/2"),
        ("NVIDIA H200", "1/1"),
    ]
    assert "devices" not in merged["environment"]  # the GPUs differ: each part has its own
    assert merged["parts"][2]["environment"]["devices"]["devices"][0]["name"] == "NVIDIA H200"
    assert len(merged["tests"]) == 22
    suites = ET.fromstring((out / "junit.xml").read_bytes()).findall("testsuite")
    assert len(suites) == 3 and "NVIDIA H200" in suites[2].get("name")


def test_merge_of_bad_input_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "selection.json").write_text(json.dumps({"tests": [], "selection": {"index": 5, "count": 4}}))
    for arguments, expected in (
        ([tmp_path / "bad.json"], "not JSON"),
        ([tmp_path / "list.json"], "not a cuconform results.json"),
        ([tmp_path / "selection.json"], "its 'selection' is not one"),
        ([tmp_path / "nothing"], "no such file or folder"),
        ([], "the following arguments are required"),
    ):
        done = merge(tmp_path / "out", *arguments)
        assert done.returncode == 2 and expected in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
