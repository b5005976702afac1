"""spec/: the documented per-CC values and the section registry."""

import subprocess
import sys

import pytest

from conftest import REPO
from cuconform import sections, values


def test_the_registry_holds_the_headings_rules_cite():
    registry = sections.load()
    for cited in ("5.4.5.1.3", "2.2.3.8", "PG12.9 6.2.8.5.1", "PG12.9 10.26.4", "PG12.9 6.2.8.7.1",
                  "PG12.9 18.5.22.6.1", "PG12.9 17.1 Table 18", "PG12.9 20.2", "libcu++ atomic_ref"):
        assert cited in registry, cited
    assert "PG12.9 99.1" not in registry and "atomic_ref" not in registry


def test_the_generated_registry_is_what_the_seeds_give():
    seeds = next((folder for folder in (REPO.parent / "shared" / "seeds", REPO.parents[1] / "shared" / "seeds")
                  if folder.is_dir()), None)
    if seeds is None:
        pytest.skip("no seeds beside the checkout")
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "spec-sections"), "--seeds", str(seeds), "--check"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_cc_values_write_one_row_per_scope(tmp_path):
    table = tmp_path / "cc_values.toml"
    table.write_text('columns = ["9.0", "10.x"]\n\n[warp_size]\nsource = "s"\nvalue = 32\n\n'
                     '[feature_x]\nsource = "s"\nvalues = { "9.0" = true, "10.x" = false }\n')
    rows = values.cxx_table(table).splitlines()[1:-1]
    assert rows == ['{"common", "warp_size", 32LL},', '{"sm_10x", "feature_x", 0LL},', '{"sm_90", "feature_x", 1LL},']
    table.write_text('columns = ["9.0"]\n\n[feature_x]\nsource = "s"\nvalues = { "9,0" = true }\n')
    with pytest.raises(values.SpecError, match=r"cc_values.toml:3: 'feature_x' has a value for '9,0'"):
        values.load(table)
