"""What a batch's folder keeps so that a campaign cut in the middle of a batch goes on there (campaign.py, --resume),
instead of rebuilding, patching and running the batch again:

    DIR/mutants/<batch>/state.json   written when its mutants are patched, again when its focused run is judged:
        {"state": 1, "slots": {"<area>@<operator>": {"entry": {...}, "ready": true, "focus": [test ids]}},
         "runs_done": ["focus"], "timing": {...}, "build_seconds": {"<operator>": seconds}, "seconds": ...}
    DIR/mutants/<batch>/bin/         the patched mutant binaries (the decided ones go before the whole-area run)
    DIR/mutants/<batch>/run-focus/, run/   the harness runs' report folders: a finished one is used as it is, one cut
                                     in the middle (<run>.partial/journal.jsonl) goes on with `scripts/conformance run
                                     --resume` (runs.py), so that only the tests in flight at the cut run again

A resumed campaign takes the batch from state.json when it names the same mutants and every binary still to run is in
bin/ (passes.Passes then rebuilds and patches nothing, and skips a run it records as done); otherwise the batch starts
over. The batch's state goes with its binaries when the batch is recorded in mutation.jsonl.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.files import atomic_write
from cuconform.mutation.batches import MUTANT_MARK, Batch, Slot

STATE = "state.json"
FORMAT = 1
BIN = "bin"
FOCUS = "focus"  # runs_done: the focused run has been judged


@dataclass
class Kept:
    """A cut batch's state, read back from its folder."""

    slots: dict[str, dict]  # mutant name -> {"entry", "ready", "focus"}
    runs_done: list[str] = field(default_factory=list)
    timing: dict = field(default_factory=dict)
    build_seconds: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0  # the batch's seconds in the calls before, up to its last save

    def restore(self, slots: list[Slot]) -> tuple[list[Slot], list[Slot], dict[str, list[str]]]:
        """Each slot's entry as it was saved; the slots that were to run, those patched (ready), and the focus."""
        for slot in slots:
            slot.entry.update(self.slots[slot.name]["entry"])
        to_run = [slot for slot in slots if self.slots[slot.name].get("to_run")]
        ready = [slot for slot in slots if self.slots[slot.name].get("ready")]
        return to_run, ready, {slot.name: list(self.slots[slot.name].get("focus") or []) for slot in ready}


def binary_of(folder: Path, slot: Slot) -> Path:
    """The mutant's binary in the batch's overlay: bin/cuconform-<area>@<operator>."""
    return folder / BIN / f"{slot.binary.name}{MUTANT_MARK}{slot.op.name}"


def save(
    folder: Path,
    slots: list[Slot],
    to_run: list[Slot],
    ready: list[Slot],
    focus: dict[str, list[str]],
    runs_done: list[str],
    timing: dict,
    build_seconds: dict[str, float],
    seconds: float,
) -> None:
    to_run_names, ready_names = {slot.name for slot in to_run}, {slot.name for slot in ready}
    state = {
        "state": FORMAT,
        "slots": {
            slot.name: {
                "entry": slot.entry,
                "to_run": slot.name in to_run_names,
                "ready": slot.name in ready_names,
                "focus": focus.get(slot.name, []),
            }
            for slot in slots
        },
        "runs_done": list(runs_done),
        "timing": timing,
        "build_seconds": build_seconds,
        "seconds": round(seconds, 3),
    }
    atomic_write(folder / STATE, json.dumps(state) + "\n")


def load(folder: Path, batch: Batch) -> Kept | None:
    """The batch's kept state, or None (none kept, another batch's, unreadable, or a binary still to run is gone)."""
    try:
        state = json.loads((folder / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    slots = [slot for listed in batch.slots.values() for slot in listed]
    saved = state.get("slots") if isinstance(state, dict) and state.get("state") == FORMAT else None
    if not isinstance(saved, dict) or set(saved) != {slot.name for slot in slots}:
        return None
    for slot in slots:
        kept = saved[slot.name]
        if not isinstance(kept, dict) or not isinstance(kept.get("entry"), dict):
            return None
        undecided = kept.get("ready") and "status" not in kept["entry"]
        if undecided and not binary_of(folder, slot).is_file():
            return None
    return Kept(
        saved,
        list(state.get("runs_done") or []),
        dict(state.get("timing") or {}),
        dict(state.get("build_seconds") or {}),
        float(state.get("seconds") or 0.0),
    )


def forget(folder: Path) -> None:
    """The batch is recorded: its state has nothing left to resume."""
    (folder / STATE).unlink(missing_ok=True)
