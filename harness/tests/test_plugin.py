"""The plugin used from pytest directly: collection, node ids, markers, keywords."""

import pytest

from conftest import H100, REPO


@pytest.fixture
def plugin_env(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(REPO / "harness"))


def test_collection_gives_one_item_per_test_with_usable_node_ids(fake_build, pytester, plugin_env):
    fake_build.area("alpha", "Fake.Pass1", "P/Fake.PassP/0", "Fake.Skip1 host")
    result = pytester.runpytest("-p", "cuconform.plugin", "--collect-only", "-q", str(fake_build.bin))
    assert result.ret == 0
    nodeids = [line for line in result.outlines if "::" in line]
    assert [n.split("::", 1)[1] for n in nodeids] == ["Fake.Pass1", "P/Fake.PassP/0", "Fake.Skip1"]
    assert all(n.split("::")[0].endswith("bin/cuconform-alpha") for n in nodeids)


# What a selection runs, of the tests of cuconform-alpha below.
SELECTIONS = [
    (["-m", "not gpu"], ["Pass2"]),
    (["-m", "exclusive"], ["Pass3"]),
    (["-m", "isolated"], ["Pass4"]),
    (["-m", "child_processes"], ["Pass5"]),
    # a run without the rules that need processes of their own
    (["-m", "not isolated and not child_processes", "-k", "Pass"], ["Pass1", "Pass2", "Pass3"]),
    (["-k", "Pass and not Pass3"], ["Pass1", "Pass2", "Pass4", "Pass5"]),
]


def test_markers_and_keywords_select(fake_build, pytester, plugin_env):
    tests = ["Fake.Pass1", "Fake.Fail1", "Fake.Pass2 host", "Fake.Pass3 exclusive", "Fake.Pass4 isolated"]
    fake_build.area("alpha", *tests, "Fake.Pass5 child_processes")
    binary = str(fake_build.bin / "cuconform-alpha")
    for selection, passed in SELECTIONS:
        result = pytester.runpytest("-p", "cuconform.plugin", "-v", *selection, binary)
        result.assert_outcomes(passed=len(passed), deselected=6 - len(passed))
        ran = sorted(line.split("::", 1)[1].split()[0] for line in result.outlines if " PASSED" in line)
        assert ran == [f"Fake.{name}" for name in passed], selection
    result = pytester.runpytest("-p", "cuconform.plugin", binary + "::Fake.Fail1")
    result.assert_outcomes(failed=1)
    assert result.ret == 1


def test_without_suite_binaries_the_plugin_stays_out_of_the_way(pytester, plugin_env):
    pytester.makepyfile("def test_plain():\n    assert True\n")
    result = pytester.runpytest("-p", "cuconform.plugin")
    result.assert_outcomes(passed=1)


def test_bad_option_values_name_their_source(fake_build, pytester, plugin_env):
    fake_build.area("alpha", "Fake.Pass1")
    result = pytester.runpytest("-p", "cuconform.plugin", "--cuconform-timeout", "-1", str(fake_build.bin))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--cuconform-timeout=-1: must be a number of seconds greater than 0" in result.stderr.str()
    ini = pytester.makeini("[pytest]\ncuconform_profile = nightly\n")
    result = pytester.runpytest("-p", "cuconform.plugin", "-c", str(ini), str(fake_build.bin))
    assert "ini option cuconform_profile=nightly: must be one of quick, full" in result.stderr.str()


def test_an_xfail_report_carries_its_reason_not_a_formatted_traceback(fake_build, pytester, plugin_env):
    # pytest formats a failure's traceback from the source files even for an xfail, whose report never shows it:
    # 0.1 s per xfail, most of the harness's own time on the H100. The plugin gives the reason instead.
    fake_build.area("alpha", "Fake.FailKnown")
    fake_build.devices(H100)
    fake_build.expect(
        "sm_90",
        '[[expect]]\ntests = ["alpha/Fake.FailKnown"]\nstatus = "fail"\n'
        'reason = "the guide says 1"\nevidence = "H100, 2026-11-26"\n',
    )
    reports = pytester.inline_run(
        "-p", "cuconform.plugin", "--cuconform-expectations", str(fake_build.expectations), str(fake_build.bin)
    ).getreports("pytest_runtest_logreport")
    (call,) = [report for report in reports if report.when == "call"]
    assert call.skipped and call.wasxfail.startswith("the guide says 1 [H100, 2026-11-26]")
    assert isinstance(call.longrepr, str) and "Traceback" not in call.longrepr


def test_an_empty_selection_names_the_filters_that_emptied_it(fake_build, pytester, plugin_env):
    fake_build.area("alpha", "Fake.Pass1")
    result = pytester.runpytest("-p", "cuconform.plugin", "--cuconform-rule", "zzz*", "-k", "Pass", str(fake_build.bin))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "ERROR: nothing matched the filters given: --rule=zzz*, -k Pass select no test" in result.stderr.str()


def test_the_plugin_leaves_out_what_exclude_rule_names(fake_build, pytester, plugin_env):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Pass2", "Fake.Fail1")
    result = pytester.runpytest(
        "-p", "cuconform.plugin", "--cuconform-exclude-rule", "alpha/Fake.Fail1", str(fake_build.bin)
    )
    assert result.ret == pytest.ExitCode.OK
    result.assert_outcomes(passed=2, deselected=1)
