"""Shards: one run spread over several machines (`scripts/conformance run --shard K/N`), merged afterwards.

Shard K of N takes every N-th test of the selection, in test id order, starting with the K-th. The share is:

- deterministic: it depends only on the selection's test ids, so N machines with the same build and the same
  options agree on it without talking to each other;
- complete and disjoint: every selected test is in exactly one shard;
- interleaved: every shard gets a slice of every area, so a slow area (litmus, math sweeps) is spread over all
  machines instead of making one shard the last to finish.

Tests keep the run's order inside a shard; only membership is decided here. The exclusive tests of one binary
therefore still share an exclusive batch in each shard (the scheduler gathers the tests of a binary by kind),
so no test needs to be kept beside its neighbours: each shard pays one process start per binary, as any run does.

The selection itself (its size and a digest of its sorted ids) goes into results.json, so that a merge can tell
shards of one run from shards of different runs, and which shards are absent.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass


class SelectionError(Exception):
    """A selection that cannot run: empty, or not the interrupted run's; str() is one line for the user."""


def nothing_matched(filters: list[str], collected: int | None = None) -> str:
    """The line for a selection that the filters given emptied."""
    among = f" among the {collected} tests collected" if collected else ""
    return f"nothing matched the filters given: {', '.join(filters)} select no test{among}"


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, position: int) -> bool:
        """Whether the test at `position` (0-based, in sorted id order) is in this shard."""
        return position % self.count == self.index - 1


WHOLE = Shard(1, 1)


def parse_shard(text: str) -> Shard:
    """'K/N' with 1 <= K <= N; ValueError with a one-line message otherwise (argparse shows it as is)."""
    index, slash, count = text.partition("/")
    try:
        shard = Shard(int(index), int(count)) if slash else None
    except ValueError:
        shard = None
    if shard is None:
        raise ValueError(f"{text!r} is not K/N, e.g. 2/4 (the second of four shards)")
    if shard.count < 1 or not 1 <= shard.index <= shard.count:
        raise ValueError(f"{text}: K must be 1 to N, and N at least 1 (shards are numbered from 1)")
    return shard


def digest(test_ids: Iterable[str]) -> str:
    """A fingerprint of a selection: equal for equal sets of test ids, whatever their order."""
    hasher = hashlib.sha256()
    for test_id in sorted(test_ids):
        hasher.update(test_id.encode("utf-8", errors="surrogateescape") + b"\n")
    return "sha256:" + hasher.hexdigest()[:32]


@dataclass(frozen=True)
class Selection:
    """What a run selected before sharding, and the shard it ran; results.json's `selection`."""

    shard: Shard
    size: int
    digest: str

    @classmethod
    def of(cls, test_ids: list[str], shard: Shard | None) -> "Selection":
        return cls(shard or WHOLE, len(set(test_ids)), digest(test_ids))

    def share(self, test_ids: list[str]) -> set[str]:
        """The ids of `test_ids` (the selection) that are in this run's shard."""
        ordered = sorted(set(test_ids))
        return {test_id for position, test_id in enumerate(ordered) if self.shard.holds(position)}

    def to_json(self) -> dict:
        return {
            "shard": str(self.shard),
            "index": self.shard.index,
            "count": self.shard.count,
            "size": self.size,
            "digest": self.digest,
        }

    @classmethod
    def from_json(cls, entry: dict) -> "Selection":
        """ValueError/KeyError/TypeError when `entry` is not one."""
        shard = Shard(int(entry["index"]), int(entry["count"]))
        if not 1 <= shard.index <= shard.count:
            raise ValueError(f"shard {shard} is not one")
        return cls(shard, int(entry["size"]), str(entry["digest"]))
