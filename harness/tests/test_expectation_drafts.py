"""Draft entries (draft = true): what the parser accepts, and how triage writes them into a human file without
changing a line of it."""

from __future__ import annotations

import shutil
import tomllib

import pytest

from conftest import REPO
from cuconform.draft_entries import Draft, insert, render, toml_string, write
from cuconform.expectations import ExpectationError, load_file, parse_text

DRAFT = '[[expect]]\ntests = ["warp/T.X"]\nstatus = "fail"\ndraft = true\nevidence = "observed: 1 != 2"\n'


def draft(area: str = "warp", tests: tuple[str, ...] = ("warp/Types/MatchAllSync.Exited/*",), **more) -> Draft:
    return Draft(
        file="sm_90",
        area=area,
        tests=tests,
        status="fail",
        comment="Draft by triage.\nReview it.",
        evidence='NVIDIA H200 (CC 9.0), 2026-11-28; observed: "mask" \\ 0x00ffffde',
        **more,
    )


def test_a_draft_needs_no_reason_and_every_other_entry_does(tmp_path):
    [entry] = parse_text(tmp_path / "sm_90.toml", DRAFT).expectations
    assert entry.draft and entry.reason == "" and entry.evidence == "observed: 1 != 2"
    reviewed = DRAFT.replace("draft = true", 'reason = "5.4.6.3 says so"')
    assert not parse_text(tmp_path / "sm_90.toml", reviewed).expectations[0].draft
    with pytest.raises(ExpectationError, match=r"sm_90.toml:1: every entry needs a non-empty 'reason' \(a draft "):
        parse_text(tmp_path / "sm_90.toml", DRAFT.replace("draft = true\n", ""))
    with pytest.raises(ExpectationError, match="'draft' must be true or false, not 'yes'"):
        parse_text(tmp_path / "sm_90.toml", DRAFT.replace("draft = true", 'draft = "yes"'))
    with pytest.raises(ExpectationError, match="every entry needs a non-empty 'evidence'"):
        parse_text(tmp_path / "sm_90.toml", DRAFT.replace('evidence = "observed: 1 != 2"', 'evidence = " "'))


@pytest.mark.parametrize(
    "value",
    ['a "quoted" \\ back', "tab\tnewline\nnul\x00esc\x1bdel\x7f", "lone \ud800 surrogate", "unicode ✓ ünïcödé", ""],
)
def test_toml_string_reads_back_as_the_same_text(value):
    assert tomllib.loads(f"v = {toml_string(value)}")["v"] == value.replace("\ud800", "\ufffd")


def test_a_draft_goes_under_its_area_marker_and_every_line_people_wrote_stays(tmp_path):
    path = tmp_path / "sm_90.toml"
    shutil.copy(REPO / "expectations" / "sm_90.toml", path)
    old = path.read_text()
    before = load_file(path).expectations
    [added] = write(path, [draft()])
    new = path.read_text()
    block = render(draft())
    assert new.replace("\n" + block, "", 1) == old  # the block inserted whole, nothing else changed
    lines = new.splitlines()
    warp, functions = lines.index("# --- warp ---"), lines.index("# --- functions ---")
    assert warp < added.line - 1 < functions  # under the warp marker, after its last entry
    assert lines[added.line - 4 : added.line] == ["", "# Draft by triage.", "# Review it.", "[[expect]]"]
    after = load_file(path).expectations
    assert len(after) == len(before) + 1 and added.draft and added.tests == draft().tests
    assert [(e.tests, e.reason, e.evidence) for e in after if e.line != added.line] == [
        (e.tests, e.reason, e.evidence) for e in before
    ]


def test_a_compile_time_draft_goes_under_the_compile_time_marker_of_common(tmp_path):
    path = tmp_path / "common.toml"
    shutil.copy(REPO / "expectations" / "common.toml", path)
    old = path.read_text()
    entry = Draft(
        file="common",
        area="compile",
        tests=("compile/A.B*",),
        status="fail",
        comment="c",
        evidence="nvcc 13.0.88",
        compiler="nvcc",
        compiler_versions="==13.0.88",
    )
    [added] = write(path, [entry])
    new = path.read_text()
    assert new.replace("\n" + render(entry), "", 1) == old
    lines = new.splitlines()
    compile_marker = next(i for i, line in enumerate(lines) if line.startswith("# --- Compile-time rules"))
    next_marker = next(i for i, line in enumerate(lines) if i > compile_marker and line.startswith("# --- "))
    assert compile_marker < added.line - 1 < next_marker
    assert (added.compiler, added.compiler_versions) == ("nvcc", "==13.0.88")


def test_an_area_without_a_marker_gets_one_at_the_end_and_a_new_file_a_header(tmp_path):
    text = "# mine\n\n# --- warp ---\n\n" + DRAFT.replace("draft = true", 'reason = "r"')
    assert insert(text, "async", "BLOCK\n") == text + "\n\n# --- async ---\n\nBLOCK\n"
    assert insert("# no newline", "async", "BLOCK\n") == "# no newline\n\n\n# --- async ---\n\nBLOCK\n"
    path = tmp_path / "sm_121.toml"
    [added] = write(path, [draft(area="async", tests=("async/Tma.Load",))])
    text = path.read_text()
    assert text.startswith("# Expectations for compute capability 12.1 (lookup chain: sm_121 -> sm_12x -> common).\n")
    assert "\n# --- async ---\n\n# Draft by triage.\n" in text and added.tests == ("async/Tma.Load",)


def test_several_drafts_of_one_area_keep_their_order(tmp_path):
    path = tmp_path / "sm_90.toml"
    path.write_text("# --- warp ---\n\n# --- functions ---\n")
    first, second = draft(tests=("warp/A.B",)), draft(tests=("warp/C.D",))
    written = write(path, [first, second])
    assert [e.tests for e in written] == [("warp/A.B",), ("warp/C.D",)]
    assert path.read_text().index("warp/C.D") < path.read_text().index("# --- functions ---")
