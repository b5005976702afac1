"""What ended a run when it ended: its critical path, read from the `batches` timeline of results.json (each batch
run: binary, tests, worker, start and end after the scheduler started, what the plan expected, whether it was split
off another). The console summary closes with these lines; they name the batch that ended last and why.

A run's end is the end of its last batch. The lines say which batch that was and on which lane (GPU or host
workers), how long after the other lane's end, and why it ended then: it ran longer than its plan expected (its
tests' costs were guessed, or they took longer than kept), or it started late (the lane had that much work before
it), or its lane was full to the end (every worker busy: the work itself is the floor).
"""

from __future__ import annotations

LATE_FACTOR = 1.5  # a batch that took this many times its plan's cost "ran longer than planned"
TAIL_S = 1.0  # workers idle for more than this before the end mean the lane's end was one batch's, not its work's


def lane_of(run: dict) -> str:
    return "host" if run.get("host") or "host worker" in str(run.get("worker", "")) else "GPU"


def harness_share(phases: dict, last_end: float | None, first_start: float = 0.0) -> str | None:
    """Where the harness's own time went, from the run's phases (seconds since the harness started) and the start
    of its first batch and the end of its last (seconds after the scheduler started)."""
    scheduler = phases.get("scheduler_started_s")
    if scheduler is None or last_end is None:
        return None
    parts = [f"its tests listed at {phases['listed_s']:.1f} s"] if "listed_s" in phases else []
    parts.append(f"the first batch started at {scheduler + first_start:.1f} s")
    parts.append(f"the last ended at {scheduler + last_end:.1f} s")
    if "pytest_done_s" in phases:
        parts.append(f"pytest was done {phases['pytest_done_s'] - scheduler - last_end:.1f} s later")
    if "reports_written_s" in phases and "pytest_done_s" in phases:
        parts.append(f"the reports took {phases['reports_written_s'] - phases['pytest_done_s']:.1f} s")
    return "  harness: " + ", ".join(parts) + " (seconds since it started)"


def describe(batches: list[dict], phases: dict | None = None, child_processes: int = 0) -> list[str]:
    """The closing lines about the run's critical path; [] for a run without a timeline. `child_processes`: how many
    the rules started (their metric child_processes, summed)."""
    runs = [run for run in batches if isinstance(run, dict) and "end_s" in run and "start_s" in run]
    if not runs:
        return []
    last = max(runs, key=lambda run: run["end_s"])
    lane = lane_of(last)
    ends: dict[str, float] = {}
    for run in runs:
        ends[lane_of(run)] = max(ends.get(lane_of(run), 0.0), run["end_s"])
    took = last["end_s"] - last["start_s"]
    kind = "".join(text for flag, text in (("exclusive", ", exclusive"), ("rerun", ", a re-run")) if last.get(flag))
    split = f", split off {last['split_from']}" if last.get("split_from") else ""
    what = (
        f"{last['binary']} ({last['tests']} test{'s' if last['tests'] != 1 else ''}{kind}{split}) on "
        f"{last.get('worker', '?')}, {last['start_s']:.1f} s to {last['end_s']:.1f} s"
    )
    lines = [f"critical path: the run ended with {what}"]
    others = {name: end for name, end in ends.items() if name != lane}
    # When the other workers of its lane went idle: the ends of their own last batches.
    worker_ends: dict[str, float] = {}
    for run in runs:
        if lane_of(run) == lane and run.get("worker") != last.get("worker"):
            worker_ends[run["worker"]] = max(worker_ends.get(run["worker"], 0.0), run["end_s"])
    idle_from = max(worker_ends.values()) if worker_ends else last["end_s"]
    expected = last.get("expected_s")
    if expected is not None and expected > 0 and took > LATE_FACTOR * expected + 0.5:
        why = f"it took {took:.1f} s, {took / expected:.1f}x the {expected:.1f} s its plan expected"
    elif expected == 0 and took > 1.0:
        why = f"it took {took:.1f} s, its tests' costs unknown to the plan"
    elif last["end_s"] - idle_from > TAIL_S:
        why = f"it started at {last['start_s']:.1f} s, after the {lane} lane's other work, and took {took:.1f} s"
    else:
        why = f"its lane was busy to the end: the {lane} workers' work is the floor"
    tail = (
        f"the other {lane} workers were done by {idle_from:.1f} s"
        if worker_ends
        else f"it was the {lane} lane's only batch"
    )
    other = "; ".join(f"the {name} lane ended at {end:.1f} s" for name, end in sorted(others.items()))
    lines.append(f"  why: {why}; {tail}" + (f"; {other}" if other else ""))
    mine = [run for run in runs if lane_of(run) == lane]
    workers = {run.get("worker") for run in mine}
    span = last["end_s"] - min(run["start_s"] for run in mine)
    if span > 0 and workers:
        busy = sum(run["end_s"] - run["start_s"] for run in mine) / (len(workers) * span)
        lines.append(
            f"  the {len(workers)} {lane} workers were busy {min(busy, 1.0):.0%} of the {span:.1f} s from the "
            "lane's first batch to its last"
            + (
                " (exclusive batches hold all of them)"
                if lane == "GPU" and any(r.get("exclusive") for r in mine)
                else ""
            )
        )
    exclusive = [run for run in runs if run.get("exclusive")]
    if exclusive:
        held = sum(run["end_s"] - run["start_s"] for run in exclusive)
        longest = sorted(exclusive, key=lambda run: run["start_s"] - run["end_s"])[:3]
        parts = ", ".join(f"{run['binary']} {run['end_s'] - run['start_s']:.1f} s" for run in longest)
        lines.append(f"  exclusive batches held every GPU for {held:.1f} s ({parts})")
    lines.append(process_count(runs, child_processes))
    lines += ended_outside_tests(runs)
    share = harness_share(phases or {}, last["end_s"], min(run["start_s"] for run in runs))
    if share:
        lines.append(share)
    return lines


def ended_outside_tests(runs: list[dict], shown: int = 3) -> list[str]:
    """A line for the processes that ended on their own outside any test (runner.BatchRun.between_tests): no test's
    result says so, and the tests after each ran again in a fresh process, so this line is where it shows (on the
    H200 every second area of a cuconform-multi process crashed so for sessions: -speed7.md)."""
    ends = [(run["binary"], end) for run in runs for end in run.get("between_tests") or []]
    if not ends:
        return []
    listed = "; ".join(f"{binary} {end}" for binary, end in ends[:shown])
    more = f"; and {len(ends) - shown} more (results.json's batches)" if len(ends) > shown else ""
    return [f"  processes that ended outside any test: {len(ends)} ({listed}{more})"]


def process_count(runs: list[dict], child_processes: int = 0) -> str:
    """How many test processes the run started, by kind, and how many child processes its rules started: each GPU
    process makes a CUDA context (and most children do), and the driver makes them one at a time
    (docs/design/processes.md)."""
    counts = {"shared": 0, "multi": 0, "exclusive": 0, "isolated": 0, "host": 0}
    for run in runs:
        processes = int(run.get("processes", 1))
        if lane_of(run) == "host":
            counts["host"] += processes
        elif run.get("exclusive"):
            counts["exclusive"] += processes
        elif run.get("isolated"):
            counts["isolated"] += processes
        else:
            counts["shared"] += processes
            counts["multi"] += processes if run.get("areas") else 0
    gpu = counts["shared"] + counts["exclusive"] + counts["isolated"]
    multi = f", {counts['multi']} of them several areas' (cuconform-multi)" if counts["multi"] else ""
    children = f"; the rules' child processes {child_processes}" if child_processes else ""
    return (
        f"  processes: {gpu + counts['host']} (GPU {gpu}: shared {counts['shared']}{multi}, exclusive "
        f"{counts['exclusive']}, isolated {counts['isolated']}; host {counts['host']}){children}"
    )
