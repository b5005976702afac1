"""The documents say what the tree holds: docs/architecture.md names every module of the harness, and every path and
rule that docs/architecture.md and README.md name exists. (README's figures are test_readme_figures.py's.)"""

import fnmatch
import re
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import REPO

ARCHITECTURE = REPO / "docs" / "architecture.md"
DOCUMENTS = [ARCHITECTURE, REPO / "README.md"]
PACKAGE = REPO / "harness" / "cuconform"
# Written by a build or a run, never committed: a path under these is not looked for in the tree.
GENERATED = ("build/", "reports/", ".carry/", ".venv/")
SYSTEM = ("/proc/", "/usr/", "/dev/")  # the machine's, named as such
RULE_DEFINITION = re.compile(r"\b(?:RULE|RULE_F|RULE_P|CHILD_PROCESS_RULE_F|LITMUS_RULE)\(\s*(\w+)\s*,\s*(\w+)\s*,")
CASE_RULE = re.compile(r"^// rule: (\w+\.\w+)", re.MULTILINE)


def inline_code(path: Path) -> list[str]:
    """Every `inline code` of a Markdown document, outside fenced blocks."""
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    return re.findall(r"`([^`\n]+)`", text)


def named_paths(path: Path) -> list[str]:
    """The tokens of a document that name a file or folder of the tree: a path from the root of the tree (its first
    part is one of the tree's top-level entries), a module (`*.py`), or one that leaves the tree. Placeholders
    (<run>), patterns (*), commands, test ids and the files a build or run writes (results.json) are not looked at."""
    top = {entry.name for entry in REPO.iterdir() if entry.name not in (".git", "build", ".venv", "reports")}
    found = []
    for token in inline_code(path):
        token = re.sub(r":\d+$", "", token.strip())
        if re.search(r"[<>*{}\s|=,;()'\"]|\.\.\.", token) or token.startswith(("-", "~")) or "::" in token:
            continue
        if token.split("/")[0] in top or token.endswith(".py") or token.startswith(("../", "/")):
            found.append(token)
    return found


@lru_cache(maxsize=None)
def tree_files() -> tuple[str, ...]:
    ignored = (".git/", "build/", ".venv/", "reports/")
    return tuple(
        str(path.relative_to(REPO)) for path in REPO.rglob("*") if not str(path.relative_to(REPO)).startswith(ignored)
    )


def exists_in_tree(token: str) -> bool:
    """A path from the root of the tree, or the end of one (`mutation/campaign.py`, `sections.py`)."""
    token = token.rstrip("/")
    if (REPO / token).exists():
        return True
    return any(file == token or file.endswith("/" + token) for file in tree_files())


@lru_cache(maxsize=None)
def rules_of(area: str) -> frozenset[str]:
    """The rules (Suite.Name) written in an area's sources: RULE* definitions, and compile-time cases' headers."""
    found = set()
    for source in (REPO / "suites" / area).rglob("*"):
        if source.suffix in (".cu", ".cpp", ".cuh", ".h", ".inc"):
            text = source.read_text(encoding="utf-8", errors="replace")
            found.update(f"{suite}.{name}" for suite, name in RULE_DEFINITION.findall(text))
            found.update(CASE_RULE.findall(text))
    return frozenset(found)


def named_rules(path: Path) -> list[tuple[str, str]]:
    """(area, rule or pattern) of every test or rule id a document names: <area>/<Suite>.<Name>, a parameterized
    test id (<area>/<Prefix>/<Suite>.<Name>/<param>) or an fnmatch pattern over them."""
    areas = {folder.name for folder in (REPO / "suites").iterdir() if (folder / "CMakeLists.txt").exists()}
    found = []
    for token in inline_code(path):
        match = re.fullmatch(r"(\w+)/(?:\w+/)?([A-Z][\w*]*\.[\w*]+)(?:/\w+)?(?:\[\w+\])?", token.strip().strip("'"))
        if match and match.group(1) in areas:
            found.append((match.group(1), match.group(2)))
    return found


def test_every_module_of_the_harness_is_named_in_the_architecture():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    missing = []
    for module in sorted(PACKAGE.rglob("*.py")):
        relative = module.relative_to(PACKAGE).as_posix()
        if module.name == "__init__.py" and module.parent != PACKAGE / "cli":
            continue  # a package is named by its folder (and cli/__init__.py, the dispatcher, by name)
        if f"`{relative}`" not in text and not (module.parent == PACKAGE and f"`{module.name}`" in text):
            missing.append(relative)
    assert not missing, f"docs/architecture.md does not name {missing}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_path_a_document_names_exists(document):
    paths = named_paths(document)
    assert len(paths) > 20  # the extraction still finds the paths
    outside = [
        path for path in paths if path.startswith("../") or (path.startswith("/") and not path.startswith(SYSTEM))
    ]
    assert not outside, f"{document.name} points outside the repository: {outside}"
    missing = [path for path in paths if not path.startswith(GENERATED + SYSTEM) and not exists_in_tree(path)]
    assert not missing, f"{document.name} names what the tree does not hold: {missing}"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_rule_a_document_names_is_one(document):
    named = named_rules(document)
    unknown = [f"{area}/{rule}" for area, rule in named if not fnmatch.filter(rules_of(area), rule)]
    assert not unknown, f"{document.name} names rules that no source defines: {unknown}"


def test_the_checks_find_what_is_wrong(tmp_path):
    """The extraction itself: a made-up module, path and rule are caught."""
    page = tmp_path / "page.md"
    page.write_text(
        "See `harness/cuconform/nothing.py`, `../shared/DESIGN.md` and "
        "`atomics/AtomicInc.StoresZeroOnceOldReachesBound`; `reports/<run>/` is a placeholder.\n"
    )
    assert named_paths(page) == ["harness/cuconform/nothing.py", "../shared/DESIGN.md"]
    assert not exists_in_tree("harness/cuconform/nothing.py") and exists_in_tree("mutation/campaign.py")
    assert named_rules(page) == [("atomics", "AtomicInc.StoresZeroOnceOldReachesBound")]
    assert "AtomicInc.StoresIncrementOrZeroReturnsOld" in rules_of("atomics")
