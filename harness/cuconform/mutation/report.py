"""The `mutation` section of a campaign's results.json, how to read one, and the console's lines for it
(report_pages.py renders it in summary.md and report.html).

    "mutation": {
      "format": 1, "complete": true, "build_dir": ..., "timeout": 10, "profile": "quick", "baseline": "baseline",
      "equivalent_file": ".../equivalent.toml",
      "total": {"killed": 80, "survived": 3, "not applicable": 900, "invalid": 2, "equivalent": 4, "error": 0,
                "applicable": 89, "score": 0.9639, "answered": 2, "unanswered": 1, "areas_done": 30, "areas": 33},
      "areas": {"atomics": {... the same counts ..., "judges": 212, "survived": 1, "answered": 1, "unanswered": 0,
                            "done": true}, ...},
      "host_side": {"streams": {... the counts of the runtime operators' mutants alone ...}, ...},
      "operators": [{"operator", "family", "seconds", "build_seconds", "run_seconds"}, ...],
      "mutants": [{"operator", "family", "area", "status", "objects", "sites", "killed_by", "killing_status",
                   "killers", "judges", "focused", "why", "invalid_objects", "seconds", "run", "calls" and
                   "changed" (a host-side mutant's calls per entry point, and those its operator changed, where the
                   library counted them), "settled_by": "census" (not applicable by the census, census.py: never run),
                   "answer": {"answer", "why", "rule", "file", "line"} (a survivor that survivors.toml answers)}, ...],
      "batches": [{"label", "mutants", "rebuilds", "rebuild_wall", "rebuild_cpu", "waited", "patch_seconds",
                   "focus_seconds", "focus_tests", "focus_binaries", "focus_runs", "whole_...": the same,
                   "resumed": the commands that went on with it after a cut (absent: none)}, ...],
      "sampling": {"rate": 0.25, "seed": 0, "operators": [...], "described": "...",
                   "left_out": [{"operator", "area", "sites"}, ...]},
      "answers": {"files": ["suites/math/survivors.toml", ...],
                  "stale": [{"operator", "area", "answer", "why", "file", "line", "now"}, ...]},
      "suite": {"killed": 60, "scored": 80, "score": 0.75, "nowhere": [...],
                "operators": {"<operator>": {"killed_in": {"<area>": "<killing test>"}, "survived_in": [...]}}},
      "time": {"areas": {"<area>": {"mutants", "test_seconds", "seconds"}}, "capture_build_seconds" (the configure and
               build steps, in the commands that made them), "cuts", "cut_seconds" (batches cut: their seconds since
               their last saved state), "baseline_seconds", "census_seconds" and "census_settled" (the host-side
               census's run and the mutants it settled, census.py), "batches_seconds",
               "runs_seconds", "waited_seconds", "patch_seconds", "rebuild_cpu_seconds", "batches", "mutants",
               "wall_seconds", "mutants_per_minute"}
    }

A mutant the sample left out (sample.py) is in `sampling.left_out`, never in `mutants` nor in a count. The answers,
the suite's view and the time are views.py's, made from the mutants and timings: a section written before them
renders them too (without answers).

The rest of the document is the baseline run's results.json, so every reader of results.json reads a campaign's.
Rendering reads only the section (a document of an older or newer campaign renders what it has); every text goes
through the page's or the summary's own escaping.
"""

from __future__ import annotations

from collections import Counter

from cuconform.mutation import answers as answering
from cuconform.mutation import outcome, views
from cuconform.mutation.answers import Answers, Scope
from cuconform.mutation.outcome import MutantStatus, score_text, sites_text
from cuconform.mutation.plan import FORMAT

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


def mutation_section(records: list[dict], plan, equivalents, answers: Answers = answering.NONE) -> dict:
    """The section from the progress records (one per operator, campaign.Campaign.mutate), each survivor with its
    answer from suites/<folder>/survivors.toml."""
    mutants = [mutant for record in records for mutant in record.get("mutants", [])]
    areas = {area: outcome.counts(m["status"] for m in mutants if m["area"] == area) for area in plan.areas}
    for area, counted in areas.items():
        judges = [m.get("judges") for m in mutants if m["area"] == area and m.get("judges") is not None]
        counted["judges"] = judges[0] if judges else None
    done = {record["operator"] for record in records}
    host = [m for m in mutants if is_host_side(m)]
    left_out = [left for record in records for left in record.get("sampled_out", [])]
    scope = Scope(frozenset(plan.areas), frozenset(done), frozenset((m["operator"], m["area"]) for m in left_out))
    mutants, stale = answering.attach(answers, mutants, scope, equivalents)
    section = {
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
            "left_out": left_out,
        },
        "answers": {"files": list(answers.files), "stale": stale},
    }
    for area, view in views.area_answers(section).items():
        areas[area].update(view)
    section["total"].update(views.answer_totals(section))
    section["suite"] = views.suite_view(section)
    return section


def results_document(
    baseline: dict,
    records: list[dict],
    plan,
    equivalents,
    answers: Answers = answering.NONE,
    steps: list[dict] = (),
) -> dict:
    """DIR/results.json: the baseline run's document with the campaign's `mutation` section, named after DIR.
    `steps`: mutation.jsonl's steps before the batches (the capture build's seconds)."""
    environment = {**(baseline.get("environment") or {}), "run": f"{plan.output.name} (mutation campaign)"}
    section = mutation_section(records, plan, equivalents, answers)
    section["time"] = views.time_view(section, environment, steps)
    return {**baseline, "environment": environment, "mutation": section}


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
        return f"all {mutant.get('judges', '?')} judges passed (or skipped) again"
    return ""


def unanswered_first(section: dict) -> list[dict]:
    """The survivors, those that no survivors.toml answers first, each group in the campaign's order."""
    alive = survivors(section)
    return [m for m in alive if not m.get("answer")] + [m for m in alive if m.get("answer")]


def answer_why(answer: dict) -> str:
    """Why an answer holds, and the rules it names: 'why (rule area/Suite.Test)'."""
    rules = answer.get("rule") or []
    return str(answer.get("why", "")) + (f" (rule {', '.join(str(rule) for rule in rules)})" if rules else "")


def answer_text(answer: dict) -> str:
    """An answer as the reports show it beside its survivor: 'suite-code: why' (and the rules it names)."""
    return f"{answer.get('answer', '?')}: {answer_why(answer)}"


def answers_line(section: dict) -> str:
    """How many survivors are answered, and how many areas are done (issue 34: 95%, or every survivor answered)."""
    areas = views.area_answers(section)
    alive = sum(view["survived"] for view in areas.values())
    answered = sum(view["answered"] for view in areas.values())
    kinds = Counter(str((m.get("answer") or {}).get("answer")) for m in survivors(section) if m.get("answer"))
    by_kind = (
        f" ({', '.join(f'{kinds[kind]} {kind}' for kind in [*answering.KINDS, answering.EQUIVALENT] if kinds[kind])})"
        if kinds
        else ""
    )
    done = sum(1 for view in areas.values() if view["done"])
    return (
        f"answers: {answered} of {alive} survivors answered{by_kind}, {alive - answered} unanswered; "
        f"done: {done} of {len(areas)} areas (a score of {views.DONE_SCORE:.0%} or more, or every survivor answered)"
    )


def suite_line(section: dict) -> str:
    """The suite's view: would it notice this bug at all, in some area."""
    suite = views.suite_view(section)
    line = (
        f"the suite's view: {suite['killed']} of {suite['scored']} operators with a scored mutant are killed in "
        f"some area ({score_text(suite['score'])})"
    )
    return line + (f"; killed nowhere: {', '.join(suite['nowhere'])}" if suite["nowhere"] else "")


def stale_answers(section: dict) -> list[dict]:
    return [entry for entry in (section.get("answers") or {}).get("stale") or [] if isinstance(entry, dict)]


def stale_text(entry: dict) -> str:
    return (
        f"{entry.get('file', '?')}:{entry.get('line', '?')}: {entry.get('operator', '?')} in "
        f"{entry.get('area', '?')} is answered {entry.get('answer', '?')}, but is now {entry.get('now', '?')}"
    )


# --- the console ------------------------------------------------------------------------------------------------


def console_lines(section: dict) -> list[str]:
    rows = area_rows(section)
    answered = views.area_answers(section)
    time = section.get("time") or {}
    seconds = time.get("areas") or {}
    width = max([len(name) for name, _ in rows] + [4])
    head = "  ".join(f"{short:>8}" for _, short in COLUMNS)
    lines = [
        headline(section),
        suite_line(section),
        answers_line(section),
        f"  {'area':{width}}  {head}     score  answered  unanswered  done  device s",
    ]
    for name, counted in rows:
        view = answered.get(name) or {}
        lines.append(
            f"  {name:{width}}  "
            + "  ".join(f"{counted.get(status, 0):>8}" for status, _ in COLUMNS)
            + f"  {score_text(counted.get('score')):>8}  {view.get('answered', 0):>8}  {view.get('unanswered', 0):>10}"
            + f"  {'yes' if view.get('done') else 'no':>4}  {(seconds.get(name) or {}).get('seconds', 0):>8.1f}"
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
    alive = unanswered_first(section)
    if alive:
        suite = views.suite_view(section)
        lines.append(
            f"survived ({len(alive)}), the unanswered first: each needs a rule that kills it, or an answer in its "
            "area's suites/<folder>/survivors.toml"
        )
        lines += [
            f"  {m.get('operator')} in {m.get('area')}: {sites_text(m.get('sites', '?'))} in "
            f"{', '.join(m.get('objects') or []) or '?'}; {views.killed_elsewhere(suite, str(m.get('operator')))}; "
            + (f"answered {answer_text(m['answer'])}" if m.get("answer") else "unanswered")
            for m in alive
        ]
    stale = stale_answers(section)
    if stale:
        lines.append(f"stale answers ({len(stale)}): entries of survivors.toml that match no surviving mutant")
        lines += [f"  {stale_text(entry)}" for entry in stale]
    if time:
        lines.append(views.time_line(time))
    return lines
