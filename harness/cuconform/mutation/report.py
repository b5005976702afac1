"""The `mutation` section of a campaign's results.json, and how summary.md, report.html and the console show it:
PART is the campaign's part of the readable reports (reports.ReportPart), handed to the core's report writers by
the campaign and by `scripts/conformance report`.

    "mutation": {
      "format": 1, "complete": true, "build_dir": ..., "timeout": 10, "profile": "quick", "baseline": "baseline",
      "equivalent_file": ".../equivalent.toml",
      "total": {"killed": 80, "survived": 3, "not applicable": 900, "invalid": 2, "equivalent": 4, "error": 0,
                "applicable": 89, "score": 0.9639},
      "areas": {"atomics": {... the same counts ..., "judges": 212}, ...},
      "host_side": {"streams": {... the counts of the runtime operators' mutants alone ...}, ...},
      "operators": [{"operator", "family", "seconds", "build_seconds", "run_seconds"}, ...],
      "mutants": [{"operator", "family", "area", "status", "objects", "sites", "killed_by", "killing_status",
                   "killers", "judges", "focused", "why", "invalid_objects", "seconds", "run"}, ...],
      "batches": [{"label", "mutants", "rebuilds", "rebuild_wall", "rebuild_cpu", "waited", "patch_seconds",
                   "focus_seconds", "focus_tests", "focus_binaries", "focus_runs", "whole_...": the same}, ...],
      "sampling": {"rate": 0.25, "seed": 0, "operators": [...], "described": "...",
                   "left_out": [{"operator", "area", "sites"}, ...]}
    }

A mutant the sample left out (sample.py) is in `sampling.left_out`, never in `mutants` nor in a count.

The rest of the document is the baseline run's results.json, so every reader of results.json reads a campaign's.
Rendering reads only the section (a document of an older or newer campaign renders what it has); every text goes
through the page's or the summary's own escaping.
"""

from __future__ import annotations

from cuconform.html_report import attr, text
from cuconform.mutation import outcome
from cuconform.mutation.outcome import MutantStatus, score_text, sites_text
from cuconform.mutation.plan import FORMAT
from cuconform.reports import ReportPart
from cuconform.summary import MAX_ROWS, cell, more, table

SURVIVED = MutantStatus.SURVIVED.value
HOST_SIDE_FAMILY = "runtime"
COLUMNS = [
    ("killed", "killed"),
    ("survived", "survived"),
    ("not applicable", "n/a"),
    ("invalid", "invalid"),
    ("equivalent", "equivalent"),
    ("error", "error"),
]


def mutation_section(records: list[dict], plan, equivalents) -> dict:
    """The section from the progress records (one per operator, campaign.Campaign.mutate)."""
    mutants = [mutant for record in records for mutant in record.get("mutants", [])]
    areas = {area: outcome.counts(m["status"] for m in mutants if m["area"] == area) for area in plan.areas}
    for area, counted in areas.items():
        judges = [m.get("judges") for m in mutants if m["area"] == area and m.get("judges") is not None]
        counted["judges"] = judges[0] if judges else None
    done = {record["operator"] for record in records}
    host = [m for m in mutants if is_host_side(m)]
    return {
        "format": FORMAT,
        "complete": all(name in done for name in plan.operators),
        "build_dir": str(plan.build_dir),
        "timeout": plan.timeout,
        "profile": plan.profile,
        "baseline": "baseline",
        "equivalent_file": str(equivalents.path),
        "total": outcome.counts(m["status"] for m in mutants),
        "areas": areas,
        # the same counts for the host-side (runtime) operators' mutants alone, per area where one was tried
        "host_side": {
            area: outcome.counts(m["status"] for m in host if m["area"] == area)
            for area in plan.areas
            if any(m["area"] == area for m in host)
        },
        "operators": [
            {key: record.get(key) for key in ("operator", "family", "seconds", "build_seconds", "run_seconds")}
            for record in records
        ],
        "mutants": mutants,
        "batches": list(
            {
                record["batch"]["label"]: record["batch"] for record in records if isinstance(record.get("batch"), dict)
            }.values()
        ),
        "sampling": {
            **plan.sample.header(),
            "described": plan.sample.describe(),
            "left_out": [left for record in records for left in record.get("sampled_out", [])],
        },
    }


def results_document(baseline: dict, records: list[dict], plan, equivalents) -> dict:
    """DIR/results.json: the baseline run's document with the campaign's `mutation` section, named after DIR."""
    environment = {**(baseline.get("environment") or {}), "run": f"{plan.output.name} (mutation campaign)"}
    return {**baseline, "environment": environment, "mutation": mutation_section(records, plan, equivalents)}


# --- reading a section ------------------------------------------------------------------------------------------


def is_host_side(mutant: dict) -> bool:
    """A mutant of a runtime operator (runtime_operators.py: its family starts with 'runtime')."""
    return str(mutant.get("family") or "").startswith(HOST_SIDE_FAMILY)


def section_of(results: dict) -> dict | None:
    section = results.get("mutation")
    return section if isinstance(section, dict) else None


def mutants_of(section: dict) -> list[dict]:
    return [m for m in section.get("mutants") or [] if isinstance(m, dict)]


def survivors(section: dict) -> list[dict]:
    """The surviving mutants: each one the suite did not notice, and which is not listed as equivalent."""
    return [m for m in mutants_of(section) if m.get("status") == SURVIVED]


def ranked(section: dict) -> list[dict]:
    """Every applicable mutant, the survivors first, then errors, invalid, equivalent and killed ones."""
    order = {SURVIVED: 0, "error": 1, "invalid": 2, "equivalent": 3, "killed": 4}
    return sorted(
        (m for m in mutants_of(section) if m.get("status") in order),
        key=lambda m: (order[m["status"]], str(m.get("area")), str(m.get("operator"))),
    )


def area_rows(section: dict, key: str = "areas") -> list[tuple[str, dict]]:
    areas = section.get(key) or {}
    return [(name, counted) for name, counted in sorted(areas.items()) if isinstance(counted, dict)]


def headline(section: dict) -> str:
    total = section.get("total") or {}
    text = (
        f"mutation score {score_text(total.get('score'))}: {total.get('killed', 0)} of "
        f"{total.get('killed', 0) + total.get('survived', 0)} scored mutants killed "
        f"({total.get('applicable', 0)} applicable, {total.get('equivalent', 0)} equivalent, "
        f"{total.get('invalid', 0)} invalid, {total.get('error', 0)} error)"
    )
    sampling = section.get("sampling") or {}
    if sampling.get("left_out"):
        text += f"; {len(sampling['left_out'])} mutants left out by the sample: {sampling.get('described', '')}"
    return text if section.get("complete", True) else text + "; incomplete: not every operator ran"


def what_happened(mutant: dict) -> str:
    """A mutant's outcome in a few words: its killing test, or why it was not scored."""
    if mutant.get("killed_by"):
        return f"{mutant['killed_by']} ({mutant.get('killing_status') or 'fail'})"
    if mutant.get("why"):
        return str(mutant["why"])
    if mutant.get("status") == SURVIVED and mutant.get("run") == "focused":
        return (
            f"its {mutant.get('focused', '?')} focused tests passed again (--focus-only: the rest of the area's "
            f"{mutant.get('judges', '?')} did not run)"
        )
    if mutant.get("status") == SURVIVED:
        return f"all {mutant.get('judges', '?')} passing tests passed again"
    return ""


# --- the console ------------------------------------------------------------------------------------------------


def console_lines(section: dict) -> list[str]:
    rows = area_rows(section)
    width = max([len(name) for name, _ in rows] + [4])
    lines = [
        headline(section),
        f"  {'area':{width}}  " + "  ".join(f"{short:>8}" for _, short in COLUMNS) + "     score",
    ]
    for name, counted in rows:
        lines.append(
            f"  {name:{width}}  "
            + "  ".join(f"{counted.get(status, 0):>8}" for status, _ in COLUMNS)
            + f"  {score_text(counted.get('score')):>8}"
        )
    host = area_rows(section, "host_side")
    if host:
        lines.append("  host-side (runtime operators) alone:")
        for name, counted in host:
            lines.append(
                f"  {name:{width}}  "
                + "  ".join(f"{counted.get(status, 0):>8}" for status, _ in COLUMNS)
                + f"  {score_text(counted.get('score')):>8}"
            )
    alive = survivors(section)
    if alive:
        lines.append(f"survived ({len(alive)}): each needs a rule that kills it, or its area README says why not")
        lines += [
            f"  {m.get('operator')} in {m.get('area')}: {sites_text(m.get('sites', '?'))} in "
            f"{', '.join(m.get('objects') or []) or '?'}"
            for m in alive
        ]
    return lines


# --- report.html and summary.md ---------------------------------------------------------------------------------

# The colour of a surviving mutant's or an error's status (the page's own colour for a failure).
_STYLE = (
    "<style>#mutation tr.m-survived td:first-child, #mutation tr.m-error td:first-child "
    "{ color: var(--fail); font-weight: 600; }</style>"
)


def html_section(results: dict) -> str:
    """The Mutation section of a campaign's report.html: its score per area, the surviving mutants first, then every
    other applicable mutant with what killed it or why it was not scored. Nothing for a run that is no campaign."""
    section = section_of(results)
    if section is None:
        return ""
    head = "".join(f"<th>{text(short)}</th>" for _, short in COLUMNS)
    rows = "\n".join(
        f"<tr><th>{text(name)}</th>"
        + "".join(f'<td class="n">{counted.get(status, 0):,}</td>' for status, _ in COLUMNS)
        + f'<td class="n"><b>{text(score_text(counted.get("score")))}</b></td></tr>'
        for name, counted in area_rows(section)
    )
    host = "\n".join(
        f"<tr><th>{text(name)}</th>"
        + "".join(f'<td class="n">{counted.get(status, 0):,}</td>' for status, _ in COLUMNS)
        + f'<td class="n"><b>{text(score_text(counted.get("score")))}</b></td></tr>'
        for name, counted in area_rows(section, "host_side")
    )
    host_table = (
        f'<h3>Host-side operators <small>the runtime operators\' mutants alone</small></h3>\n<div class="scroll">'
        f'<table class="matrix">\n<thead><tr><th>area</th>{head}<th>score</th></tr></thead>\n<tbody>\n{host}\n'
        "</tbody></table></div>\n"
        if host
        else ""
    )
    mutants = "\n".join(
        f'<tr class="m-{attr(m.get("status", ""))}"><td>{text(m.get("status", "?"))}</td>'
        f'<td class="tid">{text(m.get("operator", "?"))}</td><td>{text(m.get("family", ""))}</td>'
        f'<td>{text(m.get("area", "?"))}</td><td class="n">{text(m.get("sites", ""))}</td>'
        f'<td class="msg">{text(what_happened(m))}</td></tr>'
        for m in ranked(section)
    )
    alive = len(survivors(section))
    css = ' class="attention"' if alive else ""
    return (
        f'<section id="mutation"{css}>\n{_STYLE}\n<h2>Mutation <small>{text(headline(section))}</small></h2>\n'
        f'<div class="scroll"><table class="matrix">\n<thead><tr><th>area</th>{head}<th>score</th></tr></thead>'
        f"\n<tbody>\n{rows}\n</tbody></table></div>\n{host_table}"
        f'<details class="output"{" open" if alive else ""}><summary>Mutants <small>survived first; killed by '
        'the first test that noticed, or why not scored</small></summary><div class="scroll tall">'
        '<table class="list"><thead><tr><th>status</th><th>operator</th><th>family</th><th>area</th>'
        f"<th>sites</th><th>killed by, or why</th></tr></thead><tbody>\n{mutants}\n</tbody></table></div>"
        "</details>\n</section>"
    )


def summary_lines(results: dict) -> list[str]:
    """A campaign's score in summary.md: the surviving mutants first, then one row per area; nothing for a run that
    is no campaign."""
    section = section_of(results)
    if section is None:
        return []
    lines = ["", f"#### Mutation: {cell(headline(section), 300)}", ""]
    alive = survivors(section)
    if alive:
        lines += [f"Survived ({len(alive)}), each needs a rule that kills it or its area README says why not:", ""]
        lines += table(
            ["operator", "area", "sites", "objects"],
            [
                [
                    cell(m.get("operator", "?")),
                    cell(m.get("area", "?")),
                    str(m.get("sites", "?")),
                    cell(", ".join(m.get("objects") or [])),
                ]
                for m in alive[:MAX_ROWS]
            ],
        )
        lines += more(len(alive)) + [""]
    lines += table(
        ["area", *(short for _, short in COLUMNS), "score"],
        [
            [cell(name), *(f"{counted.get(status, 0):,}" for status, _ in COLUMNS), score_text(counted.get("score"))]
            for name, counted in area_rows(section)
        ],
    )
    host = area_rows(section, "host_side")
    if host:
        lines += ["", "Host-side (runtime) operators alone:", ""]
        lines += table(
            ["area", *(short for _, short in COLUMNS), "score"],
            [
                [
                    cell(name),
                    *(f"{counted.get(status, 0):,}" for status, _ in COLUMNS),
                    score_text(counted.get("score")),
                ]
                for name, counted in host
            ],
        )
    equivalent = [m for m in mutants_of(section) if m.get("status") == "equivalent"]
    if equivalent:
        lines += ["", f"Equivalent ({len(equivalent)}), not scored:", ""]
        lines += [
            f"- {cell(m.get('operator', '?'))} in {cell(m.get('area', '?'))}: {cell(m.get('why', ''))}"
            for m in equivalent[:MAX_ROWS]
        ] + more(len(equivalent))
    return lines


PART = ReportPart(html=html_section, markdown=summary_lines)
