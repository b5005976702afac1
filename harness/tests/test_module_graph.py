"""The harness's modules import one another without circles, counting imports inside functions too (they once hid
reports.py <-> html_report.py and summary.py), and the leaf modules import nothing else of the harness."""

import ast
from pathlib import Path

from conftest import REPO

PACKAGE = REPO / "harness" / "cuconform"
LEAVES = ("files", "kinds", "status", "protocol")  # used everywhere: they must stay free of the rest of the harness


def imports_of(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "cuconform":
                found.update(alias.name for alias in node.names)
            elif node.module.startswith("cuconform."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[1] for alias in node.names if alias.name.startswith("cuconform."))
    return found


def graph() -> dict[str, set[str]]:
    modules = {path.stem: path for path in PACKAGE.glob("*.py")}
    return {name: imports_of(path) & set(modules) - {name} for name, path in modules.items()}


def test_no_module_imports_itself_back():
    edges = graph()
    state: dict[str, str] = {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = "open"
        for target in sorted(edges[module]):
            assert state.get(target) != "open", "import circle: " + " -> ".join(trail + [module, target])
            if target not in state:
                visit(target, trail + [module])
        state[module] = "done"

    for module in sorted(edges):
        if module not in state:
            visit(module, [])


def test_the_leaf_modules_import_nothing_of_the_harness():
    edges = graph()
    for leaf in LEAVES:
        assert edges[leaf] <= set(LEAVES) - {leaf} and (leaf not in ("files", "protocol") or not edges[leaf]), \
            (leaf, edges[leaf])
