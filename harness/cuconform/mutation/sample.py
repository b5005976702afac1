"""The quick campaign's sample: the 9 generic integer operators (setp comparisons, shift signedness, mul.lo to
mul.hi) apply wherever there is a loop bound or an address, and made 434 of the 1,095 mutants of a campaign over
every area. The quick campaign keeps a seeded share of their (operator, area) mutants; `--all` keeps every one.

A mutant is kept when a hash of (seed, operator, area) falls below the rate, so the same seed keeps the same mutants
on every machine and in every resumed command, and a mutant left out is named in the report (never counted).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

SAMPLED_OPERATORS = (
    "setp-lt-to-le",
    "setp-le-to-lt",
    "setp-gt-to-ge",
    "setp-ge-to-gt",
    "setp-eq-to-ne",
    "setp-ne-to-eq",
    "shr-signed-to-unsigned",
    "shr-unsigned-to-signed",
    "mul-lo-to-hi",
)
RATE = 0.25  # the quick campaign's share of those operators' mutants
SEED = 0


@dataclass(frozen=True)
class Sample:
    rate: float = RATE  # 1.0: every mutant (--all)
    seed: int = SEED
    operators: tuple[str, ...] = SAMPLED_OPERATORS

    @property
    def everything(self) -> bool:
        return self.rate >= 1.0

    def keeps(self, operator: str, area: str) -> bool:
        """Whether the campaign runs the mutant of `operator` in `area`."""
        if self.everything or operator not in self.operators:
            return True
        digest = hashlib.sha256(f"{self.seed}:{operator}:{area}".encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64 < self.rate

    def header(self) -> dict:
        return {"rate": self.rate, "seed": self.seed, "operators": list(self.operators)}

    @classmethod
    def from_header(cls, entry: dict | None) -> "Sample":
        if not entry:  # a campaign begun before sampling: every mutant
            return cls(rate=1.0)
        return cls(rate=float(entry["rate"]), seed=int(entry["seed"]), operators=tuple(entry["operators"]))

    def describe(self) -> str:
        if self.everything:
            return "every mutant"
        return (
            f"a seeded sample (seed {self.seed}) of {self.rate:.0%} of the mutants of the "
            f"{len(self.operators)} generic integer operators ({', '.join(self.operators)}); --all runs every one"
        )
