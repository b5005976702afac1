"""A CUDA compiler launcher that keeps what a mutation campaign needs from each nvcc compile.

    python3 -m cuconform.mutation.capture <nvcc> <arguments...>     (or scripts/mutation-capture, which sets the path)

For `nvcc -c x.cu -o x.cu.o` it asks nvcc for its steps (--dryrun --keep --keep-dir x.cu.o.mut), runs them itself,
pads the embedded fatbin right after the fatbinary step (fatbin_c.pad: room for a larger mutant, so that a mutant is
patched into the linked binary later without compiling or linking host code again) and writes
`x.cu.o.mut/manifest.json`: the PTX, cubins and fatbin, and the ptxas and fatbinary command lines with their
environment, to replay them on a mutated PTX (rebuild.py). Objects with relocatable device code (-rdc) are compiled
unchanged and marked `"rdc": true`: their device code is linked again by nvlink, which a patch cannot replay.
Everything else (links, clang, non -c calls) runs unchanged."""

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from cuconform.mutation import fatbin_c

MANIFEST = "manifest.json"
MUT_SUFFIX = ".mut"
RDC_FLAGS = {"-rdc=true", "--relocatable-device-code=true", "-dc", "--device-c", "-rdc=1"}
DEPENDENCY_FLAGS_WITH_VALUE = {"-MT", "-MF", "-MQ"}
DEPENDENCY_FLAGS = {"-MD", "-MMD"}
ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$")
# Intermediate files nobody replays; each is megabytes per object.
DISCARDED_SUFFIXES = (".ii", ".cudafe1.cpp", ".cudafe1.gpu")


def manifest_path(object_path):
    return Path(str(object_path) + MUT_SUFFIX) / MANIFEST


def _value_after(arguments, flag):
    for index, argument in enumerate(arguments[:-1]):
        if argument == flag:
            return arguments[index + 1]
    return None


def _source(arguments):
    sources = [argument for argument in arguments if argument.endswith(".cu") and not argument.startswith("-")]
    return sources[0] if len(sources) == 1 else None


def _is_rdc(arguments):
    return any(argument in RDC_FLAGS for argument in arguments) or _value_after(arguments, "-rdc") == "true"


def _without_dependency_flags(arguments):
    """The arguments less -MD/-MT/-MF (nvcc's dependency step is internal to it; capture makes the file itself)."""
    kept, skip = [], False
    for argument in arguments:
        if skip:
            skip = False
        elif argument in DEPENDENCY_FLAGS_WITH_VALUE:
            skip = True
        elif argument not in DEPENDENCY_FLAGS:
            kept.append(argument)
    return kept


def parse_dryrun(output):
    """nvcc --dryrun's `#$ ` lines as (environment assignments, command lines), in order."""
    environment, commands = {}, []
    for line in output.splitlines():
        if not line.startswith("#$ "):
            continue
        line = line[3:].strip()
        if line.startswith("--"):  # nvcc's own pseudo-steps ("-- Filter Dependencies -- > x.d")
            continue
        assignment = ASSIGNMENT.match(line)
        if assignment:
            value = assignment.group(2).strip()
            words = shlex.split(value) if value else []
            environment[assignment.group(1)] = words[0] if len(words) == 1 else value
        else:
            commands.append(line)
    return environment, commands


def _program(command):
    return os.path.basename(shlex.split(command)[0])


def _is_preprocessing(command):
    words = shlex.split(command)
    return (
        "-E" in words
        and _value_after(
            words,
            "-o",
        )
        is not None
        and words[-1].endswith(".ii")
    )


def _read_dependencies(path):
    """The prerequisites of a gcc -MD file (backslash-newlines joined, escaped spaces kept)."""
    text = Path(path).read_text().replace("\\\n", " ")
    _, _, prerequisites = text.partition(": ")
    return re.findall(r"(?:\\ |\S)+", prerequisites)


def _write_dependencies(target, parts, depfile):
    seen = []
    for part in parts:
        for prerequisite in _read_dependencies(part):
            if prerequisite not in seen:
                seen.append(prerequisite)
    Path(depfile).write_text(f"{target}: " + " \\\n  ".join(seen) + "\n")


def _image_paths(command):
    """The PTX and cubin inputs of a fatbinary command (its --image3=kind=...,file=PATH arguments)."""
    return re.findall(r"file=([^\",\s]+)", command)


def _fatbin_outputs(command):
    create = re.search(r"--create=\"?([^\"\s]+)", command)
    embedded = re.search(r"--embedded-fatbin=\"?([^\"\s]+)", command)
    if not create or not embedded:
        raise RuntimeError(f"fatbinary step without --create and --embedded-fatbin: {command}")
    return create.group(1), embedded.group(1)


def _ptxas_step(command):
    words = shlex.split(command)
    ptx = [word for word in words if word.endswith(".ptx")]
    return {"argv": words, "ptx": ptx[0], "cubin": _value_after(words, "-o")}


def _run(command, environment):
    result = subprocess.run(command, shell=True, executable="/bin/bash", env=environment)
    if result.returncode:
        sys.exit(result.returncode)


def capture(nvcc, arguments):
    """Compile as `nvcc arguments` would, keeping and padding what a mutant build needs; returns the manifest."""
    object_path = Path(_value_after(arguments, "-o")).resolve()
    source = Path(_source(arguments)).resolve()
    keep = Path(str(object_path) + MUT_SUFFIX)
    keep.mkdir(parents=True, exist_ok=True)
    dependency_target = _value_after(arguments, "-MT")
    depfile = _value_after(arguments, "-MF")

    dry = subprocess.run(
        [nvcc, *_without_dependency_flags(arguments), "--dryrun", "--keep", "--keep-dir", str(keep)],
        capture_output=True,
        text=True,
    )
    if dry.returncode:
        sys.stderr.write(dry.stderr)
        sys.exit(dry.returncode)
    assignments, commands = parse_dryrun(dry.stderr)
    environment = {**os.environ, **assignments}

    manifest = {
        "object": str(object_path),
        "source": str(source),
        "rdc": False,
        "nvcc": nvcc,
        "arguments": arguments,
        "env": assignments,
        "ptxas": [],
        "fatbinary": None,
    }
    dependency_parts = []
    for command in commands:
        if depfile and _is_preprocessing(command):
            part = keep / f"dependencies.{len(dependency_parts)}.d"
            dependency_parts.append(part)
            command += f" -MD -MT {shlex.quote(dependency_target or str(object_path))} -MF {shlex.quote(str(part))}"
        _run(command, environment)
        program = _program(command)
        if program == "ptxas":
            manifest["ptxas"].append(_ptxas_step(command))
        elif program == "fatbinary":
            fatbin, embedded_c = _fatbin_outputs(command)
            manifest["fatbinary"] = {"argv": shlex.split(command), "images": _image_paths(command)}
            _pad(Path(embedded_c), manifest)
            manifest["fatbin"] = fatbin
    if depfile:
        _write_dependencies(dependency_target or str(object_path), dependency_parts, depfile)
    if manifest["fatbinary"] is None:
        manifest["skipped"] = "nvcc ran no fatbinary step with an embedded fatbin"
    for path in keep.iterdir():
        if path.name.endswith(DISCARDED_SUFFIXES):
            path.unlink()
    manifest["ptx"] = [step["ptx"] for step in manifest["ptxas"]]
    manifest["cubin"] = [step["cubin"] for step in manifest["ptxas"]]
    (keep / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def _pad(embedded_c, manifest):
    text = embedded_c.read_text()
    size = len(fatbin_c.embedded(text))
    padding = fatbin_c.padding_for(size)
    embedded_c.write_text(fatbin_c.pad(text, padding))
    manifest.update(fatbin_c=str(embedded_c), fatbin_size=size, capacity=size + padding)


def _passes_through(nvcc, arguments):
    return (
        os.path.basename(nvcc) != "nvcc"
        or "-c" not in arguments
        or _source(arguments) is None
        or _value_after(arguments, "-o") is None
        or "--dryrun" in arguments
    )


def main(argv):
    if not argv:
        sys.exit("usage: python3 -m cuconform.mutation.capture <nvcc> <arguments...>")
    nvcc, arguments = argv[0], argv[1:]
    if _passes_through(nvcc, arguments):
        os.execvp(nvcc, argv)
    if _is_rdc(arguments):
        object_path = Path(_value_after(arguments, "-o")).resolve()
        result = subprocess.run(argv)
        if result.returncode == 0:
            manifest_path(object_path).parent.mkdir(parents=True, exist_ok=True)
            manifest_path(object_path).write_text(
                json.dumps(
                    {
                        "object": str(object_path),
                        "source": str(Path(_source(arguments)).resolve()),
                        "rdc": True,
                        "skipped": "relocatable device code: nvlink links it again, which a patch cannot replay",
                    },
                    indent=1,
                )
                + "\n"
            )
        sys.exit(result.returncode)
    capture(nvcc, arguments)


if __name__ == "__main__":
    main(sys.argv[1:])
