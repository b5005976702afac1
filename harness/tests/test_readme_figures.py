"""README.md's figures that the tree determines (scripts/readme-figures): the compile-time cases and scripts/test's
sample of them, the mutation operators and their sample, the defaults of the options table."""

import subprocess
import sys

from conftest import REPO

README_FIGURES = REPO / "scripts" / "readme-figures"


def test_readme_states_the_figures_the_tree_gives():
    done = subprocess.run([sys.executable, str(README_FIGURES), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_stale_figure_is_caught_and_write_corrects_it(tmp_path):
    readme = tmp_path / "README.md"
    text = (REPO / "README.md").read_text(encoding="utf-8")
    readme.write_text(text.replace("| `--timeout` | 60 s |", "| `--timeout` | 90 s |"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(README_FIGURES), "--check", "--readme", str(readme)], capture_output=True, text=True
    )
    assert done.returncode == 1 and "--timeout's default: the tree gives 60; README says 90" in done.stderr
    subprocess.run(
        [sys.executable, str(README_FIGURES), "--write", "--readme", str(readme)], check=True, capture_output=True
    )
    assert readme.read_text(encoding="utf-8") == text
