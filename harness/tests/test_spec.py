"""spec/: the documented per-CC values and the section registry."""

import fnmatch
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from cuconform import catalog, expectations, sections, spec, values
from cuconform.stage_resolve import Judging, chain_of
from cuconform.status import Expected


def test_the_registry_holds_the_headings_rules_cite():
    registry = sections.load()
    for cited in (
        "5.4.5.1.3",
        "2.2.3.8",
        "PG12.9 6.2.8.5.1",
        "PG12.9 10.26.4",
        "PG12.9 6.2.8.7.1",
        "PG12.9 18.5.22.6.1",
        "PG12.9 17.1 Table 18",
        "PG12.9 20.2",
        "libcu++ atomic_ref",
    ):
        assert cited in registry, cited
    assert "PG12.9 99.1" not in registry and "atomic_ref" not in registry


def test_the_generated_registry_is_what_the_seeds_give():
    seeds = next(
        (
            folder
            for folder in (REPO.parent / "shared" / "seeds", REPO.parents[1] / "shared" / "seeds")
            if folder.is_dir()
        ),
        None,
    )
    if seeds is None:
        pytest.skip("no seeds beside the checkout")
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "spec-sections"), "--seeds", str(seeds), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_cc_values_write_one_row_per_scope(tmp_path):
    table = tmp_path / "cc_values.toml"
    table.write_text(
        'columns = ["9.0", "10.x"]\n\n[warp_size]\nsource = "s"\nvalue = 32\n\n'
        '[feature_x]\nsource = "s"\nvalues = { "9.0" = true, "10.x" = false }\n'
    )
    rows = values.cxx_table(table).splitlines()[1:-1]
    assert rows == ['{"common", "warp_size", 32LL},', '{"sm_10x", "feature_x", 0LL},', '{"sm_90", "feature_x", 1LL},']
    table.write_text('columns = ["9.0"]\n\n[feature_x]\nsource = "s"\nvalues = { "9,0" = true }\n')
    with pytest.raises(values.SpecError, match=r"cc_values.toml:3: 'feature_x' has a value for '9,0'"):
        values.load(table)


# --- one reader, one error class: every file of spec/ goes through cuconform.spec ----------------------------------


def test_every_reader_of_spec_reads_through_spec_py():
    """No module reads a file of spec/ with its own TOML parser or error class: spec.py is the one reader."""
    readers = [
        REPO / "harness" / "cuconform" / "values.py",
        REPO / "harness" / "cuconform" / "sections.py",
        REPO / "suites" / "litmus" / "outcomes_table.py",
        REPO / "suites" / "math" / "tools" / "bounds.py",
        REPO / "scripts" / "engine-tables",
    ]
    for path in readers:
        text = path.read_text(encoding="utf-8")
        assert "tomllib" not in text and "cuconform" in text and "spec" in text, path
        assert not re.search(r"^class \w+Error\(", text, re.MULTILINE), path


@pytest.mark.parametrize(
    "name, text, expected",
    [
        ("cc_values.toml", 'columns = ["9.0"]\n\n[x]\nsource = "s"\nvalue = \n', r"cc_values.toml:5: invalid TOML"),
        ("pg.toml", "[[document]]\nprefix = 1\n", r"pg.toml:1: every \[\[document\]\] needs"),
        (
            "dated_rules.toml",
            '\n[[rule]]\ntests = ["a/B*"]\nsince = "thirteen"\nsource = "s"\nwhy = "w"\n',
            r"dated_rules.toml:2: 'since' must be a toolkit release",
        ),
    ],
)
def test_a_malformed_spec_file_is_one_line_naming_file_and_line(tmp_path, name, text, expected):
    path = tmp_path / name
    path.write_text(text)
    read = {
        "cc_values.toml": values.load,
        "pg.toml": lambda p: sections.load(p.parent),
        "dated_rules.toml": spec.dated_rules,
    }[name]
    with pytest.raises(spec.SpecError, match=expected) as raised:
        read(path)
    assert "\n" not in str(raised.value)


def test_the_build_time_generators_stop_at_a_malformed_table_with_one_line(tmp_path):
    bad = tmp_path / "table.toml"
    bad.write_text('\n\n[[case]]\nshape = "MP"\nordering = "Relaxed"\nexpect = "sometimes"\n')
    environment = {"PYTHONPATH": str(REPO / "harness"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, str(REPO / "suites" / "litmus" / "outcomes_table.py"), str(bad)],
        capture_output=True,
        text=True,
        env=environment,
    )
    assert done.returncode == 2
    assert done.stderr == f"{bad}:3: 'expect' must be 'forbidden' or 'allowed', not 'sometimes'\n"
    bad.write_text(
        '[[single]]\nrule = "Expf"\n\n[[single]]\nrule = "exp_f"\nfunction = "f"\ndocumented = "d"\n'
        'source = "s"\ndevice = ["expf"]\nulp = 1\n'
    )
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "suites" / "math" / "tools" / "bounds.py"),
            str(bad),
            "--variant",
            "default",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        env=environment,
    )
    assert done.returncode == 2 and done.stderr.startswith(f"{bad}:1: [[single]] #1 (Expf): needs a non-empty")


# --- spec/dated_rules.toml: the toolkit a rule applies from ------------------------------------------------------


def test_every_dated_rule_names_compile_time_rules_that_exist():
    from cuconform_compile.cases import load_cases

    rules = {f"compile/{case.rule}[nvrtc]" for case in load_cases(REPO / "suites" / "compile")}
    dated = spec.dated_rules()
    assert dated, "spec/dated_rules.toml holds the versioned documentation"
    for rule in dated:
        for pattern in rule.tests:
            assert fnmatch.filter(rules, pattern), f"{rule.path.name}:{rule.line}: {pattern} matches no rule"


def test_a_dated_rule_skips_its_tests_for_an_older_toolkit_only():
    chain = expectations.Expectations([], expectations.dated_skips())
    test = "compile/CudaArch.ValueForSm88[nvrtc]"
    skip = chain.lookup(test, "nvrtc", "12.9", toolkit_version="12.9")
    assert skip is not None and skip.status is Expected.SKIP and skip.path == spec.DATED_RULES
    assert "holds from CUDA 13.0 on" in skip.reason and skip.reason.startswith("5.4.7.1: ")
    assert chain.lookup(test, "nvrtc", "13.0", toolkit_version="13.0") is None
    assert chain.lookup(test, "nvrtc", None) is None  # an unknown toolkit: the rule runs
    assert chain.stale([]) == []  # not an expectation entry: never stale


def test_expectations_hold_no_versioned_documentation():
    """What a toolkit release documents is spec/dated_rules.toml's: no expectation entry skips a dated rule."""
    dated = [pattern for rule in spec.dated_rules() for pattern in rule.tests]
    for file in expectations.load_directory(REPO / "expectations").values():
        for entry in file.expectations:
            assert not (entry.status is Expected.SKIP and set(entry.tests) & set(dated)), entry.where


def test_resolve_skips_a_dated_rule_by_the_toolkit_of_the_tests_own_compiler():
    """A compile-time test is judged by its compiler's release (NVRTC 12.9), a GPU test by the build's toolkit."""
    chain = chain_of({}, None)
    compile_case = catalog.TestCase(
        Path("/b/bin/cuconform-compile"),
        "CudaArch.ValueForSm88[nvrtc]",
        "CudaArch.ValueForSm88",
        "5.4.7.1",
        "s",
        False,
        False,
        compiler="nvrtc",
        compiler_version="12.9",
    )
    built_with_13 = Judging("nvcc", "13.0", None, "quick", toolkit_version="13.0")
    assert built_with_13.entry_for(chain, compile_case).status is Expected.SKIP  # NVRTC's own release decides
    newer = catalog.TestCase(
        Path("/b/bin/cuconform-compile"),
        "CudaArch.ValueForSm88[nvrtc]",
        "CudaArch.ValueForSm88",
        "5.4.7.1",
        "s",
        False,
        False,
        compiler="nvrtc",
        compiler_version="13.0",
    )
    assert built_with_13.entry_for(chain, newer) is None
