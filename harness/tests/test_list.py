"""scripts/conformance list: one line per rule, without a GPU."""

import json


def test_one_line_per_rule_with_its_section_and_tests(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "P/Fake.PassP/0", "P/Fake.PassP/1", "P/Fake.PassP/2")
    fake_build.area("beta", "Fake.Skip1 host")
    done = fake_build.list()
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "alpha/Fake.Pass1  1.2.3  Fake.Pass1",
        "alpha/Fake.PassP  1.2.3  P/Fake.PassP/* (3 tests)",
        "beta/Fake.Skip1   1.2.3  Fake.Skip1",
    ]


def test_list_shapes_and_filters(fake_build):
    fake_build.area("alpha", "Fake.Pass1", "Fake.Fail1 exclusive")
    fake_build.area("beta", "Fake.Skip1 host")
    assert fake_build.list("--tests", "--area", "beta").stdout.splitlines() == ["beta/Fake.Skip1  1.2.3  beta/Fake.Skip1"]
    assert fake_build.list("-v", "--rule", "*Fail*").stdout.splitlines() == [
        "alpha/Fake.Fail1  1.2.3  Fake.Fail1  Fake.Fail1 does what its name says"]
    rows = [json.loads(line) for line in fake_build.list("--json", "-k", "Fail").stdout.splitlines()]
    assert rows == [{"id": "alpha/Fake.Fail1", "rule": "alpha/Fake.Fail1", "section": "1.2.3",
                     "statement": "Fake.Fail1 does what its name says", "gpu": True, "exclusive": True,
                     "param": None, "source": "/fake/fake.cu:10"}]


def test_list_of_a_build_without_binaries_is_exit_2(tmp_path, fake_build):
    done = fake_build.list()
    assert done.returncode == 2 and "holds no suite binaries" in done.stderr


def test_a_reader_that_goes_away_is_no_error(fake_build):
    import subprocess
    import sys

    from conftest import CONFORMANCE

    fake_build.area("alpha", *[f"Fake.Pass{i}" for i in range(2000)])
    listing = subprocess.Popen([sys.executable, str(CONFORMANCE), "list", "--tests", "--build-dir", str(fake_build.dir)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    listing.stdout.readline()
    listing.stdout.close()  # as `| head -1` does
    assert listing.wait(timeout=60) == 0
    assert b"Traceback" not in listing.stderr.read()
