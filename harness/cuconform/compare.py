"""Compares two runs test by test: `scripts/conformance compare reports/A reports/B` (nvcc against clang, one driver
against another, yesterday against today)."""

from __future__ import annotations

import json
from pathlib import Path


class CompareError(Exception):
    """A report that cannot be read; str() is one line for the user."""


def load(path: Path) -> dict:
    file = path / "results.json" if path.is_dir() else path
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CompareError(f"cannot read {file}: {error}") from None


def describe(results: dict) -> str:
    environment = results.get("environment", {})
    devices = environment.get("devices", {}).get("devices") or []
    gpu = devices[0].get("name") if devices else "no GPU"
    build = environment.get("build", {})
    driver = environment.get("devices", {}).get("driver_cuda_version")
    return (f"{environment.get('run', '?')}: {gpu}, driver CUDA {driver}, "
            f"{build.get('compiler', '?')} {build.get('compiler_version', '')}").rstrip()


def differences(a: dict, b: dict) -> list[tuple[str, str | None, str | None]]:
    """(test id, verdict in a, verdict in b) for every test whose verdict differs or that only one run has."""
    left = {test["id"]: test["verdict"] for test in a.get("tests", [])}
    right = {test["id"]: test["verdict"] for test in b.get("tests", [])}
    return [(test_id, left.get(test_id), right.get(test_id)) for test_id in sorted(left.keys() | right.keys())
            if left.get(test_id) != right.get(test_id)]


def report(a_path: Path, b_path: Path) -> tuple[list[str], bool]:
    a, b = load(a_path), load(b_path)
    lines = [f"A  {describe(a)}", f"B  {describe(b)}"]
    changed = differences(a, b)
    width = max((len(test_id) for test_id, _, _ in changed), default=0)
    lines += [f"{test_id:{width}}  {left or '-':8} -> {right or '-'}" for test_id, left, right in changed]
    lines.append(f"{len(changed)} of {len(set(t['id'] for t in a.get('tests', [])) | set(t['id'] for t in b.get('tests', [])))}"
                 " tests differ")
    return lines, bool(changed)
