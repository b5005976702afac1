"""A mutant's fatbin: one operator applied to one object's PTX, then the object's own ptxas and fatbinary steps
(recorded by capture.py in its manifest) replayed on the mutated PTX. No host code is compiled."""

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from cuconform.mutation import fatbin_c
from cuconform.mutation.operators import Operator, mutate

PTXAS_TIMEOUT_S = 600
# A site ptxas rejects is reverted and ptxas runs again; a PTX with more bad sites than this is given up.
MAX_PTXAS_ATTEMPTS = 4
PTXAS_ERROR_LINE = re.compile(r"^ptxas (?P<file>.+?), line (?P<line>\d+); (?:error|fatal)", re.MULTILINE)


class MutantBuildError(RuntimeError):
    """The mutant could not be built: the campaign records it as invalid."""


class InvalidMutant(MutantBuildError):
    """ptxas rejected the mutated PTX (at lines that are not sites of the operator, or too many times)."""


class MutantTooLarge(MutantBuildError):
    """The mutant fatbin is larger than the room capture left for it in the executable."""


@dataclass(frozen=True)
class MutantFatbin:
    object: str
    sites: int
    original: bytes  # the fatbin as embedded, with its padding: what patch.py looks for in the executable
    mutant: bytes  # the mutant fatbin; len(mutant) <= len(original)


def _environment(manifest):
    return {**os.environ, **manifest.get("env", {})}


def _substituted(argv, paths):
    out = []
    for argument in argv:
        for old, new in paths.items():
            argument = argument.replace(old, new)
        out.append(argument)
    return out


def _run(argv, environment, what):
    result = subprocess.run(argv, env=environment, capture_output=True, text=True, timeout=PTXAS_TIMEOUT_S)
    if result.returncode:
        raise InvalidMutant(f"{what} failed ({result.returncode}): {' '.join(argv)}\n{result.stderr}{result.stdout}")
    return result


def _compile(step, mutated_path, original_ptx, op, workdir, environment):
    """ptxas on the mutated PTX; sites it rejects are reverted (and no longer counted) until it accepts the rest.
    Returns the number of sites kept and the new cubin's path."""
    cubin = workdir / Path(step["cubin"]).name
    skip = set()
    for _ in range(MAX_PTXAS_ATTEMPTS):
        text, changed = mutate(op, original_ptx, frozenset(skip))
        if not changed:
            return 0, None
        mutated_path.write_text(text)
        argv = _substituted(step["argv"], {step["ptx"]: str(mutated_path), step["cubin"]: str(cubin)})
        result = subprocess.run(argv, env=environment, capture_output=True, text=True, timeout=PTXAS_TIMEOUT_S)
        if result.returncode == 0:
            return len(changed), cubin
        rejected = {int(match.group("line")) - 1 for match in PTXAS_ERROR_LINE.finditer(result.stderr)}
        if not rejected or not rejected <= set(changed):
            raise InvalidMutant(f"ptxas rejects {mutated_path} outside the sites of {op.name}:\n{result.stderr}")
        skip |= rejected
    raise InvalidMutant(f"ptxas still rejects {mutated_path} after {MAX_PTXAS_ATTEMPTS} attempts")


def build_mutant(manifest: dict, op: Operator, workdir: Path) -> MutantFatbin | None:
    """The fatbin of `manifest`'s object with `op` applied to all its PTX; None when `op` changes nothing (or the
    object is not mutable: relocatable device code, see capture.py). Raises MutantBuildError when ptxas or
    fatbinary fail or the mutant does not fit the padded room."""
    if manifest.get("rdc") or manifest.get("skipped") or not manifest.get("ptxas"):
        return None
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    environment = _environment(manifest)
    sites, paths = 0, {}
    for step in manifest["ptxas"]:
        original_ptx = Path(step["ptx"]).read_text()
        mutated_path = workdir / Path(step["ptx"]).name
        kept, cubin = _compile(step, mutated_path, original_ptx, op, workdir, environment)
        if kept:
            sites += kept
            paths[step["ptx"]] = str(mutated_path)
            paths[step["cubin"]] = str(cubin)
    if sites == 0:
        return None
    fatbin = workdir / Path(manifest["fatbin"]).name
    paths[manifest["fatbin"]] = str(fatbin)
    argv = [argument for argument in manifest["fatbinary"]["argv"] if not argument.startswith("--embedded-fatbin")]
    _run(_substituted(argv, paths), environment, "fatbinary")
    original = fatbin_c.embedded(Path(manifest["fatbin_c"]).read_text())
    mutant = fatbin.read_bytes()
    if len(mutant) > len(original):
        raise MutantTooLarge(
            f"{op.name} on {manifest['object']}: mutant fatbin {len(mutant)} bytes, room for "
            f"{len(original)} ({manifest['fatbin_size']} + padding)"
        )
    return MutantFatbin(object=manifest["object"], sites=sites, original=original, mutant=mutant)
