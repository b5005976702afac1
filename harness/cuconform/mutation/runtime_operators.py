"""The host-side mutation operators: each one plausible bug of the CUDA driver or runtime, injected into an
unmodified suite binary by the interposed library suites/common/interpose/ (libcuconform-interpose.so, loaded with
LD_PRELOAD; its README says why an interposer). Its operators.h implements each by name; this module names,
describes and places them, as operators.py does the PTX ones, so that a campaign runs and scores both alike.

A runtime mutant is an operator in one of its `areas`: the area's binary run as `bin/cuconform-<area>@<operator>`, a
script that runs the real binary under the library with the operator named (`wrapper_script`). No object is
rebuilt. Its sites are the source lines of the area that name one of the operator's `apis` (the focused run takes
the tests written in those files); whether it applies is measured: the library counts the calls of the entry
points it wraps and the calls its operator changed (`Calls`), and a mutant whose area never made one, or whose
wrappers changed none (its run was the baseline's), is `not applicable`, whatever its tests did. The campaign's
census (census.py) counts the calls once per area before the batches, in the library's mode `census`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from cuconform.environment import REPO

LIBRARY = Path("interpose") / "libcuconform-interpose.so"  # in the build folder (suites/common/interpose/)
TARGET = "cuconform-interpose"
MUTANT_VARIABLE = "CUCONFORM_RUNTIME_MUTANT"
CALLS_VARIABLE = "CUCONFORM_RUNTIME_CALLS"
UNKNOWN_OPERATOR = "unknown-operator"  # the file the library leaves when it knows no operator of that name
CENSUS = "census"  # the library's counting mode: every operator's entry points wrapped and counted, none changed
OPERATOR_TABLE = "operators"  # the file the census leaves: "<operator> <entry>..." lines, the library's own table
SOURCE_SUFFIXES = (".cu", ".cpp", ".h", ".cuh")

STREAMS, GRAPHS, MEMORY, ENVIRONMENT, TEXTURES = (
    "runtime: streams and events",
    "runtime: graphs",
    "runtime: memory",
    "runtime: launches and the environment",
    "runtime: textures",
)
FAMILIES = (STREAMS, GRAPHS, MEMORY, ENVIRONMENT, TEXTURES)

# The areas whose rules check what the runtime does on the host side.
RUNTIME_AREAS = ("streams", "graphs", "memory_management", "runtime", "dynamic_parallelism", "textures")
ORDERING_AREAS = ("streams", "graphs", "memory_management", "runtime", "dynamic_parallelism")


@dataclass(frozen=True)
class RuntimeOperator:
    name: str  # kebab-case, unique, as operators.h names it
    family: str
    description: str  # the bug it models, in words
    areas: tuple[str, ...]  # where it is tried (elsewhere it has no entry)
    apis: tuple[str, ...]  # runtime (and driver) API names whose use in an area's sources is a site
    rule: tuple = ()  # no PTX rewrite: the library makes the change

    @property
    def api_pattern(self) -> re.Pattern:
        return re.compile(r"\b(?:" + "|".join(re.escape(api) for api in self.apis) + r")\b")


def _op(name, family, description, areas, *apis) -> RuntimeOperator:
    return RuntimeOperator(name, family, description, tuple(areas), tuple(apis))


_STREAM_WAIT = ("cudaStreamWaitEvent", "cuStreamWaitEvent")
_EVENT_RECORD = ("cudaEventRecord", "cudaEventRecordWithFlags", "cuEventRecord")
_GRAPH_ADDS = (
    "cudaGraphAddKernelNode",
    "cudaGraphAddMemcpyNode",
    "cudaGraphAddMemcpyNode1D",
    "cudaGraphAddMemsetNode",
    "cudaGraphAddHostNode",
    "cudaGraphAddChildGraphNode",
    "cudaGraphAddEmptyNode",
    "cudaGraphAddEventRecordNode",
    "cudaGraphAddEventWaitNode",
    "cudaGraphAddNode",
    "cudaGraphAddDependencies",
)
_COPIES = ("cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol", "cudaMemcpyPeer")
_MEMSETS = ("cudaMemset", "cudaMemsetAsync", "cudaMemset2D", "cudaMemset2DAsync")
_ALLOCATIONS = ("cudaMalloc", "cudaMallocAsync", "cudaMallocFromPoolAsync", "cudaMallocManaged", "cudaMallocPitch")

RUNTIME_OPERATORS: tuple[RuntimeOperator, ...] = (
    # --- streams and events ---
    _op(
        "stream-wait-event-dropped",
        STREAMS,
        "cudaStreamWaitEvent returns success and makes the stream wait for nothing",
        ORDERING_AREAS,
        *_STREAM_WAIT,
    ),
    _op(
        "stream-wait-event-other-stream",
        STREAMS,
        "cudaStreamWaitEvent makes another stream wait instead of the one named",
        ORDERING_AREAS,
        *_STREAM_WAIT,
    ),
    _op(
        "event-record-dropped",
        STREAMS,
        "cudaEventRecord returns success and records nothing (the event keeps its last capture)",
        ORDERING_AREAS,
        *_EVENT_RECORD,
    ),
    _op(
        "event-record-other-stream",
        STREAMS,
        "cudaEventRecord captures the work of another (empty) stream instead of the one named",
        ORDERING_AREAS,
        *_EVENT_RECORD,
    ),
    _op(
        "stream-synchronize-returns-early",
        STREAMS,
        "cudaStreamSynchronize returns before the stream's work is done",
        ORDERING_AREAS,
        "cudaStreamSynchronize",
    ),
    _op(
        "event-synchronize-returns-early",
        STREAMS,
        "cudaEventSynchronize returns before the event's work is done",
        ORDERING_AREAS,
        "cudaEventSynchronize",
    ),
    _op(
        "ctx-synchronize-returns-early",
        STREAMS,
        "cudaDeviceSynchronize returns before the device's work is done",
        RUNTIME_AREAS,
        "cudaDeviceSynchronize",
    ),
    _op(
        "event-query-always-complete",
        STREAMS,
        "cudaEventQuery reports cudaSuccess for an event whose work is still running",
        ORDERING_AREAS,
        "cudaEventQuery",
    ),
    _op(
        "stream-query-always-idle",
        STREAMS,
        "cudaStreamQuery reports cudaSuccess for a stream that still has work",
        ORDERING_AREAS,
        "cudaStreamQuery",
    ),
    _op(
        "event-elapsed-time-halved",
        STREAMS,
        "cudaEventElapsedTime reports half the time between the two events",
        ("streams", "runtime"),
        "cudaEventElapsedTime",
    ),
    _op(
        "event-disable-timing-ignored",
        STREAMS,
        "cudaEventDisableTiming is ignored: the event records timing (and elapsed time can be asked of it)",
        ORDERING_AREAS,
        "cudaEventDisableTiming",
    ),
    _op(
        "stream-priority-ignored",
        STREAMS,
        "cudaStreamCreateWithPriority creates a stream of the default priority",
        ("streams",),
        "cudaStreamCreateWithPriority",
    ),
    _op(
        "stream-non-blocking-ignored",
        STREAMS,
        "cudaStreamNonBlocking is ignored: the stream synchronizes with the legacy default stream",
        ORDERING_AREAS,
        "cudaStreamNonBlocking",
    ),
    _op(
        "host-callback-runs-early",
        STREAMS,
        "a host function or stream callback runs at once, on the calling thread, before the work queued ahead",
        ("streams", "graphs", "runtime"),
        "cudaLaunchHostFunc",
        "cudaStreamAddCallback",
    ),
    # --- graphs ---
    _op(
        "graph-edge-dropped",
        GRAPHS,
        "a node added with dependencies loses the last of them (and cudaGraphAddDependencies adds one edge fewer)",
        ("graphs", "memory_management", "streams"),
        *_GRAPH_ADDS,
    ),
    _op(
        "graph-exec-kernel-params-not-updated",
        GRAPHS,
        "cudaGraphExecKernelNodeSetParams returns success and the executable graph keeps the old parameters",
        ("graphs",),
        "cudaGraphExecKernelNodeSetParams",
    ),
    _op(
        "graph-exec-node-params-not-updated",
        GRAPHS,
        "an executable graph's memcpy, memset, host, child-graph or event node keeps its old parameters after a "
        "successful cudaGraphExec*NodeSetParams",
        ("graphs", "memory_management"),
        "cudaGraphExecMemcpyNodeSetParams",
        "cudaGraphExecMemcpyNodeSetParams1D",
        "cudaGraphExecMemsetNodeSetParams",
        "cudaGraphExecHostNodeSetParams",
        "cudaGraphExecChildGraphNodeSetParams",
        "cudaGraphExecEventRecordNodeSetEvent",
        "cudaGraphExecEventWaitNodeSetEvent",
        "cudaGraphExecNodeSetParams",
    ),
    _op(
        "graph-exec-update-ignored",
        GRAPHS,
        "cudaGraphExecUpdate reports success (and cudaGraphExecUpdateSuccess) without updating anything",
        ("graphs", "memory_management"),
        "cudaGraphExecUpdate",
    ),
    _op(
        "graph-launch-other-stream",
        GRAPHS,
        "cudaGraphLaunch launches into another stream, unordered with the work of the one named",
        ("graphs", "memory_management", "streams"),
        "cudaGraphLaunch",
    ),
    _op(
        "graph-node-enable-ignored",
        GRAPHS,
        "cudaGraphNodeSetEnabled returns success and the node stays as it was",
        ("graphs",),
        "cudaGraphNodeSetEnabled",
    ),
    _op(
        "graph-conditional-default-ignored",
        GRAPHS,
        "a conditional handle's default value (cudaGraphCondAssignDefault) is not applied at launch",
        ("graphs",),
        "cudaGraphConditionalHandleCreate",
    ),
    _op(
        "graph-user-object-not-retained",
        GRAPHS,
        "cudaGraphRetainUserObject returns success and the graph takes no reference",
        ("graphs",),
        "cudaGraphRetainUserObject",
    ),
    # --- memory ---
    _op(
        "memcpy-copies-half",
        MEMORY,
        "a linear cudaMemcpy (or its async form) copies only the first half of its bytes",
        RUNTIME_AREAS,
        *_COPIES,
    ),
    _op(
        "memcpy-async-other-stream",
        MEMORY,
        "cudaMemcpyAsync is queued in another stream, unordered with the work of the one named",
        ORDERING_AREAS,
        "cudaMemcpyAsync",
    ),
    _op(
        "memcpy-2d-3d-last-row-dropped",
        MEMORY,
        "a 2D copy leaves out its last row, a 3D copy its last slice (to and from arrays too)",
        ("textures", "graphs", "dynamic_parallelism", "memory_management"),
        "cudaMemcpy2D",
        "cudaMemcpy2DAsync",
        "cudaMemcpy2DToArray",
        "cudaMemcpy2DFromArray",
        "cudaMemcpy3D",
        "cudaMemcpy3DAsync",
    ),
    _op(
        "memset-value-changed",
        MEMORY,
        "cudaMemset writes its value with the lowest bit flipped",
        RUNTIME_AREAS,
        *_MEMSETS,
    ),
    _op(
        "memset-count-halved",
        MEMORY,
        "cudaMemset sets only the first half of the bytes (rows, for a 2D set)",
        RUNTIME_AREAS,
        *_MEMSETS,
    ),
    _op(
        "malloc-misaligned",
        MEMORY,
        "cudaMalloc and the stream-ordered allocations return memory 16 bytes past a 256-byte boundary",
        RUNTIME_AREAS,
        *_ALLOCATIONS,
    ),
    _op(
        "malloc-out-of-memory-to-invalid-value",
        MEMORY,
        "an allocation that runs out of memory reports cudaErrorInvalidValue instead of cudaErrorMemoryAllocation",
        RUNTIME_AREAS,
        *_ALLOCATIONS,
        "cudaMallocHost",
        "cudaHostAlloc",
        "cudaErrorMemoryAllocation",
    ),
    _op(
        "free-async-other-stream",
        MEMORY,
        "cudaFreeAsync frees in another stream, before the work queued ahead of it in the one named is done",
        ("memory_management", "graphs"),
        "cudaFreeAsync",
    ),
    _op(
        "pool-attribute-stale",
        MEMORY,
        "a memory pool's threshold and reserved/used memory attributes keep the value of their first query",
        ("memory_management",),
        "cudaMemPoolGetAttribute",
    ),
    _op(
        "pool-attribute-set-ignored",
        MEMORY,
        "cudaMemPoolSetAttribute returns success and changes nothing (release threshold, reuse policies)",
        ("memory_management",),
        "cudaMemPoolSetAttribute",
    ),
    _op(
        "pool-trim-ignored",
        MEMORY,
        "cudaMemPoolTrimTo returns success and releases nothing",
        ("memory_management",),
        "cudaMemPoolTrimTo",
    ),
    _op(
        "pointer-memory-type-swapped",
        MEMORY,
        "a pointer's attributes report device memory as host memory and host memory as device memory",
        ("memory_management", "runtime"),
        "cudaPointerGetAttributes",
        "cuPointerGetAttribute",
        "cuPointerGetAttributes",
    ),
    _op(
        "managed-attach-host-ignored",
        MEMORY,
        "cudaMemAttachHost is ignored: managed memory is attached globally, and cudaStreamAttachMemAsync does nothing",
        ("memory_management",),
        "cudaMemAttachHost",
        "cudaStreamAttachMemAsync",
    ),
    _op(
        "mem-advise-ignored",
        MEMORY,
        "cudaMemAdvise returns success and records no advice",
        ("memory_management",),
        "cudaMemAdvise",
    ),
    _op(
        "mem-prefetch-ignored",
        MEMORY,
        "cudaMemPrefetchAsync returns success and prefetches nothing",
        ("memory_management",),
        "cudaMemPrefetchAsync",
    ),
    _op(
        "mem-range-attribute-stale",
        MEMORY,
        "a managed range attribute keeps the answer of its first query, whatever range or advice followed",
        ("memory_management",),
        "cudaMemRangeGetAttribute",
        "cudaMemRangeGetAttributes",
    ),
    _op(
        "vmm-set-access-ignored",
        MEMORY,
        "cuMemSetAccess returns success and grants no access to the mapping",
        ("memory_management", "textures"),
        "cuMemSetAccess",
    ),
    _op(
        "vmm-granularity-halved",
        MEMORY,
        "cuMemGetAllocationGranularity reports half the granularity",
        ("memory_management", "textures"),
        "cuMemGetAllocationGranularity",
    ),
    # --- launches and the environment ---
    _op(
        "ctx-set-limit-ignored",
        ENVIRONMENT,
        "cudaDeviceSetLimit returns success and the limit keeps its value",
        ("runtime", "dynamic_parallelism", "streams", "device_heap"),
        "cudaDeviceSetLimit",
    ),
    _op(
        "launch-error-swallowed",
        ENVIRONMENT,
        "a kernel launch the driver rejects (configuration, resources) is reported as cudaSuccess",
        RUNTIME_AREAS + ("launch",),
        "cudaLaunchKernel",
        "cudaLaunchKernelEx",
        "cudaLaunchCooperativeKernel",
        "cudaGetLastError",
        "cudaPeekAtLastError",
    ),
    _op(
        "launch-attributes-dropped",
        ENVIRONMENT,
        "cudaLaunchKernelEx ignores its launch attributes (cluster dimensions, programmatic serialization, "
        "priority, memory synchronization domain)",
        ("streams", "launch", "runtime"),
        "cudaLaunchKernelEx",
        "cudaLaunchAttribute",
    ),
    _op(
        "func-set-attribute-ignored",
        ENVIRONMENT,
        "cudaFuncSetAttribute returns success and the kernel keeps its attribute (e.g. its dynamic shared memory "
        "limit)",
        ("launch", "runtime", "streams"),
        "cudaFuncSetAttribute",
    ),
    _op(
        "driver-version-lowered",
        ENVIRONMENT,
        "cudaDriverGetVersion (and the runtime's own check) sees the previous minor version of the driver",
        ("runtime",),
        "cudaDriverGetVersion",
    ),
    # --- textures ---
    _op(
        "texture-filter-mode-point",
        TEXTURES,
        "a texture object is made with point filtering, whatever filter mode its descriptor names",
        ("textures",),
        "cudaCreateTextureObject",
        "cudaFilterModeLinear",
    ),
    _op(
        "texture-address-mode-clamp",
        TEXTURES,
        "a texture object is made with clamp addressing, whatever address modes its descriptor names",
        ("textures",),
        "cudaCreateTextureObject",
        "addressMode",
    ),
    _op(
        "texture-normalized-coords-ignored",
        TEXTURES,
        "a texture object ignores normalizedCoords: it is addressed with unnormalized coordinates",
        ("textures",),
        "cudaCreateTextureObject",
        "normalizedCoords",
    ),
    _op(
        "texture-read-mode-flipped",
        TEXTURES,
        "a texture object reads elements as normalized floats where its descriptor says element type, and back",
        ("textures",),
        "cudaCreateTextureObject",
        "readMode",
    ),
)

BY_NAME = {operator.name: operator for operator in RUNTIME_OPERATORS}


def is_runtime(op) -> bool:
    return isinstance(op, RuntimeOperator)


# --- where an operator applies in an area's sources ----------------------------------------------------------------


@cache
def _area_sources(suites: Path, area: str) -> tuple[tuple[str, str], ...]:
    """(source key `suites/<area>/<file>`, text) of every source file of the area's folder."""
    folder = suites / area
    if not folder.is_dir():
        return ()
    found = []
    for path in sorted(folder.rglob("*")):
        if path.suffix in SOURCE_SUFFIXES and path.is_file() and "selftest" not in path.parts:
            found.append((f"suites/{path.relative_to(suites).as_posix()}", path.read_text(errors="replace")))
    return tuple(found)


def sites(op: RuntimeOperator, area: str, suites: Path = REPO / "suites") -> dict[str, int]:
    """{source key: lines that name one of the operator's APIs} for the area's sources that have one."""
    pattern = op.api_pattern
    found = {}
    for key, text in _area_sources(suites, area):
        count = sum(1 for line in text.splitlines() if pattern.search(line))
        if count:
            found[key] = count
    return found


# --- a mutant binary, and the calls it made ------------------------------------------------------------------------


def library(build_dir: Path) -> Path:
    return build_dir / LIBRARY


def wrapper_script(binary: Path, mode: str, about: str, calls: Path, interposer: Path) -> str:
    """The mutant `bin/cuconform-<area>@<operator>` (`mode` the operator's name, `about` its description), or the
    census's `bin/cuconform-<area>@census`: the real binary, under the library, with the mode named (children it
    starts inherit both: the same driver bug)."""
    return (
        "#!/bin/sh\n"
        f"# {mode} ({about}): scripts/conformance mutate, harness/cuconform/mutation/runtime_operators.py\n"
        f"export LD_PRELOAD='{interposer}'\"${{LD_PRELOAD:+:$LD_PRELOAD}}\"\n"
        f"export {MUTANT_VARIABLE}='{mode}'\n"
        f"export {CALLS_VARIABLE}='{calls}'\n"
        f"exec '{binary}' \"$@\"\n"
    )


@dataclass(frozen=True)
class Calls:
    """What the library counted in a mutant's folder: the calls of each entry point it wraps and the calls its
    operator changed (from the `.calls` file each process wrote at its exit: `<entry> <calls> <changed>` lines), the
    entry points called at all and those changed at all (a marker each process left at its first call and at its
    first change: a process that crashed counts too), whether every `.calls` file counted the changes (the old
    format, `<entry> <calls>`, did not), and whether it knew no operator of that name. In the census: the calls
    each operator would have changed (`<pid>.would` files, `<operator> <calls>` lines, and a `would.<operator>.<pid>`
    marker at each process's first), known when the library left `would-change` (`counts_would`)."""

    by_entry: dict[str, int]
    called: frozenset[str]
    unknown_operator: bool
    changed_by_entry: dict[str, int] = field(default_factory=dict)
    changed_marked: frozenset[str] = frozenset()
    counts_changes: bool = False
    would: dict[str, int] = field(default_factory=dict)  # operator -> calls it would have changed (the census)
    would_marked: frozenset[str] = frozenset()
    counts_would: bool = False

    def would_change(self, operator: str) -> bool:
        """The census saw a call that `operator` would have changed."""
        return self.would.get(operator, 0) > 0 or operator in self.would_marked

    @property
    def total(self) -> int:
        return sum(self.by_entry.values())

    @property
    def changed(self) -> int:
        return sum(self.changed_by_entry.values())

    @property
    def applicable(self) -> bool:
        return bool(self.called) or self.total > 0

    @property
    def changed_none(self) -> bool:
        """The operator's wrappers were entered and changed no call: each was the driver's function for this run,
        so the run was the baseline's. Known only from counts that say so (a `.calls` file of the old format, or
        none at all, leaves it unknown: False)."""
        return self.applicable and self.counts_changes and not self.changed and not self.changed_marked


CHANGED_MARKER = ".changed"  # <entry>.<pid>.changed: the first call a process's operator changed
WOULD_SUFFIX = ".would"  # <pid>.would: the census's "<operator> <calls it would change>" lines
WOULD_MARKER = "would."  # would.<operator>.<pid>: the first call of a process that the operator would change
COUNTS_WOULD = "would-change"  # left by a census library that counts what each operator would change


def read_calls(folder: Path) -> Calls:
    by_entry: dict[str, int] = {}
    changed: dict[str, int] = {}
    called: set[str] = set()
    marked: set[str] = set()
    unknown = False
    files = 0
    old_format = False
    would: dict[str, int] = {}
    would_marked: set[str] = set()
    counts_would = False
    if folder.is_dir():
        for path in folder.iterdir():
            if path.name == UNKNOWN_OPERATOR:
                unknown = True
            elif path.name == COUNTS_WOULD:
                counts_would = True
            elif path.suffix == WOULD_SUFFIX:
                for line in path.read_text(errors="replace").splitlines():
                    operator, *count = line.split() or [""]
                    if len(count) == 1 and count[0].isdigit():
                        would[operator] = would.get(operator, 0) + int(count[0])
            elif path.name.startswith(WOULD_MARKER):
                would_marked.add(path.name[len(WOULD_MARKER) :].rsplit(".", 1)[0])
            elif path.suffix == ".calls":
                files += 1
                for line in path.read_text(errors="replace").splitlines():
                    entry, *counts = line.split() or [""]  # <entry> <calls> <changed>, or <entry> <calls> (older)
                    if not 1 <= len(counts) <= 2 or not all(count.isdigit() for count in counts):
                        continue
                    by_entry[entry] = by_entry.get(entry, 0) + int(counts[0])
                    if len(counts) == 2:
                        changed[entry] = changed.get(entry, 0) + int(counts[1])
                    else:
                        old_format = True
            elif path.name.startswith("cu") and "." in path.name:
                entry = path.name.split(".", 1)[0]
                called.add(entry)
                if path.suffix == CHANGED_MARKER:
                    marked.add(entry)
    return Calls(
        by_entry,
        frozenset(called),
        unknown,
        changed,
        frozenset(marked),
        files > 0 and not old_format,
        would,
        frozenset(would_marked),
        counts_would,
    )
