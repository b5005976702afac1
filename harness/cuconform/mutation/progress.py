"""DIR/mutation.jsonl: a campaign's progress, appended operator by operator, which --resume goes on from."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.files import atomic_write
from cuconform.mutation.plan import FORMAT, CampaignError

PROGRESS = "mutation.jsonl"


@dataclass
class Progress:
    """DIR/mutation.jsonl: a header (the plan), then one line per finished operator with its mutants."""

    path: Path
    header: dict | None = None
    operators: list[dict] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> "Progress":
        progress = cls(path)
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            try:
                entry = json.loads(line)
            except ValueError:
                if number == len(lines) and number > 1:
                    # the line being written when the campaign was cut: dropped, and that operator runs again
                    atomic_write(path, "".join(f"{kept}\n" for kept in lines[:-1]))
                    break
                raise CampaignError(f"{path}:{number}: not a JSON line") from None
            if number == 1:
                if not isinstance(entry, dict) or entry.get("campaign") != FORMAT:
                    raise CampaignError(f"{path}:1: not a mutation campaign's progress file")
                progress.header = entry
            else:
                progress.operators.append(entry)
        if progress.header is None:
            raise CampaignError(f"{path}: empty: start the campaign again without --resume")
        return progress

    def start(self, header: dict) -> None:
        self.header = header
        atomic_write(self.path, json.dumps(header) + "\n")

    def append(self, record: dict) -> None:
        self.operators.append(record)
        with open(self.path, "a", encoding="utf-8") as stream:
            stream.write(json.dumps(record, ensure_ascii=False) + "\n")
            stream.flush()
            os.fsync(stream.fileno())

    @property
    def done(self) -> set[str]:
        return {record["operator"] for record in self.operators}
