"""scripts/conformance list: one line per rule, without a GPU."""

import json


def test_one_line_per_rule_with_its_section_and_tests(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "P/Fake.PassP/0", "P/Fake.PassP/1", "P/Fake.PassP/2")
    fake_build.area("beta", "Fake.Skip1 host")
    done = fake_build.list()
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "alpha/Fake.Pass1  2.2.3  Fake.Pass1",
        "alpha/Fake.PassP  2.2.3  P/Fake.PassP/* (3 tests)",
        "beta/Fake.Skip1   2.2.3  Fake.Skip1",
    ]


def test_list_shapes_and_filters(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Fail1 exclusive")
    fake_build.area("beta", "Fake.Skip1 host")
    listed = fake_build.list("--tests", "--area", "beta").stdout.splitlines()
    assert listed == ["beta/Fake.Skip1  2.2.3  beta/Fake.Skip1"]
    assert fake_build.list("-v", "--rule", "*Fail*").stdout.splitlines() == [
        "alpha/Fake.Fail1  2.2.3  Fake.Fail1  Fake.Fail1 does what its name says"
    ]
    assert fake_build.list("--exclude-rule", "alpha/*").stdout.splitlines() == ["beta/Fake.Skip1  2.2.3  Fake.Skip1"]
    rows = [json.loads(line) for line in fake_build.list("--json", "-k", "Fail").stdout.splitlines()]
    assert rows == [
        {
            "id": "alpha/Fake.Fail1",
            "rule": "alpha/Fake.Fail1",
            "section": "2.2.3",
            "statement": "Fake.Fail1 does what its name says",
            "gpu": True,
            "exclusive": True,
            "param": None,
            "source": "/fake/fake.cu:10",
        }
    ]


def test_list_of_a_build_without_binaries_is_exit_2(tmp_path, fake_build):
    done = fake_build.list()
    assert done.returncode == 2 and "holds no suite binaries" in done.stderr


def test_a_reader_that_goes_away_is_no_error(fake_build):
    import subprocess
    import sys

    from conftest import CONFORMANCE

    fake_build.area("alpha", *[f"Fake.Pass{i}" for i in range(2000)])
    listing = subprocess.Popen(
        [sys.executable, str(CONFORMANCE), "list", "--tests", "--build-dir", str(fake_build.dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    listing.stdout.readline()
    listing.stdout.close()  # as `| head -1` does
    assert listing.wait(timeout=60) == 0
    assert b"Traceback" not in listing.stderr.read()


def test_a_section_not_in_the_registry_is_one_line_and_exit_2(fake_build):
    fake_build.area("alpha", "Fake.Pass1 section=5.4.5.1.3", "Fake.Pass2 section=PG12.9~99.1")
    says = (
        "alpha/Fake.Pass2 (/fake/fake.cu:10) cites section 'PG12.9 99.1', which is not in the section registry "
        "(spec/sections/)"
    )
    listed = fake_build.list()
    assert listed.returncode == 2 and len(listed.stderr.splitlines()) == 1 and listed.stderr.startswith(says)
    run = fake_build.run()  # a collection error, as for a test without a rule annotation
    assert run.code == 2 and says in run.stdout


def test_by_section_prints_the_table_of_contents_with_the_rules_under_each_heading(fake_build):
    fake_build.area(
        "alpha",
        "Fake.Pass1 section=5.4.5.1.3",
        "P/Fake.PassP/0 section=5.4.5.1.3",
        "P/Fake.PassP/1 section=5.4.5.1.3",
        "Fake.Pass2 section=5.4.5.1.4",
    )
    fake_build.area(
        "beta", "Fake.Pass3 section=PG12.9~17.1~Table~18", "Fake.Pass4 section=libcu++~atomic_ref", "Fake.Pass5"
    )
    done = fake_build.list("--by-section")
    assert done.returncode == 0, done.stderr
    lines = [" ".join(line.split()) for line in done.stdout.splitlines()]
    assert lines[0].startswith("(number only): CUDA Programming Guide, current edition") and lines[0].endswith(" 4")
    assert lines[1:8] == [
        "2.2 Writing CUDA SIMT Kernels 1",
        "2.2.3 GPU Device Memory Spaces 1",
        "5.4 C/C++ Language Extensions 3",
        "5.4.5 Atomic Functions 3",
        "5.4.5.1 Legacy Atomic Functions 3",
        "5.4.5.1.3 atomicInc() 2",  # Fake.Pass1 and Fake.PassP: a rule counts once, whatever its tests
        "5.4.5.1.4 atomicDec() 1",
    ]
    assert lines[8].startswith("PG12.9: CUDA C++ Programming Guide, Release 12.9") and lines[8].endswith(" 1")
    assert lines[9:12] == [
        "PG12.9 17 Mathematical Functions 1",
        "PG12.9 17.1 Standard Functions 1",
        "PG12.9 17.1 Table 18 Single-Precision Mathematical Standard Library Functions with Maximum ULP Error 1",
    ]
    assert lines[12].startswith("libcu++: ") and lines[13] == "libcu++ atomic_ref cuda::atomic_ref 1"
    indent = [len(line) - len(line.lstrip()) for line in done.stdout.splitlines()[1:8]]
    assert indent == [0, 2, 0, 2, 4, 6, 6]
