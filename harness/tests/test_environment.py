"""What a run records of the checkout it ran from (environment.py): its commit, and the tracked files that differ
from it, so that a run of changes not committed yet does not pass for a run of the commit."""

import subprocess

import pytest

from cuconform import environment
from cuconform.overview import commit_text


@pytest.fixture(autouse=True)
def no_look_begun(monkeypatch):
    monkeypatch.setattr(environment, "_modified_look", None)  # as a run that did not call look_at_checkout()


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def checkout(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    for name in ("a.cu", "b.h"):
        (repo / name).write_text("x\n")
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    return repo


def test_a_clean_checkout_has_no_modified_file(tmp_path, monkeypatch):
    monkeypatch.setattr(environment, "REPO", checkout(tmp_path))
    assert environment.git_modified() == {"count": 0, "files": []}
    assert len(environment.git_commit()) == 40


def test_modified_tracked_files_are_named_and_untracked_ones_are_not(tmp_path, monkeypatch):
    repo = checkout(tmp_path)
    (repo / "b.h").write_text("y\n")
    (repo / "a.cu").unlink()
    (repo / "new.txt").write_text("untracked\n")
    monkeypatch.setattr(environment, "REPO", repo)
    assert environment.git_modified() == {"count": 2, "files": ["a.cu", "b.h"]}


def test_outside_a_checkout_nothing_is_claimed(tmp_path, monkeypatch):
    monkeypatch.setattr(environment, "REPO", tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert environment.git_modified() is None and environment.git_commit() is None


def test_the_overview_says_when_the_commit_was_not_what_ran():
    commit = "190f7422ac71f5d8523f29cb412062dd761f94a6"
    assert commit_text({"cuconform_commit": commit, "cuconform_modified": {"count": 0, "files": []}}) == commit
    assert commit_text({"cuconform_commit": commit, "cuconform_modified": {"count": 3, "files": ["x"]}}) == (
        f"{commit} with 3 modified files (not committed)"
    )
    assert commit_text({"cuconform_commit": commit}) == commit  # results.json of runs before the field
    assert commit_text({}) == "-"


def test_a_look_begun_at_the_start_gives_the_same_answer(tmp_path, monkeypatch):
    repo = checkout(tmp_path)
    (repo / "b.h").write_text("y\n")
    monkeypatch.setattr(environment, "REPO", repo)
    environment.look_at_checkout()
    assert environment.git_modified() == {"count": 1, "files": ["b.h"]}
