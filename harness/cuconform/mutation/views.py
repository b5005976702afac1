"""What a campaign's `mutation` section says beyond its counts, computed from its mutants and timings alone, so that a
section of any campaign shows them (report.py writes them into results.json and renders them):

    answers   per area: its survivors, how many suites/<folder>/survivors.toml answers (answers.py), how many are
              unanswered, and whether the area is done: a score of at least DONE_SCORE, or every survivor answered
    suite     the suite's view: per operator, the areas where one of its mutants was killed (and by which test) and
              those where one survived; the operators killed somewhere of those with a scored mutant
    time      per area the mutants run and their test seconds (and the share of the harness runs' wall time they
              took), the campaign's wall time (baseline and batches), and the mutants judged per minute of it
"""

from __future__ import annotations

from cuconform.mutation.outcome import MutantStatus
from cuconform.mutation.runtime_operators import CENSUS
from cuconform.overview import wall_time

CAPTURE_BUILD_STEP = "capture build"  # mutation.jsonl's steps (progress.py)
CUT_STEP = "cut"
CENSUS_STEP = CENSUS  # the host-side census's run (census.py); a mutant it settled has `settled_by` so too
DONE_SCORE = 0.95  # issue 34: every area at 95% or above, or its survivors answered
SURVIVED, KILLED = MutantStatus.SURVIVED.value, MutantStatus.KILLED.value
# The mutants a campaign built (and, but for invalid ones, ran): the rate of a campaign counts them.
BUILT = frozenset({KILLED, SURVIVED, MutantStatus.INVALID.value, MutantStatus.ERROR.value})


def _mutants(section: dict) -> list[dict]:
    return [m for m in section.get("mutants") or [] if isinstance(m, dict)]


# --- answers ----------------------------------------------------------------------------------------------------


def area_answers(section: dict) -> dict[str, dict]:
    """Per area of the campaign: survived, answered, unanswered, done."""
    areas = {name: counted for name, counted in (section.get("areas") or {}).items() if isinstance(counted, dict)}
    views = {}
    for name, counted in areas.items():
        alive = [m for m in _mutants(section) if m.get("area") == name and m.get("status") == SURVIVED]
        answered = sum(1 for m in alive if m.get("answer"))
        score = counted.get("score")
        views[name] = {
            "survived": len(alive),
            "answered": answered,
            "unanswered": len(alive) - answered,
            "done": score is None or score >= DONE_SCORE or answered == len(alive),
        }
    return views


def answer_totals(section: dict) -> dict:
    views = area_answers(section).values()
    return {
        "answered": sum(view["answered"] for view in views),
        "unanswered": sum(view["unanswered"] for view in views),
        "areas_done": sum(1 for view in views if view["done"]),
        "areas": len(views),
    }


# --- the suite's view -------------------------------------------------------------------------------------------


def suite_view(section: dict) -> dict:
    """Per operator with a scored mutant: `killed_in` (area -> its killing test) and `survived_in` (areas); the
    operators killed in some area over those with a scored mutant: would the suite notice this bug at all."""
    operators: dict[str, dict] = {}
    for m in _mutants(section):
        if m.get("status") not in (KILLED, SURVIVED):
            continue
        view = operators.setdefault(str(m.get("operator")), {"killed_in": {}, "survived_in": []})
        if m["status"] == KILLED:
            view["killed_in"][str(m.get("area"))] = m.get("killed_by") or ""
        else:
            view["survived_in"].append(str(m.get("area")))
    killed = sum(1 for view in operators.values() if view["killed_in"])
    return {
        "killed": killed,
        "scored": len(operators),
        "score": round(killed / len(operators), 4) if operators else None,
        "nowhere": sorted(name for name, view in operators.items() if not view["killed_in"]),
        "operators": dict(sorted(operators.items())),
    }


def killed_elsewhere(suite: dict, operator: str, shown: int = 3) -> str:
    """Where a surviving operator is killed, beside the survivor: 'killed in atomics (Suite.Test); async (...)'."""
    killed_in = ((suite.get("operators") or {}).get(operator) or {}).get("killed_in") or {}
    if not killed_in:
        return "killed nowhere"
    named = [
        f"{area} ({test.removeprefix(area + '/')})" if test else area
        for area, test in sorted(killed_in.items())[:shown]
    ]
    left = len(killed_in) - shown
    rest = f" and {left} more area{'' if left == 1 else 's'}" if left > 0 else ""
    return "killed in " + "; ".join(named) + rest


# --- time -------------------------------------------------------------------------------------------------------


def time_view(section: dict, environment: dict, steps: list[dict] = ()) -> dict:
    """Per area its mutants run, their test seconds and their share of the harness runs' wall time; the campaign's
    wall time (the baseline's and the recorded batches', which include waiting for rebuilds) and mutants per minute;
    the capture build's seconds before it and the seconds of batches cut since their last saved state (`steps`:
    mutation.jsonl's, progress.py; their finished runs and tests are kept, the rest ran again), apart from that
    wall time.
    `environment` is the baseline run's (results.json's own)."""
    batches = [b for b in section.get("batches") or [] if isinstance(b, dict)]
    runs = sum(float(b.get("focus_seconds") or 0) + float(b.get("whole_seconds") or 0) for b in batches)
    ran = [m for m in _mutants(section) if m.get("run")]
    test_seconds = sum(float(m.get("seconds") or 0) for m in ran)
    areas: dict[str, dict] = {}
    for m in ran:
        area = areas.setdefault(str(m.get("area")), {"mutants": 0, "test_seconds": 0.0})
        area["mutants"] += 1
        area["test_seconds"] += float(m.get("seconds") or 0)
    for area in areas.values():
        area["test_seconds"] = round(area["test_seconds"], 1)
        area["seconds"] = round(runs * area["test_seconds"] / test_seconds, 1) if test_seconds else 0.0
    baseline = wall_time(environment) or 0.0
    batches_wall = sum(float(op.get("seconds") or 0) for op in section.get("operators") or [] if isinstance(op, dict))
    wall = baseline + batches_wall
    built = sum(1 for m in _mutants(section) if m.get("status") in BUILT)
    capture = [float(step.get("seconds") or 0) for step in steps if step.get("step") == CAPTURE_BUILD_STEP]
    cut = [float(step.get("seconds") or 0) for step in steps if step.get("step") == CUT_STEP]
    census = [float(step.get("seconds") or 0) for step in steps if step.get("step") == CENSUS_STEP]
    settled = sum(1 for m in _mutants(section) if m.get("settled_by") == CENSUS_STEP)
    wall += sum(census)
    return {
        "areas": dict(sorted(areas.items(), key=lambda item: (-item[1]["seconds"], item[0]))),
        **({"capture_build_seconds": round(sum(capture), 1)} if capture else {}),
        **({"cuts": len(cut), "cut_seconds": round(sum(cut), 1)} if cut else {}),
        "baseline_seconds": round(baseline, 1),
        **({"census_seconds": round(sum(census), 1), "census_settled": settled} if census or settled else {}),
        "batches_seconds": round(batches_wall, 1),
        "runs_seconds": round(runs, 1),
        "waited_seconds": round(sum(float(b.get("waited") or 0) for b in batches), 1),
        "patch_seconds": round(sum(float(b.get("patch_seconds") or 0) for b in batches), 1),
        "rebuild_cpu_seconds": round(sum(float(b.get("rebuild_cpu") or 0) for b in batches), 1),
        "batches": len(batches),
        "mutants": built,
        "wall_seconds": round(wall, 1),
        "mutants_per_minute": round(built / (wall / 60), 1) if wall else None,
    }


def time_line(time: dict) -> str:
    """The campaign's time in one line, for the console and summary.md."""
    rate = time.get("mutants_per_minute")
    batches = time.get("batches", 0)
    capture = time.get("capture_build_seconds")
    return (
        f"time: {time.get('mutants', 0)} mutants built and judged in {_minutes(time.get('wall_seconds'))} "
        f"({rate if rate is not None else '-'} a minute)"
        + (f" after the capture build's {capture:g} s" if capture is not None else "")
        + f": the baseline {time.get('baseline_seconds', 0):g} s, "
        + (
            f"the census {time.get('census_seconds', 0):g} s "
            f"({_count(time.get('census_settled', 0), 'host-side mutant')} not applicable without a run), "
            if "census_seconds" in time
            else ""
        )
        + f"{batches} batch{'' if batches == 1 else 'es'} {time.get('batches_seconds', 0):g} s, of which harness "
        f"runs {time.get('runs_seconds', 0):g} s, waiting for rebuilds {time.get('waited_seconds', 0):g} s, "
        f"patching {time.get('patch_seconds', 0):g} s (rebuilds: {time.get('rebuild_cpu_seconds', 0):g} s over "
        "the host's threads)"
        + (
            f"; cut {_count(time['cuts'], 'time')} in a batch, {time.get('cut_seconds', 0):g} s since its last "
            "saved state"
            if time.get("cuts")
            else ""
        )
    )


def _count(number: int, what: str) -> str:
    return f"{number} {what}" if number == 1 else f"{number} {what}s"


def _minutes(seconds: object) -> str:
    value = float(seconds or 0)
    return f"{value / 60:.1f} min" if value >= 60 else f"{value:.1f} s"
