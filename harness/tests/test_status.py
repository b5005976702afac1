"""The verdict table of docs/architecture.md, every cell."""

import pytest

from cuconform.status import Expected, Status, Verdict, classify, final_verdict

P, F, C, T, S = Status.PASS, Status.FAIL, Status.CRASH, Status.TIMEOUT, Status.SKIP

TABLE = {
    # raw status: verdict with no entry, expected fail, crash, timeout, flake, skip
    P: ("pass", "xpass", "xpass", "xpass", "pass", "skip"),
    F: ("fail", "xfail", "fail", "fail", "flake", "skip"),
    C: ("crash", "crash", "xfail", "crash", "flake", "skip"),
    T: ("timeout", "timeout", "timeout", "xfail", "flake", "skip"),
    S: ("skip", "skip", "skip", "skip", "skip", "skip"),
    None: ("missing", "missing", "missing", "missing", "missing", "skip"),
}
EXPECTED = (None, Expected.FAIL, Expected.CRASH, Expected.TIMEOUT, Expected.FLAKE, Expected.SKIP)


@pytest.mark.parametrize("status", list(TABLE), ids=lambda s: s.value if s else "none")
@pytest.mark.parametrize("expected", EXPECTED, ids=lambda e: e.value if e else "none")
def test_every_cell_of_the_verdict_table(status, expected):
    assert classify(status, expected).value == TABLE[status][EXPECTED.index(expected)]


def test_the_table_covers_every_status_and_every_expectation():
    assert set(TABLE) == set(Status) | {None}
    assert set(EXPECTED) == set(Expected) | {None}


def test_unexpected_verdicts_are_the_ones_that_fail_a_run():
    assert {v for v in Verdict if v.unexpected} == {
        Verdict.FAIL,
        Verdict.CRASH,
        Verdict.TIMEOUT,
        Verdict.XPASS,
        Verdict.MISSING,
    }


@pytest.mark.parametrize(
    "attempts, expected, verdict",
    [
        ([F, P], None, Verdict.FLAKE),
        ([C, P], None, Verdict.FLAKE),
        ([T, S], None, Verdict.FLAKE),
        ([F, F], None, Verdict.FAIL),
        ([F, C], None, Verdict.FAIL),
        ([P, F], Expected.FAIL, Verdict.FLAKE),  # xpass, then the expected failure
        ([P, P], Expected.FAIL, Verdict.XPASS),
        ([None, P], None, Verdict.FLAKE),
        ([None, None], None, Verdict.MISSING),
        ([], None, Verdict.MISSING),
        ([P], None, Verdict.PASS),
    ],
)
def test_a_rerun_tells_flakes_from_failures(attempts, expected, verdict):
    assert final_verdict(attempts, expected) is verdict


def test_an_unknown_expected_status_is_refused_where_the_toml_is_read():
    with pytest.raises(ValueError):
        Expected("xfail")
