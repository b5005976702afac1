"""A run on a compute capability new to the suite: what it was judged by, and what it lacks.

Deviations live in one expectation file per CC (sm_90.toml), with a family file (sm_9x.toml) and common.toml below
it; documented values live in spec/cc_values.toml, one column per CC of the guide's tables (or per family: 10.x).
On a CC without its own expectation file the run is judged by the rest of the chain only, so each deviation of that
GPU shows as unexpected (scripts/conformance triage drafts entries for them); and a value that spec/ has no column
for makes the rules that need it skip ("spec/cc_values.toml documents no 'KEY' for sm_121"). Every report says
both, from `section`:

    {"cc": "12.1", "expectation_files": ["common.toml"], "absent": ["sm_121.toml", "sm_12x.toml"],
     "spec_column": null, "undocumented": ["max_resident_blocks_per_sm", ...],
     "skipped": [{"id": "limits/Residency.BlocksPerSm", "key": "max_resident_blocks_per_sm"}, ...]}

None for a CC that has its own expectation file and a column in spec/, and for a run without a GPU.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path, PurePath

from cuconform.expectations import chain_names
from cuconform.values import CC_VALUES, SpecError, load

# How a rule says that spec/ has no value for this CC (suites/common/include/cuconform/documented.h).
_UNDOCUMENTED = re.compile(r"spec/cc_values\.toml documents no '([A-Za-z0-9_]+)'")
SHOWN = 8  # of each list, the console and summary.md name so many


def section(environment: dict, skipped: Iterable[tuple[str, str]], spec: Path = CC_VALUES) -> dict | None:
    """What a run on `environment`'s CC lacks; `skipped`: (test id, message) of its skipped tests."""
    cc = environment.get("compute_capability")
    if not cc or "." not in str(cc):
        return None
    used = [PurePath(str(path)).name for path in environment.get("expectation_chain") or []]
    absent = [f"{name}.toml" for name in chain_names(cc)[:-1] if f"{name}.toml" not in used]
    try:
        documented = load(spec)
    except SpecError:
        documented = {}
    columns = {column for value in documented.values() for column, _ in value.values}
    family = f"{cc.split('.')[0]}.x"
    column = cc if cc in columns else family if family in columns else None
    if f"{chain_names(cc)[0]}.toml" not in absent and column is not None:
        return None
    undocumented = [
        key
        for key, value in documented.items()
        if value.value is None and not any(c in (cc, family) for c, _ in value.values)
    ]
    skips = []
    for test_id, message in skipped:
        match = _UNDOCUMENTED.search(message or "")
        if match:
            skips.append({"id": test_id, "key": match.group(1)})
    return {
        "cc": cc,
        "expectation_files": used,
        "absent": absent,
        "spec_column": column,
        "undocumented": undocumented,
        "skipped": skips,
    }


def _named(items: list[str], shown: int | None) -> str:
    if shown is None or len(items) <= shown:
        return ", ".join(items)
    return ", ".join(items[:shown]) + f" and {len(items) - shown} more"


def heading(coverage: dict) -> str:
    """The title of the reports' section."""
    cc = coverage.get("cc", "?")
    unjudged = _own_file_absent(coverage)
    if coverage.get("spec_column") is None:
        return f"Compute capability {cc} is new " + ("to the suite and to spec/" if unjudged else "to spec/")
    return f"Compute capability {cc} is new to the suite"


def _own_file_absent(coverage: dict) -> bool:
    absent = coverage.get("absent") or []
    return bool(absent) and absent[0] == f"sm_{str(coverage.get('cc', '?')).replace('.', '')}.toml"


def lines(coverage: dict | None, shown: int | None = SHOWN) -> list[str]:
    """The few sentences every report gives (plain text; the console prints them, summary.md and report.html
    render them), naming `shown` items of each list (None: all)."""
    if not coverage:
        return []
    cc = coverage.get("cc", "?")
    used = " -> ".join(coverage.get("expectation_files") or []) or "no expectation file"
    absent = coverage.get("absent") or []
    if _own_file_absent(coverage):
        said = [
            f"compute capability {cc} has no expectation file of its own: judged by {used} (no "
            f"{', no '.join(absent)}), so each deviation of this GPU shows as unexpected until an entry records it "
            "(scripts/conformance triage reports/<run> drafts them)"
        ]
    else:
        said = [f"compute capability {cc}: judged by {used}"]
    undocumented = coverage.get("undocumented") or []
    column = coverage.get("spec_column")
    where = f"its column {column}" if column else f"no column for {cc} or its family"
    if undocumented:
        said.append(
            f"spec/cc_values.toml has {where}, and documents no value for {cc} of {len(undocumented)} "
            f"per-CC key(s): {_named(undocumented, shown)}"
        )
    else:
        said.append(f"spec/cc_values.toml has {where}: every per-CC value is documented for {cc}")
    skipped = coverage.get("skipped") or []
    if skipped:
        said.append(
            f"so {len(skipped)} test(s) skip for want of a documented value: "
            + _named([f"{s.get('id')} ({s.get('key')})" for s in skipped], shown)
        )
    elif undocumented:
        said.append("no test of this run skipped for want of them")
    return said
