"""scripts/toolkit: a CUDA toolkit laid out from wheels (on fake wheels and a fake pip), the build folders and cache
options of --cuda-root and --arch, and the per-target verdict matrix (on a fake scripts/conformance). No GPU, no
network."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from cuconform import build, targets, toolkit

META_13 = """Metadata-Version: 2.4
Name: cuda-toolkit
Version: 13.5.0
Requires-Dist: nvidia-cuda-cccl==13.3.5.0.6.*; sys_platform == 'linux' and extra == 'all'
Requires-Dist: nvidia-cuda-crt==13.5.37.*; sys_platform == 'linux' and extra == 'all'
Requires-Dist: nvidia-cuda-nvcc==13.5.37.*; sys_platform == 'linux' and extra == 'all'
Requires-Dist: nvidia-cuda-nvrtc==13.5.37.*; sys_platform == 'linux' and extra == 'all'
Requires-Dist: nvidia-cuda-runtime==13.5.37.*; sys_platform == 'linux' and extra == 'all'
Requires-Dist: nvidia-nvvm==13.5.37.*; sys_platform == 'linux' and extra == 'all'
Requires-Dist: nvidia-cuda-nvcc==13.5.37.*; sys_platform == 'linux' and extra == 'nvcc'
"""

META_12 = """Name: cuda-toolkit
Requires-Dist: nvidia-cuda-cccl-cu12==12.9.27.*; extra == 'all'
Requires-Dist: nvidia-cuda-nvcc-cu12==12.9.86.*; extra == 'all'
Requires-Dist: nvidia-cuda-nvrtc-cu12==12.9.86.*; extra == 'all'
Requires-Dist: nvidia-cuda-runtime-cu12==12.9.79.*; extra == 'all'
"""


def test_the_meta_package_pins_every_part():
    pins = toolkit.pins_from_metadata(META_13, 13)
    assert [(p.name, p.version) for p in pins] == [
        ("nvidia-cuda-nvcc", "13.5.37"),
        ("nvidia-nvvm", "13.5.37"),
        ("nvidia-cuda-crt", "13.5.37"),
        ("nvidia-cuda-runtime", "13.5.37"),
        ("nvidia-cuda-nvrtc", "13.5.37"),
        ("nvidia-cuda-cccl", "13.3.5.0.6"),
    ]
    assert pins[-1].requirement == "nvidia-cuda-cccl==13.3.5.0.6.*"
    assert [p.name for p in toolkit.pins_from_metadata(META_12, 12)] == [
        "nvidia-cuda-nvcc-cu12",
        "nvidia-cuda-runtime-cu12",
        "nvidia-cuda-nvrtc-cu12",
        "nvidia-cuda-cccl-cu12",
    ]
    with pytest.raises(toolkit.ToolkitError, match="pins no version of nvidia-nvvm"):
        toolkit.pins_from_metadata(META_13.replace("nvidia-nvvm", "other"), 13)


@pytest.mark.parametrize(
    "given, requirement",
    [("13.5", "cuda-toolkit==13.5.*"), ("13.5.0", "cuda-toolkit==13.5.0"), ("12.9.1", "cuda-toolkit==12.9.1")],
)
def test_a_version_becomes_a_meta_package_requirement(given, requirement):
    assert toolkit.meta_requirement(given) == requirement


def test_a_bad_version_is_one_line():
    with pytest.raises(toolkit.ToolkitError, match="a toolkit version is MAJOR.MINOR"):
        toolkit.meta_requirement("latest")


@pytest.mark.parametrize(
    "member, target",
    [
        ("nvidia/cu13/bin/nvcc", "bin/nvcc"),
        ("nvidia/cu13/include/cccl/cuda/std/atomic", "include/cccl/cuda/std/atomic"),
        ("nvidia/cuda_nvcc/nvvm/lib64/libnvvm.so", "nvvm/lib64/libnvvm.so"),
        ("nvidia/cuda_cccl/include/__init__.py", None),
        ("nvidia/cuda_cccl/.metadata/.sizes.txt", None),
        ("nvidia_cuda_nvcc-13.5.37.dist-info/RECORD", None),
        ("nvidia/__init__.py", None),
    ],
)
def test_a_wheel_file_goes_where_the_toolkit_keeps_it(member, target):
    assert toolkit.layout_path(member) == target


def _wheel(folder: Path, name: str, version: str, files: dict[str, str], metadata: str = "") -> Path:
    path = folder / f"{name.replace('-', '_')}-{version}-py3-none-manylinux2014_x86_64.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in files.items():
            info = zipfile.ZipInfo(member)
            info.external_attr = (0o755 if "/bin/" in member else 0o644) << 16
            archive.writestr(info, text)
        archive.writestr(f"{name.replace('-', '_')}-{version}.dist-info/METADATA", metadata or f"Name: {name}\n")
    return path


NVCC = "#!/bin/sh\necho 'Cuda compilation tools, release 13.5, V13.5.37'\n"
FILES = {
    "nvidia-cuda-nvcc": {
        f"nvidia/cu13/bin/{tool}": NVCC if tool == "nvcc" else "x"
        for tool in ("nvcc", "nvcc.profile", "cudafe++", "ptxas", "fatbinary", "nvlink")
    },
    "nvidia-nvvm": {
        "nvidia/cu13/nvvm/bin/cicc": "x",
        "nvidia/cu13/nvvm/libdevice/libdevice.10.bc": "x",
        "nvidia/cu13/lib/libnvvm.so.4": "x",
    },
    "nvidia-cuda-crt": {"nvidia/cu13/include/crt/host_config.h": "x"},
    "nvidia-cuda-runtime": {
        "nvidia/cu13/include/cuda_runtime.h": "x",
        "nvidia/cu13/lib/libcudart_static.a": "x",
        "nvidia/cu13/lib/libcudadevrt.a": "x",
        "nvidia/cu13/lib/libcudart.so.13": "x",
    },
    "nvidia-cuda-nvrtc": {
        "nvidia/cu13/include/nvrtc.h": "x",
        "nvidia/cu13/lib/libnvrtc.so.13": "x",
        "nvidia/cu13/lib/libnvrtc-builtins.so.13.5": "x",
    },
    "nvidia-cuda-cccl": {"nvidia/cu13/include/cccl/cuda/std/atomic": "x"},
}


@pytest.fixture
def index(tmp_path):
    """A package index as a folder of wheels, and a fake pip that 'downloads' from it by copying."""
    wheels = tmp_path / "index"
    wheels.mkdir()
    _wheel(wheels, "cuda-toolkit", "13.5.0", {}, META_13)
    for name, files in FILES.items():
        _wheel(wheels, name, "13.3.5.0.6" if name.endswith("cccl") else "13.5.37", files)
    pip = tmp_path / "pip"
    pip.write_text(f"""#!/bin/sh
dest=""; while [ $# -gt 0 ]; do case "$1" in --dest) dest="$2"; shift;; esac; shift; done
cp {wheels}/*.whl "$dest"/
echo "$dest" >> {tmp_path}/pip.log
""")
    pip.chmod(0o755)
    return tmp_path, [str(pip)]


def test_install_lays_out_a_complete_toolkit_and_is_idempotent(index):
    tmp_path, pip = index
    lines = []
    root = toolkit.install("13.5", tmp_path / "toolkits", tmp_path / "wheels", pip, log=lines.append)
    assert root == tmp_path / "toolkits" / "13.5.0"
    manifest = toolkit.read_manifest(root)
    assert manifest["complete"] and manifest["missing"] == [] and manifest["nvcc_version"] == "13.5.37"
    assert [part["version"] for part in manifest["parts"]][-1] == "13.3.5.0.6"
    assert os.access(root / "bin" / "nvcc", os.X_OK) and os.access(root / "nvvm" / "bin" / "cicc", os.X_OK)
    assert os.readlink(root / "lib" / "libnvrtc.so") == "libnvrtc.so.13"
    assert not (root / "lib" / "libnvrtc-builtins.so").exists()
    assert os.readlink(root / "lib64") == "lib"
    assert (root / "include" / "cccl" / "cuda" / "std" / "atomic").is_file()
    lines.clear()
    assert toolkit.install("13.5", tmp_path / "toolkits", tmp_path / "wheels", pip, log=lines.append) == root
    assert lines == [f"toolkit 13.5.0: already laid out in {root}"]
    (root / "bin" / "ptxas").unlink()
    toolkit.install("13.5", tmp_path / "toolkits", tmp_path / "wheels", pip, log=lines.append)
    assert (root / "bin" / "ptxas").is_file()  # a damaged toolkit is laid out again


def test_a_toolkit_whose_wheels_lack_nvcc_is_incomplete_and_says_what_it_lacks(index):
    tmp_path, pip = index
    for wheel in (tmp_path / "index").glob("nvidia_cuda_nvcc-*.whl"):
        wheel.unlink()
    _wheel(tmp_path / "index", "nvidia-cuda-nvcc", "13.5.37", {"nvidia/cu13/bin/ptxas": "x"})
    lines = []
    root = toolkit.install("13.5.0", tmp_path / "toolkits", tmp_path / "wheels", pip, log=lines.append)
    manifest = toolkit.read_manifest(root)
    assert not manifest["complete"] and "bin/nvcc" in manifest["missing"] and "bin/ptxas" not in manifest["missing"]
    assert "incomplete" in lines[-1] and "bin/nvcc" in lines[-1]


def test_a_toolkit_build_has_a_folder_of_its_own_and_the_cache_options_that_choose_it(tmp_path):
    root = tmp_path / "13.5.0"
    root.mkdir()
    (root / toolkit.MANIFEST).write_text(json.dumps({"release": "13.5.0"}))
    assert build.build_dir_of("gpu", root) == build.REPO / "build" / "gpu-cuda13.5.0"
    assert build.build_dir_of("ci", None, "100a") == build.REPO / "build" / "ci-sm100a"
    assert build.build_dir_of("ci", root, "80;90a") == build.REPO / "build" / "ci-cuda13.5.0-sm80-90a"
    assert build.cache_arguments("gpu", root, None) == [
        f"-DCMAKE_CUDA_COMPILER={root}/bin/nvcc",
        f"-DCUDAToolkit_ROOT={root}",
    ]
    assert build.cache_arguments("clang", root, "sm_80") == [
        f"-DCUDAToolkit_ROOT={root}",
        "-DCUCONFORM_CLANG_CUDA_ARCH=sm_80",
    ]
    assert build.cache_arguments("ci", None, "80;sm_90a") == ["-DCMAKE_CUDA_ARCHITECTURES=80;90a"]
    assert build.cache_arguments("ci", None, None) == []
    assert build.cache_arguments("ci", None, "100f") == [
        "-DCMAKE_CUDA_ARCHITECTURES=OFF",
        "-DCUCONFORM_CUDA_ARCHITECTURES=100f",
    ]


def test_conformance_refuses_a_cuda_root_without_nvcc_and_an_arch_with_a_build_dir(tmp_path, capsys):
    from cuconform.cli.conformance import main

    assert main(["build", "--cuda-root", str(tmp_path)]) == 2
    assert "no bin/nvcc there (scripts/toolkit install" in capsys.readouterr().err
    assert main(["build", "--build-dir", str(tmp_path), "--arch", "80"]) == 2
    assert "give --preset, not --build-dir" in capsys.readouterr().err
    assert main(["build", "--arch", "sm80x"]) == 2
    assert "--arch=sm80x: a CUDA architecture list" in capsys.readouterr().err


def test_targets_builds_and_runs_the_rules_per_target_and_writes_the_matrix(tmp_path, monkeypatch):
    calls = []

    def fake_conformance(arguments, log):
        calls.append(arguments)
        with log.open("a") as stream:
            if arguments[0] == "build" and "100a" in arguments:
                stream.write("failed: bin/cuconform-wmma\n")
                return 2
            if arguments[0] == "run":
                report = Path(arguments[arguments.index("--output") + 1])
                report.mkdir(parents=True)
                tests = [{"id": "compile/A.B[nvcc]", "verdict": "pass"}, {"id": "compile/A.C[nvcc]", "verdict": "fail"}]
                (report / "results.json").write_text(json.dumps({"tests": tests}))
                return 1
        return 0

    monkeypatch.setattr(targets, "_conformance", fake_conformance)
    args = argparse.Namespace(
        targets=["80", "sm_100a"],
        cuda_root=None,
        preset="ci",
        rules_only=False,
        build_jobs=8,
        host_jobs=None,
        rule=["compile/A*"],
        output=tmp_path / "out",
    )
    assert targets.validate_all(args) == 1
    assert calls[0] == ["build", "--preset", "ci", "--arch", "80", "--build-jobs", "8", "--keep-going"]
    assert calls[1][:5] == ["run", "--build-dir", str(build.REPO / "build" / "ci-sm80"), "--no-build", "--area"]
    assert calls[1][calls[1].index("--target-cc") + 1] == "8.0"  # judged by sm_80.toml -> sm_8x.toml -> common
    assert calls[3][calls[3].index("--target-cc") + 1] == "10.0"
    assert calls[1][-1] == "--rule=compile/A*"
    matrix = (tmp_path / "out" / "matrix.md").read_text()
    assert "| sm_80 | ok (0 s) | 1 | 1 | 0 |" in matrix
    assert "| sm_100a | **1 failed**: cuconform-wmma (0 s) |" in matrix and "compile/A.C[nvcc]" in matrix
    rows = json.loads((tmp_path / "out" / "matrix.json").read_text())["rows"]
    assert rows[1]["build_failed"] == ["bin/cuconform-wmma"]


def test_pack_carries_the_binaries_and_build_info_but_not_the_compile_rules(tmp_path):
    import tarfile

    build_dir = tmp_path / "ci-cuda13.5.0"
    (build_dir / "bin").mkdir(parents=True)
    for name in ("cuconform-sync", "cuconform-deviceinfo", "nvrtc-compile", "cuconform-compile"):
        (build_dir / "bin" / name).write_text(name)
    (build_dir / "cuconform-build.json").write_text("{}")
    archive = toolkit.pack(build_dir, tmp_path / "out.tar.xz")
    with tarfile.open(archive) as tar:
        names = sorted(tar.getnames())
    assert names == [
        "ci-cuda13.5.0/bin/cuconform-deviceinfo",
        "ci-cuda13.5.0/bin/cuconform-sync",
        "ci-cuda13.5.0/bin/nvrtc-compile",
        "ci-cuda13.5.0/cuconform-build.json",
    ]
    with pytest.raises(toolkit.ToolkitError, match="build it first"):
        toolkit.pack(tmp_path / "nothing")


@pytest.mark.skipif(not shutil.which("cc") or not shutil.which("ldd"), reason="needs a C compiler and ldd")
def test_pack_carries_the_libraries_of_an_installed_toolkit_that_its_binaries_load(tmp_path):
    # As build/clang-cuda12.9: cuconform-nvrtc loads libnvrtc.so.12 from the 12.9 toolkit of `install` through an
    # absolute RUNPATH; the GPU machine has CUDA 13 only. The pack carries the library (and NVRTC's builtins, which
    # libnvrtc opens by name) into <build>/lib/, where the binary also looks ($ORIGIN/../lib). A library of a folder
    # that is not such a toolkit (the system's) stays out.
    import subprocess
    import tarfile

    installed = tmp_path / "toolkits" / "12.9.2.0"
    (installed / "lib").mkdir(parents=True)
    (installed / toolkit.MANIFEST).write_text("{}")
    system = tmp_path / "system"
    system.mkdir()
    source = tmp_path / "lib.c"
    source.write_text("int nvrtc_version(void) { return 12; }\n")
    for folder, soname in ((installed / "lib", "libnvrtc.so.12"), (system, "libcudart.so.13")):
        subprocess.run(["cc", "-shared", "-fPIC", f"-Wl,-soname,{soname}", "-o", folder / soname, source], check=True)
    for builtins in ("libnvrtc-builtins.so.12.9", "libnvrtc-builtins.alt.so.12.9"):
        (installed / "lib" / builtins).write_text(builtins)
    build_dir = tmp_path / "clang-cuda12.9"
    (build_dir / "bin").mkdir(parents=True)
    (build_dir / "cuconform-build.json").write_text("{}")
    main = tmp_path / "main.c"
    main.write_text("int nvrtc_version(void);\nint main(void) { return nvrtc_version() == 12 ? 0 : 1; }\n")
    links = [f"-L{installed / 'lib'}", f"-L{system}", "-l:libnvrtc.so.12", "-l:libcudart.so.13"]
    rpath = f"-Wl,-rpath,{installed / 'lib'}:{system}"
    subprocess.run(["cc", "-o", build_dir / "bin" / "cuconform-nvrtc", main, *links, rpath], check=True)
    said = []
    archive = toolkit.pack(build_dir, tmp_path / "out.tar.xz", log=said.append)
    with tarfile.open(archive) as tar:
        names = sorted(tar.getnames())
    assert names == [
        "clang-cuda12.9/bin/cuconform-nvrtc",
        "clang-cuda12.9/cuconform-build.json",
        "clang-cuda12.9/lib/libnvrtc-builtins.so.12.9",
        "clang-cuda12.9/lib/libnvrtc.so.12",
    ]
    assert said[0].startswith(f"pack: lib/libnvrtc.so.12 from {installed / 'lib' / 'libnvrtc.so.12'} (")


@pytest.mark.parametrize(
    "target, cc", [("80", "8.0"), ("sm_89", "8.9"), ("90a", "9.0"), ("100f", "10.0"), ("121", "12.1")]
)
def test_a_target_is_judged_by_its_ccs_expectation_chain(target, cc):
    assert targets.cc_of_target(target) == cc


@pytest.mark.parametrize(("given", "name"), [("80", "80"), ("sm_90a", "90a"), ("100f", "100f"), (" 120 ", "120")])
def test_a_target_is_spelled_as_cmake_spells_it(given, name):
    assert targets.target_name(given) == name


@pytest.mark.parametrize(
    ("given", "why"),
    [
        ("999x", "is not a target"),
        ("sm90", "is not a target"),
        ("80a", "`a` targets from CC 9.0"),
        ("90f", "`f` targets"),
    ],
)
def test_a_target_the_guide_does_not_document_is_bad_input(given, why):
    with pytest.raises(argparse.ArgumentTypeError, match=why):
        targets.target_name(given)


def test_target_cc_judges_a_run_by_that_ccs_chain_whatever_the_gpu(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.FailKnown")
    fake_build.expect(
        "sm_80",
        '[[expect]]\ntests = ["alpha/Fake.FailKnown"]\nstatus = "fail"\nreason = "r"\n'
        'evidence = "nvcc 13.0.88, -arch=sm_80"\n',
    )
    assert fake_build.run().verdicts()["alpha/Fake.FailKnown"] == "fail"  # no GPU: common only
    run = fake_build.run("--target-cc", "8.0")
    assert run.verdicts() == {"alpha/Fake.Pass1": "pass", "alpha/Fake.FailKnown": "xfail"}, run.stdout + run.stderr
    chain = [path.rsplit("/", 1)[1] for path in run.results["environment"]["expectation_chain"]]
    assert chain == ["sm_80.toml", "common.toml"]
    assert fake_build.run("--target-cc", "80").code == 2
