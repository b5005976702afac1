"""The mutation engine: nvcc --dryrun parsing (capture.py), fatbin padding (fatbin_c.py), executable patching
(patch.py), and mutant fatbins built by the toolkit's ptxas and fatbinary (rebuild.py) where they are installed."""

from __future__ import annotations

import os
import struct
import subprocess
from pathlib import Path

import pytest

from cuconform.mutation import fatbin_c
from cuconform.mutation.capture import parse_dryrun
from cuconform.mutation.operators import BY_NAME, Operator, Rewrite
from cuconform.mutation.patch import PatchError, patch_executable
from cuconform.mutation.rebuild import InvalidMutant, build_mutant

DRYRUN = """#$ _NVVM_BRANCH_=nvvm
#$ _SPACE_= 
#$ PATH=/usr/local/cuda/bin/../nvvm/bin:/usr/bin
#$ SYSTEM_INCLUDES="-isystem" "/usr/local/cuda/include/cccl"  
#$ LIBRARIES=  "-L/usr/local/cuda/lib64/stubs" "-L/usr/local/cuda/lib64"
#$ INCLUDES="-I/usr/local/cuda/include"  
#$ gcc -E -x c++ "a.cu" -o "/k/a.cpp1.ii" 
#$ -- Filter Dependencies -- > a.o.d
#$ "$CICC_PATH/cicc" --c++17 "/k/a.cpp1.ii" -o "/k/a.ptx"
#$ ptxas -arch=sm_90 -m64  "/k/a.ptx"  -o "/k/a.sm_90.cubin" 
"""  # noqa: W291 - nvcc -dryrun prints these lines with trailing spaces

FATBIN_C = """#include "fatbinary_section.h"
asm(
".section .nv_fatbin, \\"a\\"\\n"
".align 8\\n"
"fatbinData:\\n"
".quad 0x00100001ba55ed50,0x0000000000000008,0x1122334455667788\\n"
".text\\n");
extern const unsigned long long fatbinData[3];
static const __fatBinC_Wrapper_t __fatDeviceText = { 0x466243b1, 1, fatbinData, 0 };
"""


def test_dryrun_lines_are_assignments_and_commands():
    environment, commands = parse_dryrun(DRYRUN)
    assert environment["PATH"] == "/usr/local/cuda/bin/../nvvm/bin:/usr/bin"
    assert environment["INCLUDES"] == "-I/usr/local/cuda/include"
    assert environment["_SPACE_"] == ""
    assert environment["SYSTEM_INCLUDES"] == '"-isystem" "/usr/local/cuda/include/cccl"'
    assert [command.split()[0] for command in commands] == ["gcc", '"$CICC_PATH/cicc"', "ptxas"]


def test_padding_adds_zero_quads_after_the_fatbin_and_keeps_its_header():
    original = fatbin_c.embedded(FATBIN_C)
    assert original == struct.pack("<3Q", 0x00100001BA55ED50, 8, 0x1122334455667788)
    padded = fatbin_c.pad(FATBIN_C, fatbin_c.padding_for(len(original)))
    assert fatbin_c.padding_for(len(original)) == 4096
    assert fatbin_c.embedded(padded) == original + bytes(4096)
    assert "fatbinData[515]" in padded and "fatbinData[3]" not in padded
    assert padded.index('".text\\n");') > padded.index("0x1122334455667788")


def test_padding_of_a_c_array_fatbin():
    text = "static const unsigned long long fatbinData[] = {0x00100001ba55ed50ull,0x8ull};\n"
    padded = fatbin_c.pad(text, 16)
    assert fatbin_c.embedded(padded) == struct.pack("<4Q", 0x00100001BA55ED50, 8, 0, 0)


def test_padding_is_half_the_fatbin_when_that_is_more_than_4_kib():
    assert fatbin_c.padding_for(100_000) == 50_000
    assert fatbin_c.padding_for(100_001) % 8 == 0


def executable(tmp_path, *blobs):
    src = tmp_path / "binary"
    src.write_bytes(b"ELF-head" + b"".join(blob + b"gap" for blob in blobs))
    return src


def test_patch_writes_the_mutant_and_zeros_to_the_original_length(tmp_path):
    original, other = b"FATBIN-A" + bytes(16), b"FATBIN-B" + bytes(16)
    src = executable(tmp_path, original, other)
    patch_executable(src, tmp_path / "mutant", [(original, b"MUT")])
    patched = (tmp_path / "mutant").read_bytes()
    assert patched == b"ELF-head" + b"MUT" + bytes(21) + b"gap" + other + b"gap"
    assert os.stat(tmp_path / "mutant").st_mode & 0o777 == 0o755
    assert src.read_bytes() != patched


@pytest.mark.parametrize(
    "blobs, replacement, message",
    [
        ((b"A" * 8,), (b"B" * 8, b"M"), "not in the executable"),
        ((b"A" * 8, b"A" * 8), (b"A" * 8, b"M"), "more than once"),
        ((b"A" * 8,), (b"A" * 8, b"M" * 9), "does not fit"),
    ],
)
def test_patch_refuses_missing_repeated_or_oversized_fatbins(tmp_path, blobs, replacement, message):
    with pytest.raises(PatchError, match=message):
        patch_executable(executable(tmp_path, *blobs), tmp_path / "mutant", [replacement])


CUDA_BIN = Path("/usr/local/cuda/bin")
needs_toolkit = pytest.mark.skipif(
    not (CUDA_BIN / "ptxas").exists() or not (CUDA_BIN / "fatbinary").exists(),
    reason="ptxas and fatbinary of the CUDA toolkit are not installed",
)


def captured_object(tmp_path: Path) -> dict:
    """The manifest capture.py would write for an object whose PTX is mutation/sites.ptx (ptxas and fatbinary run as
    nvcc runs them, the embedded fatbin padded)."""
    keep = tmp_path / "object.o.mut"
    keep.mkdir()
    ptx, cubin, fatbin, embedded = (keep / name for name in ("a.ptx", "a.sm_90.cubin", "a.fatbin", "a.fatbin.c"))
    ptx.write_text((Path(__file__).parent / "mutation" / "sites.ptx").read_text())
    ptxas = [str(CUDA_BIN / "ptxas"), "-arch=sm_90", "-m64", str(ptx), "-o", str(cubin)]
    fatbinary = [
        str(CUDA_BIN / "fatbinary"),
        f"--create={fatbin}",
        "-64",
        f"--image3=kind=ptx,sm=90,file={ptx}",
        f"--image3=kind=elf,sm=90,file={cubin}",
        f"--embedded-fatbin={embedded}",
    ]
    subprocess.run(ptxas, check=True)
    subprocess.run(fatbinary, check=True)
    text = embedded.read_text()
    size = len(fatbin_c.embedded(text))
    embedded.write_text(fatbin_c.pad(text, fatbin_c.padding_for(size)))
    return {
        "object": str(tmp_path / "object.o"),
        "source": "a.cu",
        "rdc": False,
        "env": {},
        "ptxas": [{"argv": ptxas, "ptx": str(ptx), "cubin": str(cubin)}],
        "fatbinary": {"argv": fatbinary, "images": [str(ptx), str(cubin)]},
        "fatbin": str(fatbin),
        "fatbin_c": str(embedded),
        "fatbin_size": size,
        "capacity": size + fatbin_c.padding_for(size),
        "ptx": [str(ptx)],
        "cubin": [str(cubin)],
    }


@needs_toolkit
def test_a_mutant_fatbin_fits_the_padded_room_and_patches_in(tmp_path):
    manifest = captured_object(tmp_path)
    mutant = build_mutant(manifest, BY_NAME["bar-sync-dropped"], tmp_path / "work")
    assert mutant.sites == 4 and mutant.object == manifest["object"]
    assert len(mutant.original) == manifest["capacity"] and len(mutant.mutant) <= manifest["capacity"]
    assert mutant.mutant[:4] == mutant.original[:4] == bytes.fromhex("50ed55ba")  # the fatbin magic
    src = executable(tmp_path, mutant.original)
    patch_executable(src, tmp_path / "patched", [(mutant.original, mutant.mutant)])
    assert mutant.mutant in (tmp_path / "patched").read_bytes()
    assert "// mutant dropped: bar.sync" in (tmp_path / "work" / "a.ptx").read_text()


@needs_toolkit
def test_sites_ptxas_rejects_are_reverted_and_not_counted(tmp_path):
    manifest = captured_object(tmp_path)
    half_bad = Operator(
        "test-half-bad",
        "test",
        "mul.lo.s32 valid, mul.lo.u64 made invalid",
        (Rewrite(r"^mul\.lo\.s32\b", "mul.hi.s32"), Rewrite(r"^mul\.lo\.u64\b", "mul.lo.f64")),
    )
    mutant = build_mutant(manifest, half_bad, tmp_path / "work")
    assert mutant.sites == 1
    assert "mul.lo.u64" in (tmp_path / "work" / "a.ptx").read_text()


@needs_toolkit
def test_an_operator_without_sites_builds_nothing(tmp_path):
    manifest = captured_object(tmp_path)
    assert build_mutant(manifest, Operator("none", "test", "", (Rewrite(r"^nosuch\b", "x"),)), tmp_path / "w") is None
    assert build_mutant({**manifest, "rdc": True}, BY_NAME["bar-sync-dropped"], tmp_path / "w") is None


@needs_toolkit
def test_ptxas_rejecting_a_line_that_is_no_site_makes_the_mutant_invalid(tmp_path):
    manifest = captured_object(tmp_path)
    Path(manifest["ptx"][0]).write_text(Path(manifest["ptx"][0]).read_text().replace("ret;", "ret.bogus;"))
    with pytest.raises(InvalidMutant, match="outside the sites"):
        build_mutant(manifest, BY_NAME["bar-sync-dropped"], tmp_path / "work")
