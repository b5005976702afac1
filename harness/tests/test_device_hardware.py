"""scripts/device-hardware, issue 31's batch for a GPU machine, run here against stand-ins for nvidia-smi, cmake and
python3 (each records how it was called): the lanes get the GPUs they should, the shards are merged, --only runs the
steps it names, and NVLink multicast stays off whatever the caller's environment says."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from conftest import REPO

STAND_INS = {
    # two GPUs, or FAKE_GPUS of them
    "nvidia-smi": '[ "$1" = -L ] && for i in $(seq 0 $((${FAKE_GPUS:-2} - 1))); do echo "GPU $i: NVIDIA H200"; done\n'
    "exit 0\n",
    # the builds make one GPU area and the compile-time one
    "cmake": 'if [ "$1" = --build ]; then mkdir -p "$2/bin"; touch "$2/bin/cuconform-alpha" '
    '"$2/bin/cuconform-compile"; fi\nexit 0\n',
    "nvcc": "echo release 13.0\n",
    # scripts/conformance: records the GPUs it was given and its arguments, and leaves a report where asked
    "python3": 'echo "gpus=${CUDA_VISIBLE_DEVICES:-all} multicast=${CUCONFORM_ALLOW_NVLINK_MULTICAST:-unset} $*" '
    '>> "$CALLS"\n'
    'out=""; prev=""; for a in "$@"; do [ "$prev" = --output ] && out=$a; prev=$a; done\n'
    '[ "$2" = merge ] && out=$3\n'
    '[ -n "$out" ] && mkdir -p "$out" && echo "{}" > "$out/results.json"\nexit 0\n',
}


def hardware(tmp_path: Path, *args: str, gpus: int = 2) -> list[str]:
    """Runs a copy of scripts/device-hardware in a bare tree under tmp_path; returns the stand-in python3's calls."""
    tree = tmp_path / "tree"
    (tree / "scripts").mkdir(parents=True, exist_ok=True)
    shutil.copy(REPO / "scripts" / "device-hardware", tree / "scripts")
    shims = tmp_path / "bin"
    shims.mkdir(exist_ok=True)
    for name, body in STAND_INS.items():
        (shims / name).write_text("#!/bin/sh\n" + body)
        (shims / name).chmod(0o755)
    calls = tmp_path / "calls.txt"
    env = {
        **os.environ,
        "PATH": f"{shims}:{os.environ['PATH']}",
        "OUT": str(tmp_path / "out"),
        "CALLS": str(calls),
        "FAKE_GPUS": str(gpus),
        "CUCONFORM_ALLOW_NVLINK_MULTICAST": "1",  # set by the caller: the batch must not pass it on
    }
    env.pop("CUDA_VISIBLE_DEVICES", None)
    done = subprocess.run(
        [str(tree / "scripts" / "device-hardware"), *args], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "out" / "all.tgz").is_file()
    return calls.read_text().splitlines() if calls.exists() else []


def call_of(calls: list[str], *words: str) -> str:
    found = [call for call in calls if all(word in call.split() for word in words)]
    assert len(found) == 1, (words, calls)
    return found[0]


def test_two_gpus_run_both_then_one_shard_per_gpu_then_a_lane_per_gpu(tmp_path):
    calls = hardware(tmp_path)
    assert all("multicast=unset" in call for call in calls)
    assert call_of(calls, "--output", str(tmp_path / "tree/reports/hardware/runs/two-gpu")).startswith("gpus=all ")
    assert call_of(calls, "--shard", "1/2").startswith("gpus=0 ")
    assert call_of(calls, "--shard", "2/2").startswith("gpus=1 ")
    assert "runs/shard1" in call_of(calls, "merge")
    assert call_of(calls, "--output", str(tmp_path / "tree/reports/hardware/runs/one-gpu")).startswith("gpus=0 ")
    racecheck = call_of(calls, "--sanitizer", "racecheck")
    assert racecheck.startswith("gpus=1 ") and "--area alpha " in racecheck  # not the compile-time rules
    assert call_of(
        calls,
        "diff",
        str(tmp_path / "tree/reports/hardware/runs/one-gpu"),
        str(tmp_path / "tree/reports/hardware/runs/sharded"),
    )
    summary = (tmp_path / "tree/reports/hardware/summary.txt").read_text()
    assert "2 GPUs" in summary and "hardware: done" in summary


def test_one_gpu_has_no_shards_and_only_runs_the_steps_named(tmp_path):
    calls = hardware(tmp_path, "--only", "racecheck", gpus=1)
    runs = [call for call in calls if " run " in f" {call} "]
    assert len(runs) == 1 and "--sanitizer racecheck" in runs[0] and runs[0].startswith("gpus=all ")
    assert not any("merge" in call or "--shard" in call for call in calls)
    assert "hardware: done" in (tmp_path / "tree/reports/hardware/summary.txt").read_text()


def test_a_step_done_in_an_earlier_call_is_not_run_again(tmp_path):
    first = hardware(tmp_path, "--only", "two-gpu")
    assert len(first) == 1
    again = hardware(tmp_path, "--only", "two-gpu")
    assert again == first  # the calls file holds the first call's run alone
