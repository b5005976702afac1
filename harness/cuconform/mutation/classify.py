"""What a mutant's entry in mutation.jsonl says: first from its rebuilds (not applicable, invalid, error or
equivalent, or a mutant to run), then from the harness run that judged it (outcome.judge: killed or survived)."""

from __future__ import annotations

from cuconform.mutation.batches import Slot, short
from cuconform.mutation.equivalent import Equivalents
from cuconform.mutation.outcome import Judgement, MutantStatus
from cuconform.mutation.rebuild_pool import Broken, Invalid
from cuconform.mutation.runtime_operators import Calls, is_runtime


def from_rebuilds(slot: Slot, results: dict, equivalents: Equivalents) -> bool:
    """Fills the slot's entry from its rebuilds (rebuild_pool.Built.results); whether it has a mutant to run. A
    runtime operator's mutant has none (batches.Planner.runtime_slots decided it): it always runs."""
    if is_runtime(slot.op):
        return True
    found = [results.get((slot.op.name, m["object"])) for m in slot.candidates]
    slot.changed = [r for r in found if r is not None and not isinstance(r, (Invalid, Broken))]
    invalid = [r for r in found if isinstance(r, Invalid)]
    broken = [r for r in found if isinstance(r, Broken)]
    entry = slot.entry
    entry.update(objects=[short(m.object) for m in slot.changed], sites=sum(_sites(m) for m in slot.changed))
    if invalid:
        entry["invalid_objects"] = [{"object": short(i.object), "why": i.why} for i in invalid]
    why_equivalent = equivalents.why(slot.op.name, slot.area)
    if broken:
        entry.update(status=MutantStatus.ERROR.value, why=f"{short(broken[0].object)}: {broken[0].why}")
    elif not slot.changed and not invalid:
        entry.update(status=MutantStatus.NOT_APPLICABLE.value)
    elif not slot.changed:
        entry.update(status=MutantStatus.INVALID.value, why=f"{short(invalid[0].object)}: {invalid[0].why}")
    elif why_equivalent:
        entry.update(status=MutantStatus.EQUIVALENT.value, why=why_equivalent)
    else:
        return True
    return False


def from_run(slot: Slot, verdict: Judgement, run: str, seconds: float, judges: int) -> None:
    """Fills the slot's entry from the run that decided it ('focused' or 'whole area'), of the area's `judges`
    (outcome.can_kill)."""
    slot.entry.update(
        status=verdict.status.value, killed_by=verdict.killed_by, seconds=round(seconds, 3), run=run, judges=judges
    )
    if verdict.killed_by:
        slot.entry.update(killing_status=verdict.killing_status, killers=verdict.killers)


def _sites(mutant) -> int:
    sites = getattr(mutant, "sites", 0)
    return len(sites) if isinstance(sites, (list, tuple)) else int(sites or 0)


def from_calls(slot: Slot, calls: Calls) -> None:
    """A runtime mutant's entry once its runs are over: the calls the library counted (and the calls it changed,
    where its counts say), and `not applicable` when the area never called an entry point the operator wraps, or
    called them and the operator changed none (either way the run was the baseline's: its tests could not have
    noticed, a kill is a flake), `error` when the library did not know the operator; any other is judged by its
    runs."""
    slot.entry["calls"] = dict(sorted(calls.by_entry.items()))
    if calls.counts_changes:
        slot.entry["changed"] = {entry: calls.changed_by_entry.get(entry, 0) for entry in slot.entry["calls"]}
    if calls.unknown_operator:
        slot.entry.update(
            status=MutantStatus.ERROR.value,
            why=f"libcuconform-interpose.so knows no operator {slot.op.name} (rebuild it: suites/common/interpose)",
        )
    elif not calls.applicable:
        _not_applicable(slot, "measured: the area made no call of an entry point the operator wraps")
    elif calls.changed_none:
        times = "once" if calls.total == 1 else f"{calls.total} times"
        _not_applicable(slot, f"entered {times}, changed none: the run is the baseline's")


def _not_applicable(slot: Slot, why: str) -> None:
    """The run could not differ from the baseline's: a kill it reported is a flake of the test that failed."""
    if slot.entry.get("killed_by"):
        why += f" (its kill by {slot.entry['killed_by']} is a flake)"
    slot.entry.update(status=MutantStatus.NOT_APPLICABLE.value, why=why, killed_by=None)
    for key in ("killing_status", "killers"):
        slot.entry.pop(key, None)
