"""The reports of the shards of one run, joined into one: `scripts/conformance merge OUT RUN...`, whose command
line is cli/conformance/merge.py.

Each RUN is a results.json or the report folder holding it, made by `scripts/conformance run --shard K/N` (or a
whole run, which is shard 1/1). The merge checks that the parts belong together, says which shards are absent,
and writes OUT/results.json and OUT/junit.xml, each test marked with the part (`part`) that ran it.

Parts belong together when they ran the same selection (size and digest of its test ids, shard.py), split the same
way (N), on the same build (compiler, version, flags, architectures) with the same profile. Runs made on different
GPUs or drivers are kept apart unless --different-gpus is given: then each GPU (model, CC, driver) is a group of its
own whose shards must be complete, and every part keeps its environment in `parts`.

Exit codes: 0 complete and nothing unexpected; 1 unexpected results, absent shards, an interrupted part or a binary
that could not start (`unstartable`, kept from every part); 2 a run that cannot be read, or runs that must not be
merged (one line on stderr).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from cuconform import overview
from cuconform.junit import write_junit
from cuconform.overview import gpu_text
from cuconform.files import printable
from cuconform.reports import JUNIT, ReportFolder, write_documents
from cuconform.results_file import FORMAT_VERSION, RESULTS, ResultsError, read
from cuconform.shard import Selection, Shard
from cuconform.status import UNEXPECTED_VERDICTS, Verdict

EXIT_OK, EXIT_INCOMPLETE, EXIT_BAD_INPUT = 0, 1, 2
UNEXPECTED_SHOWN = 20


class MergeError(Exception):
    """Runs that cannot be read or must not be merged; str() is one line for the user."""


@dataclass
class Part:
    path: Path
    document: dict
    selection: Selection

    @property
    def environment(self) -> dict:
        return self.document.get("environment") or {}

    @property
    def tests(self) -> list[dict]:
        return self.document["tests"]

    @property
    def complete(self) -> bool:
        return bool(self.document.get("complete", True))

    @property
    def gpu(self) -> str:
        """'NVIDIA H100 80GB HBM3 (CC 9.0), driver for CUDA 13.0', or 'no CUDA device (<why>)'."""
        return gpu_text(self.environment, driver=True)

    @property
    def build(self) -> str:
        build = self.environment.get("build") or {}
        words = [build.get("compiler"), build.get("compiler_version"), build.get("flags"), build.get("architectures")]
        return " ".join(str(word) for word in words if word) or "unknown build"

    @property
    def profile(self) -> str:
        return str(self.environment.get("profile") or "?")


def load_part(where: Path) -> Part:
    try:
        results = read(where)
    except ResultsError as error:
        raise MergeError(str(error)) from None
    path, document = results.path, results.document
    if document.get("parts"):
        raise MergeError(f"{path}: already a merge: merge the runs it was made of")
    entry = results.selection
    try:
        # A run made before runs recorded their selection counts as a whole run of what it holds.
        selection = Selection.from_json(entry) if entry else Selection(Shard(1, 1), len(document["tests"]), "")
    except (KeyError, TypeError, ValueError):
        raise MergeError(f"{path}: its 'selection' is not one: {json.dumps(entry)[:200]}") from None
    return Part(path, document, selection)


@dataclass
class Group:
    """The shards of one selection on one kind of GPU."""

    gpu: str
    parts: list[Part] = field(default_factory=list)

    @property
    def count(self) -> int:
        return self.parts[0].selection.shard.count

    @property
    def missing(self) -> list[Shard]:
        present = {part.selection.shard.index for part in self.parts}
        return [Shard(index, self.count) for index in range(1, self.count + 1) if index not in present]


def group_parts(parts: list[Part], different_gpus: bool) -> list[Group]:
    """The parts by GPU, each group checked to be shards of one selection and build; MergeError otherwise."""
    groups: dict[str, Group] = {}
    for part in parts:
        groups.setdefault(part.gpu, Group(part.gpu)).parts.append(part)
    if len(groups) > 1 and not different_gpus:
        a, b = (group.parts[0] for group in list(groups.values())[:2])
        raise MergeError(
            f"{a.path} ran on {a.gpu}, {b.path} on {b.gpu}: to merge runs of different GPUs or drivers, "
            "say so with --different-gpus (each part keeps its environment)"
        )
    for group in groups.values():
        first = group.parts[0]
        for part in group.parts[1:]:
            _check_together(first, part)
        seen: dict[int, Part] = {}
        for part in group.parts:
            index = part.selection.shard.index
            if index in seen:
                raise MergeError(f"shard {part.selection.shard} is there twice: {seen[index].path} and {part.path}")
            seen[index] = part
        group.parts.sort(key=lambda part: part.selection.shard.index)
    return list(groups.values())


def _check_together(a: Part, b: Part) -> None:
    sa, sb = a.selection, b.selection
    if (sa.shard.count, sa.size, sa.digest) != (sb.shard.count, sb.size, sb.digest) or not sa.digest:
        raise MergeError(
            f"{a.path} (shard {sa.shard} of {sa.size} tests) and {b.path} (shard {sb.shard} of {sb.size} "
            "tests) are not shards of one selection: same build, options and N on every machine"
        )
    if a.build != b.build:
        raise MergeError(
            f"{a.path} and {b.path} are different builds ({a.build}; {b.build}): "
            "use scripts/conformance diff to compare builds"
        )
    if a.profile != b.profile:
        raise MergeError(f"{a.path} ran profile {a.profile}, {b.path} profile {b.profile}: not one run")


def _common(environments: list[dict]) -> dict:
    """What every part's environment agrees on (the build, the profile, ...); the rest is in `parts`."""
    first, rest = environments[0], environments[1:]
    common = {key: value for key, value in first.items() if all(other.get(key) == value for other in rest)}
    started = [str(e["started"]) for e in environments if e.get("started")]
    ended = [str(e["ended"]) for e in environments if e.get("ended")]
    if started:
        common["started"] = min(started)
    if ended:
        common["ended"] = max(ended)
    return common


def _gpus_of_one_model(environments: list[dict]) -> dict | None:
    """The devices of shards that ran on different GPUs of one model (one per GPU of a host, say): each GPU once, by
    UUID, so that the merged run names them all ("2 × NVIDIA H200") instead of none."""
    documents = [e["devices"] for e in environments if e.get("devices")]
    if not documents:
        return None
    merged = {key: value for key, value in documents[0].items() if all(d.get(key) == value for d in documents)}
    by_uuid: dict[str, dict] = {}
    for document in documents:
        for device in document.get("devices") or []:
            by_uuid.setdefault(str(device.get("uuid") or json.dumps(device, sort_keys=True)), device)
    merged["devices"] = list(by_uuid.values())
    return merged


def merged_document(groups: list[Group], name: str) -> dict:
    parts = [part for group in groups for part in group.parts]
    tests, stale, seen_stale = [], [], set()
    for number, part in enumerate(parts):
        tests += [dict(test, part=number) for test in part.tests]
        for entry in part.document.get("stale_expectations") or []:
            key = json.dumps(entry, sort_keys=True)
            if key not in seen_stale:
                seen_stale.add(key)
                stale.append(entry)
    # A binary that could not start in any part: its tests are missing from the merge too (results.json
    # `unstartable`, each line once).
    unstartable = list(dict.fromkeys(str(line) for part in parts for line in part.document.get("unstartable") or []))
    counted = Counter(str(test.get("verdict")) for test in tests)
    missing = [
        {"gpu": group.gpu, "shards": [str(shard) for shard in group.missing]} for group in groups if group.missing
    ]
    whole = None
    if len(groups) == 1 and not missing:
        selection = parts[0].selection
        whole = Selection(Shard(1, 1), selection.size, selection.digest).to_json()
    environment = _common([part.environment for part in parts])
    environment.update(run=name, merged_parts=len(parts))
    if len(groups) == 1 and "devices" not in environment:  # one model, several GPUs
        if devices := _gpus_of_one_model([part.environment for part in parts]):
            environment["devices"] = devices
            environment["visible_gpus"] = len(devices["devices"])
    return {
        "format": FORMAT_VERSION,
        "environment": environment,
        "complete": not missing and all(part.complete for part in parts),
        "selection": whole,
        "parts": [
            {
                "path": str(part.path),
                "shard": str(part.selection.shard),
                "gpu": part.gpu,
                "host": (part.environment.get("host") or {}).get("name"),
                "complete": part.complete,
                "tests": len(part.tests),
                "environment": part.environment,
            }
            for part in parts
        ],
        "missing_shards": missing,
        "counts": {verdict.value: counted.get(verdict.value, 0) for verdict in Verdict},
        "unexpected": sum(1 for test in tests if test.get("verdict") in UNEXPECTED_VERDICTS),
        "stale_expectations": stale,
        **({"unstartable": unstartable} if unstartable else {}),
        "tests": tests,
    }


def summary(document: dict, where: Path) -> list[str]:
    lines = [f"merged {len(document['parts'])} parts:"]
    for part in document["parts"]:
        state = "" if part["complete"] else "  INCOMPLETE (interrupted: resume it, then merge again)"
        lines.append(
            f"  shard {part['shard']:>5}  {part['tests']:6} tests  {part['gpu']}  "
            f"{part['host'] or ''}  {part['path']}{state}".rstrip()
        )
    for group in document["missing_shards"]:
        lines.append(f"missing: shards {', '.join(group['shards'])} absent ({group['gpu']})")
    counts = document["counts"]
    lines.append("verdicts: " + (", ".join(f"{n} {v}" for v, n in counts.items() if n) or "none"))
    unexpected = [test for test in document["tests"] if test.get("verdict") in UNEXPECTED_VERDICTS]
    if unexpected:
        lines.append(f"unexpected ({len(unexpected)}):")
        lines += [
            f"  {str(test['verdict']).upper():8} {printable(test['id'])}" for test in unexpected[:UNEXPECTED_SHOWN]
        ]
        if len(unexpected) > UNEXPECTED_SHOWN:
            lines.append(f"  ... and {len(unexpected) - UNEXPECTED_SHOWN} more ({where / RESULTS})")
    lines += [f"NOT RUN  {line}" for line in document.get("unstartable") or []]
    lines.append(f"reports: {where / RESULTS}, {where / JUNIT}")
    if not document["complete"]:
        lines.append("incomplete: the merge lacks shards or parts were interrupted")
    return lines


def write_merged(groups: list[Group], out: Path) -> tuple[dict, Path]:
    """OUT/results.json (with report.html and summary.md) and OUT/junit.xml of the joined parts; the document and
    the folder."""
    folder = ReportFolder(None, out, out.name)
    document = merged_document(groups, folder.name)
    write_documents(folder.staging, document)
    parts = [part for group in groups for part in group.parts]
    write_junit(
        folder.staged(JUNIT),
        [
            (
                f"cuconform {part.gpu} shard {part.selection.shard}" if len(parts) > 1 else "cuconform",
                part.environment,
                [test for test in document["tests"] if test["part"] == number],
            )
            for number, part in enumerate(parts)
        ],
        overview.unstartable(document),
    )
    return document, folder.publish()
