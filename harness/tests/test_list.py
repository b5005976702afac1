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


def test_compare_lists_the_tests_whose_verdicts_differ(fake_build):
    import subprocess
    import sys

    from conftest import CONFORMANCE

    fake_build.area("alpha", "Fake.Pass1", "Fake.Fail1", "Fake.Skip1")
    first = fake_build.run()
    (fake_build.bin / "cuconform-alpha.tests").write_text("Fake.Pass1\nFake.Pass2\nFake.Skip1\n")
    (first.folder).rename(fake_build.reports / "first")
    second = fake_build.run()
    done = subprocess.run([sys.executable, str(CONFORMANCE), "compare", str(fake_build.reports / "first"),
                           str(second.folder / "results.json")], capture_output=True, text=True)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith("A  only: no GPU") and lines[1].startswith("B  only: no GPU")
    assert lines[2:] == ["alpha/Fake.Fail1  fail     -> -", "alpha/Fake.Pass2  -        -> pass", "2 of 4 tests differ"]
    same = subprocess.run([sys.executable, str(CONFORMANCE), "compare", str(second.folder), str(second.folder)],
                          capture_output=True, text=True)
    assert same.returncode == 0 and same.stdout.splitlines()[-1] == "0 of 3 tests differ"
    bad = subprocess.run([sys.executable, str(CONFORMANCE), "compare", str(fake_build.reports / "nope"),
                          str(second.folder)], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("cannot read")
