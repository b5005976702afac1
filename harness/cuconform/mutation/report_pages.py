"""A campaign's part of report.html and summary.md: PART (reports.ReportPart), handed to the core's report writers by
the campaign and by `scripts/conformance report`. Both show the score per area with its answered and unanswered
survivors, the suite's view (the operators killed in some area), the surviving mutants with their answers and where
their operator is killed, the stale answers, the equivalent mutants and the time per area (report.py reads the
section; views.py makes the figures)."""

from __future__ import annotations

from cuconform.html_report import attr, text
from cuconform.mutation import views
from cuconform.mutation.outcome import score_text
from cuconform.mutation.report import (
    COLUMNS,
    answer_text,
    answer_why,
    answers_line,
    area_rows,
    headline,
    mutants_of,
    ranked,
    section_of,
    stale_answers,
    stale_text,
    suite_line,
    unanswered_first,
    what_happened,
)
from cuconform.reports import ReportPart
from cuconform.summary import MAX_ROWS, cell, more, table

ANSWER_COLUMNS = [("answered", "answered"), ("unanswered", "unanswered")]
TIME_NOTE = (
    "test s: the seconds of its mutants' tests (the harness runs several test processes on the GPU at once); "
    "device s: the harness runs' wall time shared out by test seconds"
)


def _with_time(results: dict) -> dict | None:
    """The campaign's section, with its time made from its timings when it was written without (an older one)."""
    section = section_of(results)
    if section is None or section.get("time"):
        return section
    return {**section, "time": views.time_view(section, results.get("environment") or {})}


# --- report.html ------------------------------------------------------------------------------------------------

# The colour of a surviving mutant's or an error's status (the page's own colour for a failure).
_STYLE = (
    "<style>#mutation tr.m-survived td:first-child, #mutation tr.m-error td:first-child, #mutation td.m-no "
    "{ color: var(--fail); font-weight: 600; }</style>"
)


def _counts_row(name: str, counted: dict, extra: str = "") -> str:
    return (
        f"<tr><th>{text(name)}</th>"
        + "".join(f'<td class="n">{counted.get(status, 0):,}</td>' for status, _ in COLUMNS)
        + f'<td class="n"><b>{text(score_text(counted.get("score")))}</b></td>{extra}</tr>'
    )


def _table(head: list[str], rows: list[str], css: str = "matrix") -> str:
    header = "".join(f"<th>{text(name)}</th>" for name in head)
    return (
        f'<div class="scroll"><table class="{css}">\n<thead><tr>{header}</tr></thead>\n<tbody>\n'
        + "\n".join(rows)
        + "\n</tbody></table></div>\n"
    )


def _area_table(section: dict) -> str:
    answered = views.area_answers(section)
    seconds = (section.get("time") or {}).get("areas") or {}
    rows = []
    for name, counted in area_rows(section):
        view = answered.get(name) or {}
        extra = (
            "".join(f'<td class="n">{view.get(key, 0):,}</td>' for key, _ in ANSWER_COLUMNS)
            + (f"<td>{'yes' if view.get('done') else ''}</td>" if view.get("done") else '<td class="m-no">no</td>')
            + f'<td class="n">{(seconds.get(name) or {}).get("seconds", 0):,.1f}</td>'
        )
        rows.append(_counts_row(name, counted, extra))
    head = ["area", *(short for _, short in COLUMNS), "score", "answered", "unanswered", "done", "device s"]
    return _table(head, rows)


def _survivor_table(section: dict) -> str:
    suite = views.suite_view(section)
    rows = [
        f'<tr class="m-survived"><td class="tid">{text(m.get("operator", "?"))}</td><td>{text(m.get("area", "?"))}'
        f'</td><td class="n">{text(m.get("sites", ""))}</td>'
        f"<td>{text((m.get('answer') or {}).get('answer', 'unanswered'))}</td>"
        f'<td class="msg">{text(answer_why(m["answer"]) if m.get("answer") else "")}</td>'
        f'<td class="msg">{text(views.killed_elsewhere(suite, str(m.get("operator"))))}</td></tr>'
        for m in unanswered_first(section)
    ]
    return _table(["operator", "area", "sites", "answer", "why", "the same operator elsewhere"], rows, "list")


def _time_table(section: dict) -> str:
    time = section.get("time") or {}
    rows = [
        f'<tr><th>{text(name)}</th><td class="n">{view.get("mutants", 0):,}</td>'
        f'<td class="n">{view.get("test_seconds", 0):,.1f}</td><td class="n">{view.get("seconds", 0):,.1f}</td></tr>'
        for name, view in (time.get("areas") or {}).items()
    ]
    return (
        f"<p>{text(views.time_line(time))}; {text(TIME_NOTE)}</p>\n"
        + _table(["area", "mutants run", "test s", "device s"], rows)
        if time
        else ""
    )


def html_section(results: dict) -> str:
    """The Mutation section of a campaign's report.html: its score per area, the suite's view, the surviving mutants
    (the unanswered first) with their answers, then every other applicable mutant with what killed it or why it was
    not scored, and the time. Nothing for a run that is no campaign."""
    section = _with_time(results)
    if section is None:
        return ""
    host = [_counts_row(name, counted) for name, counted in area_rows(section, "host_side")]
    host_table = (
        "<h3>Host-side operators <small>the runtime operators' mutants alone</small></h3>\n"
        + _table(["area", *(short for _, short in COLUMNS), "score"], host)
        if host
        else ""
    )
    alive = unanswered_first(section)
    unanswered = sum(1 for m in alive if not m.get("answer"))
    stale = stale_answers(section)
    stale_list = (
        f"<h3>Stale answers <small>{len(stale)}: entries of survivors.toml that match no surviving mutant</small>"
        "</h3>\n<ul>" + "".join(f"<li>{text(stale_text(entry))}</li>" for entry in stale) + "</ul>\n"
        if stale
        else ""
    )
    mutants = "\n".join(
        f'<tr class="m-{attr(m.get("status", ""))}"><td>{text(m.get("status", "?"))}</td>'
        f'<td class="tid">{text(m.get("operator", "?"))}</td><td>{text(m.get("family", ""))}</td>'
        f'<td>{text(m.get("area", "?"))}</td><td class="n">{text(m.get("sites", ""))}</td>'
        f'<td class="msg">{text(what_happened(m))}</td></tr>'
        for m in ranked(section)
        if m.get("status") != "survived"
    )
    css = ' class="attention"' if unanswered else ""
    return (
        f'<section id="mutation"{css}>\n{_STYLE}\n<h2>Mutation <small>{text(headline(section))}</small></h2>\n'
        f"<p>{text(suite_line(section))}</p>\n<p>{text(answers_line(section))}</p>\n{_area_table(section)}"
        f"{host_table}"
        f'<details class="output"{" open" if unanswered else ""}><summary>Survived <small>{len(alive)}, the '
        "unanswered first; each answer from its area's suites/&lt;folder&gt;/survivors.toml, and where the suite "
        f"kills the same operator</small></summary>{_survivor_table(section)}</details>\n{stale_list}"
        '<details class="output"><summary>Other mutants <small>killed by the first test that noticed, or why not '
        'scored</small></summary><div class="scroll tall"><table class="list"><thead><tr><th>status</th>'
        "<th>operator</th><th>family</th><th>area</th><th>sites</th><th>killed by, or why</th></tr></thead><tbody>\n"
        f"{mutants}\n</tbody></table></div></details>\n{_time_table(section)}</section>"
    )


# --- summary.md -------------------------------------------------------------------------------------------------


def summary_lines(results: dict) -> list[str]:
    """A campaign's score in summary.md: the suite's view, the surviving mutants (unanswered first), one row per
    area, the stale answers, the equivalent mutants and the time; nothing for a run that is no campaign."""
    section = _with_time(results)
    if section is None:
        return []
    lines = ["", f"#### Mutation: {cell(headline(section), 300)}", ""]
    lines += [cell(suite_line(section), 1000), "", cell(answers_line(section), 300), ""]
    alive = unanswered_first(section)
    if alive:
        suite = views.suite_view(section)
        lines += [
            f"Survived ({len(alive)}), the unanswered first: each needs a rule that kills it, or an answer in the "
            "survivors.toml of its area's folder of suites/:",
            "",
        ]
        lines += table(
            ["operator", "area", "sites", "answer", "the same operator elsewhere"],
            [
                [
                    cell(m.get("operator", "?")),
                    cell(m.get("area", "?")),
                    str(m.get("sites", "?")),
                    cell(answer_text(m["answer"]) if m.get("answer") else "unanswered"),
                    cell(views.killed_elsewhere(suite, str(m.get("operator")), shown=1)),
                ]
                for m in alive[:MAX_ROWS]
            ],
        )
        lines += more(len(alive)) + [""]
    answered = views.area_answers(section)
    lines += table(
        ["area", *(short for _, short in COLUMNS), "score", "answered", "unanswered", "done"],
        [
            [
                cell(name),
                *(f"{counted.get(status, 0):,}" for status, _ in COLUMNS),
                score_text(counted.get("score")),
                *(f"{(answered.get(name) or {}).get(key, 0):,}" for key, _ in ANSWER_COLUMNS),
                "yes" if (answered.get(name) or {}).get("done") else "**no**",
            ]
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
    stale = stale_answers(section)
    if stale:
        lines += ["", f"Stale answers ({len(stale)}), entries of survivors.toml that match no surviving mutant:", ""]
        lines += [f"- {cell(stale_text(entry), 300)}" for entry in stale[:MAX_ROWS]] + more(len(stale))
    equivalent = [m for m in mutants_of(section) if m.get("status") == "equivalent"]
    if equivalent:
        lines += ["", f"Equivalent ({len(equivalent)}), not scored:", ""]
        lines += [
            f"- {cell(m.get('operator', '?'))} in {cell(m.get('area', '?'))}: {cell(m.get('why', ''))}"
            for m in equivalent[:MAX_ROWS]
        ] + more(len(equivalent))
    return lines + _time_lines(section)


def _time_lines(section: dict) -> list[str]:
    time = section.get("time") or {}
    if not time:
        return []
    lines = ["", f"{cell(views.time_line(time), 500)}; {cell(TIME_NOTE, 300)}:", ""]
    return lines + table(
        ["area", "mutants run", "test s", "device s"],
        [
            [
                cell(name),
                f"{view.get('mutants', 0):,}",
                f"{view.get('test_seconds', 0):,.1f}",
                f"{view.get('seconds', 0):,.1f}",
            ]
            for name, view in (time.get("areas") or {}).items()
        ],
    )


PART = ReportPart(html=html_section, markdown=summary_lines)
