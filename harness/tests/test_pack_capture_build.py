"""scripts/pack-capture-build and device-mutate --carried (issue 34): a capture build made on one machine, packed with
what a campaign reads of it and nothing else, unpacked on the GPU machine and run with --no-build; a pack made at
another path is refused, since its manifests' absolute paths would not match. On a made-up build and a stand-in for
scripts/conformance: no GPU, no compiler."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACK = REPO / "scripts" / "pack-capture-build"

# The stand-in for scripts/conformance: records each command line; a campaign leaves its progress, a report is done.
FAKE_CONFORMANCE = """#!/usr/bin/env python3
import json, sys
from pathlib import Path
args = sys.argv[1:]
with open("calls.txt", "a") as calls:
    calls.write(" ".join(args) + "\\n")
out = Path(args[args.index("--output") + 1])
out.mkdir(parents=True, exist_ok=True)
if "--report-only" in args:
    (out / "results.json").write_text(json.dumps({"mutation": {"complete": True}}))
else:
    (out / "mutation.jsonl").write_text("{}\\n")
"""


def capture_build(folder: Path) -> Path:
    """A made-up capture build: a binary, Ninja's and CMake's files, one object and its capture."""
    mut = folder / "suites" / "a" / "CMakeFiles" / "cuconform-a.dir" / "x.cu.o.mut"
    mut.mkdir(parents=True)
    for name, text in {
        "CMakeCache.txt": "CMAKE_CUDA_COMPILER_LAUNCHER:STRING=capture\n",
        "build.ninja": "include CMakeFiles/rules.ninja\n",
        "CMakeFiles/rules.ninja": "rule CUDA_COMPILER\n",
        ".ninja_deps": "deps",
        "cuconform-build.json": "{}",
        "bin/cuconform-a": "binary" + "\0" * 4096,
        "suites/a/CMakeFiles/cuconform-a.dir/x.cu.o": "object",
    }.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    for name in ("manifest.json", "x.ptx", "x.sm_90.cubin", "x.fatbin.c", "x.fatbin", "x.cudafe1.c", "x.module_id"):
        (mut / name).write_text(name)
    return folder


def members(pack: Path) -> set[str]:
    with tarfile.open(pack, "r:xz") as opened:
        return {name.removeprefix("./") for name in opened.getnames() if opened.getmember(name).isfile()}


def test_the_pack_holds_what_a_campaign_reads_and_no_object_file(tmp_path):
    build = capture_build(tmp_path / "build" / "mutation")
    done = subprocess.run([str(PACK), "--build-dir", str(build), str(tmp_path / "pack.tar.xz")], capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    mut = "suites/a/CMakeFiles/cuconform-a.dir/x.cu.o.mut/"
    assert members(tmp_path / "pack.tar.xz") == {
        "CMakeCache.txt",
        "build.ninja",
        "CMakeFiles/rules.ninja",
        ".ninja_deps",
        "cuconform-build.json",
        "bin/cuconform-a",
        "capture-build-path",
        mut + "manifest.json",
        mut + "x.ptx",
        mut + "x.sm_90.cubin",
        mut + "x.fatbin.c",
    }
    assert (build / "capture-build-path").read_text().strip() == str(build.resolve())


def test_without_the_xz_program_python_packs_it(tmp_path):
    """A machine without xz: the same .tar.xz, made by Python's lzma."""
    tools = tmp_path / "tools"
    tools.mkdir()
    for name in ("bash", "dirname", "find", "grep", "tar", "mkdir", "mv", "du", "cut"):
        (tools / name).symlink_to(shutil.which(name))
    (tools / "python3").symlink_to(Path(sys.executable).resolve())  # not a shim that needs more of PATH
    build = capture_build(tmp_path / "build" / "mutation")
    done = subprocess.run([str(PACK), "--build-dir", str(build), str(tmp_path / "pack.tar.xz")], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PATH": str(tools)})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "bin/cuconform-a" in members(tmp_path / "pack.tar.xz")


def test_a_folder_that_is_no_capture_build_is_one_line(tmp_path):
    for made in ("nothing", "no capture"):
        build = tmp_path / made
        build.mkdir()
        if made == "no capture":
            (build / "CMakeCache.txt").write_text("")
            (build / "bin").mkdir()
        done = subprocess.run([str(PACK), "--build-dir", str(build), str(tmp_path / "p.tar.xz")], capture_output=True,
                              text=True, timeout=60)  # fmt: skip
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert not (tmp_path / "p.tar.xz").exists()


def a_checkout(root: Path) -> Path:
    """device-mutate in a checkout of its own, with the stand-in for scripts/conformance."""
    (root / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "device-mutate", root / "scripts" / "device-mutate")
    (root / "scripts" / "conformance").write_text(FAKE_CONFORMANCE)
    (root / "scripts" / "conformance").chmod(0o755)
    return root


def test_device_mutate_unpacks_a_carried_build_and_runs_the_campaign_on_it_without_building(tmp_path):
    checkout = a_checkout(tmp_path / "checkout")
    build = capture_build(checkout / "build" / "mutation")
    subprocess.run([str(PACK), "--build-dir", str(build), str(tmp_path / "pack.tar.xz")], check=True, timeout=120)
    shutil.rmtree(build)  # the GPU machine's checkout: the same path, no build
    environment = {**os.environ, "OUT": str(tmp_path / "out")}
    command = ["bash", "scripts/device-mutate", "--seconds", "60", "--carried", str(tmp_path / "pack.tar.xz")]
    done = subprocess.run(command, cwd=checkout, env=environment, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (build / "bin" / "cuconform-a").read_text().startswith("binary")
    assert not (build / "suites" / "a" / "CMakeFiles" / "cuconform-a.dir" / "x.cu.o").exists()
    campaign = (checkout / "calls.txt").read_text().splitlines()[0]
    assert "--no-build --build-dir build/mutation" in campaign and "--preset" not in campaign
    summary = (tmp_path / "out" / "summary.txt").read_text()
    assert "unpacked" in summary and "campaign: done" in summary


def test_device_mutate_refuses_a_build_made_at_another_path(tmp_path):
    elsewhere = capture_build(tmp_path / "elsewhere" / "build" / "mutation")
    subprocess.run([str(PACK), "--build-dir", str(elsewhere), str(tmp_path / "pack.tar.xz")], check=True, timeout=120)
    checkout = a_checkout(tmp_path / "checkout")
    environment = {**os.environ, "OUT": str(tmp_path / "out")}
    command = ["bash", "scripts/device-mutate", "--carried", str(tmp_path / "pack.tar.xz")]
    done = subprocess.run(command, cwd=checkout, env=environment, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert f"was built at {elsewhere.resolve()}, this checkout's is {checkout.resolve()}/build/mutation" in done.stdout
    assert not (checkout / "calls.txt").exists()  # no campaign began
