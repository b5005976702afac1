"""A campaign's mutants grouped into batches (campaign.py runs them): each operator's mutant per area, in the
operators' order, until a batch holds about `plan.batch_mutants` mutants to build and run.

A mutant (a Slot) is one operator applied to the objects of one area's binary where it has a site. An area where it
has none is `not applicable`; one that equivalent.toml lists is `equivalent` without a build; one the sample leaves
out is named in `sampled_out` and never scored. A host-side mutant whose area the census (census.py) saw make no call
of an entry point its operator wraps is `not applicable` without a run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cuconform.environment import REPO
from cuconform.catalog import VARIANT_MARK
from cuconform.mutation import runtime_operators
from cuconform.mutation.equivalent import Equivalents
from cuconform.mutation.outcome import MutantStatus
from cuconform.mutation.sample import Sample

MUTANT_MARK = VARIANT_MARK  # bin/cuconform-<area>@<operator>: a mutant binary in a batch's overlay (catalog.py)


@dataclass(eq=False)
class Slot:
    """One mutant: an operator in one area (the objects of the area's binary where the operator has a site)."""

    op: object
    area: str
    binary: Path
    candidates: list[dict]  # the manifests to rebuild
    entry: dict  # what mutation.jsonl records of it
    changed: list = field(default_factory=list)  # the MutantFatbins of the objects it changed
    sources: frozenset[str] = frozenset()  # a runtime operator's: the area's files that name one of its APIs

    @property
    def name(self) -> str:
        """Its binary's area in the batch overlay: <area>@<operator>."""
        return f"{self.area}{MUTANT_MARK}{self.op.name}"


@dataclass
class Batch:
    label: str  # its folder under DIR/mutants/: batch-<first operator>
    operators: list
    slots: dict[str, list[Slot]]  # operator name -> its slots to build (areas where it has a site, kept by the sample)
    entries: dict[str, list[dict]]  # operator name -> every area's entry, in the plan's area order
    sampled_out: dict[str, list[dict]]  # operator name -> the mutants the sample left out

    def mutants(self) -> int:
        return sum(len(slots) for slots in self.slots.values())


@dataclass(frozen=True)
class Planner:
    """What the batches are made from: each area's binary and object manifests, each object's sites per operator
    (None: unknown, every object is a candidate), the sample and the equivalent mutants."""

    objects: dict[str, tuple[Path, list[dict]]]
    sites: dict[str, dict[str, int]] | None
    sample: Sample
    equivalents: Equivalents
    batch_mutants: int
    suites: Path = REPO / "suites"  # where a runtime operator's sites are read (runtime_operators.sites)
    census: object = None  # census.Census: the host-side mutants it shows not applicable (None: no census)

    def batches(self, operators: list) -> list[Batch]:
        """The operators in order, grouped into batches of about `batch_mutants` mutants to run."""
        batches: list[Batch] = []
        for op in operators:
            entries, slots, sampled_out = self.slots(op)
            if not batches or (batches[-1].mutants() and batches[-1].mutants() + len(slots) > self.batch_mutants):
                batches.append(Batch(f"batch-{op.name}", [], {}, {}, {}))
            batch = batches[-1]
            batch.operators.append(op)
            batch.slots[op.name], batch.entries[op.name], batch.sampled_out[op.name] = slots, entries, sampled_out
        return batches

    def slots(self, op) -> tuple[list[dict], list[Slot], list[dict]]:
        """Every area's entry for `op`; the mutants to build (an area where it has a site, kept by the sample); the
        mutants the sample left out."""
        if runtime_operators.is_runtime(op):
            return self.runtime_slots(op)
        entries, slots, sampled_out = [], [], []
        for area, (binary, manifests) in self.objects.items():
            entry = {
                "operator": op.name,
                "family": op.family,
                "area": area,
                "objects": [],
                "sites": 0,
                "killed_by": None,
                "seconds": 0.0,
            }
            candidates = [m for m in manifests if self.sites is None or self.sites.get(m["object"], {}).get(op.name)]
            if candidates and not self.sample.keeps(op.name, area):
                sampled_out.append(
                    {
                        "operator": op.name,
                        "area": area,
                        "sites": sum(self.sites.get(m["object"], {}).get(op.name, 0) for m in candidates)
                        if self.sites is not None
                        else None,
                    }
                )
                continue
            entries.append(entry)
            why_equivalent = self.equivalents.why(op.name, area)
            if candidates and why_equivalent and self.sites is not None:  # no need to build what never runs
                entry.update(
                    status=MutantStatus.EQUIVALENT.value,
                    why=why_equivalent,
                    objects=[short(m["object"]) for m in candidates],
                    sites=sum(self.sites[m["object"]][op.name] for m in candidates),
                )
            elif candidates:
                slots.append(Slot(op, area, binary, candidates, entry))
            else:
                entry.update(status=MutantStatus.NOT_APPLICABLE.value)
        return entries, slots, sampled_out

    def runtime_slots(self, op) -> tuple[list[dict], list[Slot], list[dict]]:
        """A runtime operator's mutants: one in each of its areas that the campaign mutates, nothing rebuilt; its
        sites are the lines of the area's sources that name one of its APIs (whether it applies is measured: by the
        census, else when it runs, runtime_operators.Calls)."""
        entries, slots = [], []
        for area, (binary, _) in self.objects.items():
            if area not in op.areas:
                continue
            found = runtime_operators.sites(op, area, self.suites)
            entry = {
                "operator": op.name,
                "family": op.family,
                "area": area,
                "objects": sorted(key.rsplit("/", 1)[-1] for key in found),
                "sites": sum(found.values()),
                "killed_by": None,
                "seconds": 0.0,
            }
            entries.append(entry)
            why_equivalent = self.equivalents.why(op.name, area)
            why_not = self.census.not_applicable(op.name, area) if self.census is not None else None
            if why_equivalent:
                entry.update(status=MutantStatus.EQUIVALENT.value, why=why_equivalent)
            elif why_not:
                entry.update(
                    status=MutantStatus.NOT_APPLICABLE.value, why=why_not, calls={}, settled_by=runtime_operators.CENSUS
                )
            else:
                slots.append(Slot(op, area, binary, [], entry, sources=frozenset(found)))
        return entries, slots, []


def short(path: str) -> str:
    """An object as reports name it: its path under the build's CMakeFiles/<target>.dir/, or its name."""
    marker = ".dir/"
    return path.split(marker, 1)[1] if marker in path else Path(path).name
