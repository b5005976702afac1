"""DIR/mutation.jsonl: a campaign's progress, appended operator by operator, which --resume goes on from. It has the
form of a run's journal (journal.py: a header line, then one JSON object a line, appended whole and fsync'ed; a last
line cut while it was written is dropped, and that operator runs again).

    line 1      the plan's header (plan.Plan.header: {"campaign": 1, "build_dir": ..., "operators": [...], ...})
    then        one finished operator each, with its mutants (campaign.Campaign.judge), and the steps that took
                time no operator's line holds: {"step": "capture build", "seconds": 212.4}; {"step": "cut",
                "seconds": 31.2, "batch": "batch-<operator>"}, a batch's seconds since its last saved state when the
                campaign was cut (batch_state.py); {"step": "census", "seconds": 14.3, "areas": 6}, the host-side
                census's run (census.py; "failed": true when it could not be made)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.files import atomic_write
from cuconform.journal import JournalError, append_entry, cut_partial_line, read_entries
from cuconform.mutation.plan import FORMAT, CampaignError

PROGRESS = "mutation.jsonl"


@dataclass
class Progress:
    """DIR/mutation.jsonl: a header (the plan), then one line per finished operator with its mutants."""

    path: Path
    header: dict | None = None
    operators: list[dict] = field(default_factory=list)
    steps: list[dict] = field(default_factory=list)  # {"step": "capture build", "cut" or "census", "seconds": ...}

    @classmethod
    def read(cls, path: Path) -> "Progress":
        try:
            entries, partial = read_entries(path)
        except JournalError as error:
            raise CampaignError(str(error)) from None
        if not entries:
            raise CampaignError(f"{path}: empty: start the campaign again without --resume")
        if entries[0].get("campaign") != FORMAT:
            raise CampaignError(f"{path}:1: not a mutation campaign's progress file")
        if partial:  # the line being written when the campaign was cut: dropped, and that operator runs again
            cut_partial_line(path)
        records = entries[1:]
        return cls(
            path,
            entries[0],
            [record for record in records if "operator" in record],
            [record for record in records if "step" in record],
        )

    def start(self, header: dict) -> None:
        self.header = header
        atomic_write(self.path, json.dumps(header) + "\n")

    def append(self, record: dict) -> None:
        self.operators.append(record)
        append_entry(self.path, record)

    def append_step(self, step: str, seconds: float, **about) -> None:
        record = {"step": step, "seconds": round(seconds, 3), **about}
        self.steps.append(record)
        append_entry(self.path, record)

    @property
    def done(self) -> set[str]:
        return {record["operator"] for record in self.operators}
