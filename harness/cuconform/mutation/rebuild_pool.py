"""The rebuilds of a batch: every (operator, object) pair of its mutants compiled again by the engine (rebuild.py:
the object's own ptxas and fatbinary steps on the mutated PTX), on `plan.build_jobs` threads, once per pair even
when several binaries link the object. Each result is a MutantFatbin, None (nothing changed), Invalid (ptxas
rejected it, or it does not fit) or Broken (an engine bug: reported, the campaign goes on)."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from cuconform.mutation.batches import Batch
from cuconform.mutation.plan import Engine, one_line


@dataclass(frozen=True)
class Invalid:
    object: str
    why: str


@dataclass(frozen=True)
class Broken:
    """The engine failed on an object in a way that is not a rejected mutant (a bug to report, not a score)."""

    object: str
    why: str


CANCELLED = Broken("", "the campaign was stopped")  # a rebuild not made because the campaign was cut


@dataclass
class Built:
    """A batch's rebuilds: each (operator, object)'s result, and what they cost."""

    results: dict[tuple[str, str], object]
    wall: float = 0.0
    cpu: float = 0.0  # the rebuilds' seconds added up (on the threads of --build-jobs)
    by_operator: dict[str, float] = field(default_factory=dict)


def threads(build_jobs: int) -> int:
    """Threads for the rebuilds and the patching: --build-jobs, else one per CPU core."""
    return build_jobs or os.cpu_count() or 1


def rebuild(batch: Batch, engine: Engine, work: Path, build_jobs: int, stop: threading.Event) -> Built:
    """Every (operator, object) of the batch's mutants built in `work` (a folder each); a pair not begun when `stop`
    is set (the campaign was cut) is CANCELLED."""
    started = time.monotonic()
    pairs = {
        (slot.op.name, manifest["object"]): (slot.op, manifest)
        for slots in batch.slots.values()
        for slot in slots
        for manifest in slot.candidates
    }
    built = Built({})
    if not pairs:
        return built

    def one(index: int, op, manifest: dict):
        if stop.is_set():
            return CANCELLED, 0.0
        begun = time.monotonic()
        workdir = work / f"{index:04d}-{op.name}-{Path(manifest['object']).name}"
        workdir.mkdir(parents=True, exist_ok=True)
        try:
            result = engine.build_mutant(manifest, op, workdir)
        except engine.mutant_error as error:
            result = Invalid(manifest["object"], one_line(error))
        except Exception as error:  # noqa: BLE001 - an engine bug on one object is reported, the campaign goes on
            result = Broken(manifest["object"], f"{type(error).__name__}: {one_line(error)}")
        return result, time.monotonic() - begun

    with ThreadPoolExecutor(max_workers=min(threads(build_jobs), len(pairs)), thread_name_prefix="mutant") as pool:
        futures = {
            key: pool.submit(one, index, op, manifest)
            for index, (key, (op, manifest)) in enumerate(sorted(pairs.items(), key=lambda kv: kv[0]))
        }
    for key, future in futures.items():
        result, seconds = future.result()
        built.results[key] = result
        built.cpu += seconds
        built.by_operator[key[0]] = built.by_operator.get(key[0], 0.0) + seconds
    built.wall = time.monotonic() - started
    return built
