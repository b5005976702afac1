"""The project's Python imports one another without circles: every module of every package under harness/ (the
harness, its subpackages, the tests), the compile-time rules' runner and the suites' generators, and the Python
scripts of scripts/. Imports inside functions count too (they once hid reports.py <-> html_report.py and
summary.py). Packages import one another one way only: the command lines (cli/) use the features (mutation/) and
the core (cuconform/*.py), the features use the core, and the core uses neither, so a feature hands its part of a
report to the core rather than the core reaching for it (reports.ReportPart). The leaf modules import nothing else
of the harness, and every import of a project module names one that exists."""

import ast
import functools
from pathlib import Path

import pytest

from conftest import REPO

HARNESS = REPO / "harness"
PACKAGE = HARNESS / "cuconform"
# Where the project's top-level packages and modules live, as sys.path would find them: (folder, its modules)
ROOTS = [
    (HARNESS, sorted(path for path in (HARNESS / "cuconform").rglob("*.py"))),
    (HARNESS / "tests", sorted((HARNESS / "tests").glob("*.py"))),
    (REPO / "suites" / "compile", sorted((REPO / "suites" / "compile" / "cuconform_compile").rglob("*.py"))),
    (REPO / "suites" / "litmus", [REPO / "suites" / "litmus" / "outcomes_table.py"]),
    (REPO / "suites" / "math" / "tools", sorted((REPO / "suites" / "math" / "tools").glob("*.py"))),
]
LEAVES = ("cuconform.files", "cuconform.kinds", "cuconform.status", "cuconform.protocol")
# The packages of the harness from the top down: each may import those below it, never one above.
LAYERS = ("cuconform.cli", "cuconform.mutation", "cuconform")


def python_scripts() -> list[Path]:
    return sorted(
        path
        for path in (REPO / "scripts").iterdir()
        if path.is_file()
        and path.read_text(encoding="utf-8", errors="replace").startswith(
            ("#!/usr/bin/env python3", "#!/bin/sh\n''':'")
        )
    )  # the second: sh runs it, then python3


def module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.lru_cache(maxsize=None)
def modules() -> dict[str, Path]:
    """Every module of the project by its dotted name; the scripts as scripts/<name>."""
    found = {module_name(root, path): path for root, paths in ROOTS for path in paths}
    found.update({f"scripts/{path.name}": path for path in python_scripts()})
    return found


def is_package(name: str, known: dict[str, Path]) -> bool:
    return known[name].name == "__init__.py"


def imported(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """The project modules `path` imports (`name` is its own): `from a.b import c` is a.b.c when that is a module,
    else a.b; a name that is no module of the project (the standard library, pytest) is left out."""
    package = name if is_package(name, known) or "/" in name else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                candidate = f"{base}.{alias.name}" if base else alias.name
                found.add(candidate if candidate in known else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {module for module in found if module in known} - {name}


@functools.lru_cache(maxsize=None)
def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imported(path, name, known) for name, path in known.items()}


def core_graph() -> dict[str, set[str]]:
    """The imports among the core modules (harness/cuconform/*.py), by their short names: scheduler -> {gtest, ...}."""
    known = modules()
    core = {
        name for name in known if name.startswith("cuconform.") and name.count(".") == 1 and not is_package(name, known)
    }
    return {
        name.removeprefix("cuconform."): {target.removeprefix("cuconform.") for target in graph()[name] & core}
        for name in core
    }


def package_of(module: str) -> str:
    """The harness package a module belongs to: its folder (cuconform, cuconform.mutation, cuconform.cli, ...)."""
    known = modules()
    return module if is_package(module, known) else module.rpartition(".")[0]


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    state: dict[str, str] = {}
    found = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = "open"
        for target in sorted(edges.get(node, ())):
            if state.get(target) == "open":
                found.append(trail + [node, target])
            elif target not in state:
                visit(target, trail + [node])
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node, [])
    return found


def test_every_package_is_covered():
    names = modules()
    for expected in (
        "cuconform.plugin",
        "cuconform.cli",
        "cuconform.cli.conformance.run",
        "cuconform.mutation.campaign",
        "conftest",
        "test_module_graph",
        "cuconform_compile.rules",
        "outcomes_table",
        "bounds",
        "scripts/conformance",
        "scripts/spec-sections",
    ):
        assert expected in names, expected
    python_files = {path for path in REPO.glob("harness/**/*.py")} | {path for path in REPO.glob("suites/**/*.py")}
    assert python_files <= set(names.values()), sorted(map(str, python_files - set(names.values())))


def test_no_module_imports_itself_back():
    found = cycles(graph())
    assert not found, "import circles: " + "; ".join(" -> ".join(trail) for trail in found)


def test_no_package_imports_itself_back():
    """The loop between packages that a module graph can miss: core -> feature -> core through other modules."""
    edges: dict[str, set[str]] = {}
    for module, targets in graph().items():
        if module.startswith("cuconform"):
            edges.setdefault(package_of(module), set()).update(
                package_of(target)
                for target in targets
                if target.startswith("cuconform") and package_of(target) != package_of(module)
            )
    found = cycles(edges)
    assert not found, "package circles: " + "; ".join(" -> ".join(trail) for trail in found)


@pytest.mark.parametrize("layer", LAYERS)
def test_a_package_imports_no_package_above_it(layer):
    above = LAYERS[: LAYERS.index(layer)]
    for module, targets in graph().items():
        if package_of(module) == layer or (layer != "cuconform" and package_of(module).startswith(layer + ".")):
            wrong = sorted(
                target for target in targets for top in above if target == top or target.startswith(top + ".")
            )
            assert not wrong, f"{module} imports {wrong}: hand it what it needs instead"


def test_the_leaf_modules_import_nothing_of_the_harness():
    edges = graph()
    for leaf in LEAVES:
        harness = {target for target in edges[leaf] if target.startswith("cuconform")}
        assert harness <= set(LEAVES) - {leaf}, (leaf, harness)
        if leaf in ("cuconform.files", "cuconform.protocol"):
            assert not harness, (leaf, harness)


def test_every_import_of_a_project_module_names_one_that_exists():
    known = modules()
    prefixes = ("cuconform", "cuconform_compile")
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in prefixes:
                assert node.module in known, f"{path}:{node.lineno}: no module {node.module}"
                if is_package(node.module, known):
                    for alias in node.names:
                        module = f"{node.module}.{alias.name}"
                        exported = known[node.module].read_text(encoding="utf-8")
                        assert module in known or alias.name in exported, f"{path}:{node.lineno}: no {module}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in prefixes:
                        assert alias.name in known, f"{path}:{node.lineno}: no module {alias.name}"


def test_ruff_checks_every_python_script():
    """The scripts have no .py suffix: ruff.toml names each, and a new one must be named there too."""
    import tomllib

    named = set(tomllib.loads((REPO / "ruff.toml").read_text())["extend-include"])
    missing = [f"scripts/{path.name}" for path in python_scripts() if f"scripts/{path.name}" not in named]
    assert not missing, f"ruff.toml's extend-include lacks {', '.join(missing)}"
