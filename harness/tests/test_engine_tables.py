"""scripts/engine-tables: the litmus and math figures of a results.json as Markdown tables."""

import json
import subprocess
import sys

from conftest import REPO

ENGINE_TABLES = REPO / "scripts" / "engine-tables"


def litmus(case: str, status: str, **metrics) -> dict:
    return {
        "id": f"litmus/Litmus/Rule.Name/{case}",
        "area": "litmus",
        "status": status,
        "verdict": status,
        "metrics": metrics,
    }


RUN = {
    "tests": [
        litmus("MPBlocksRelaxed", "pass", verdict="allowed", instances_per_second=2e9, weak_per_second=1.9e7, weak=95),
        litmus("MPBlocksThreadfence", "pass", verdict="pass", instances_per_second=1e9, weak=0),
        litmus("MPBlocksNvFenceAcquireDevice", "skip", verdict="inconclusive", instances_per_second=3e9, weak=0),
        litmus("MPDevicesRelaxed", "skip"),
        {
            "id": "math/IntrinsicFunctions.FaddRd",
            "area": "math",
            "status": "fail",
            "verdict": "fail",
            "metrics": {
                "fadd_rd.inputs_tested": 5245442,
                "fadd_rd.exhaustive": "sampled",
                "fadd_rd.max_ulp_distance": 0,
                "fadd_rd.max_ulp_distance_input": "0x3f800000 (1), 0x00000001 (1.4e-45)",
                "fadd_rd.inputs_over_bound": 0,
            },
        },
        {
            "id": "math-ftz/SinglePrecision.J1f",
            "area": "math-ftz",
            "status": "skip",
            "verdict": "skip",
            "message": "no CUDA device\nmore",
            "metrics": {},
        },
    ]
}


def tables(tmp_path, *args, run=RUN):
    (tmp_path / "results.json").write_text(json.dumps(run))
    return subprocess.run([sys.executable, str(ENGINE_TABLES), str(tmp_path), *args], capture_output=True, text=True)


def row(out: str, *first_cells: str) -> list[str]:
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        if cells[: len(first_cells)] == list(first_cells):
            return cells
    raise AssertionError(f"no row {first_cells} in\n{out}")


def test_litmus_rows_group_by_shape_and_placement(tmp_path):
    done = tables(tmp_path, "--litmus")
    assert done.returncode == 0, done.stderr
    assert "Math" not in done.stdout
    # tests, median instances/s, best allowed weak/s, forbidden weak, pass, allowed, inconclusive, fail, skip
    assert row(done.stdout, "MP", "Blocks") == ["MP", "Blocks", "3", "2.00 G", "19.00 M", "0", "1", "1", "1", "0", "0"]
    assert row(done.stdout, "MP", "Devices")[2:] == ["1", "-", "-", "0", "0", "0", "0", "0", "1"]


def test_math_rows_put_the_worst_distance_beside_the_documented_bound(tmp_path):
    done = tables(tmp_path, "--math")
    assert done.returncode == 0, done.stderr
    fadd = row(done.stdout, "math", "FaddRd")
    assert fadd[2:] == [
        "fadd_rd",
        "IEEE-compliant.",
        "0",
        "0x3f800000 (1), 0x00000001 (1.4e-45)",
        "0",
        "5245442",
        "fail",
    ]
    j1f = row(done.stdout, "math-ftz", "J1f")
    assert j1f[2] == "-" and j1f[-1] == "skip: no CUDA device"
    assert j1f[3] == r"9 for \|x\| < 8 otherwise, the maximum absolute error is 2.2x10^-6"  # a | escaped


def test_an_unreadable_run_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "results.json").write_text("{not json")
    done = subprocess.run([sys.executable, str(ENGINE_TABLES), str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"engine-tables: {tmp_path / 'results.json'}: not JSON")
    assert len(done.stderr.strip().splitlines()) == 1
    done = tables(tmp_path, run={"tests": {"a": 1}})
    assert done.returncode == 2 and "not a cuconform results.json (no 'tests' list)" in done.stderr
