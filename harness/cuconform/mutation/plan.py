"""What a mutation campaign is given: the engine it drives and the plan of what it mutates (campaign.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from cuconform import environment as env
from cuconform.catalog import area_of, find_binaries
from cuconform.environment import REPO
from cuconform.options import OptionError
from cuconform.mutation.sample import Sample

FORMAT = 1  # of mutation.jsonl's header and of results.json's `mutation` section


class CampaignError(Exception):
    """A campaign that cannot be made or continued; str() is one line for the user."""


@dataclass(frozen=True)
class Engine:
    """The mutation engine as the campaign uses it (harness/cuconform/mutation/: operators, rebuild, patch)."""

    operators: Sequence  # operators.Operator: name, family, description, rule
    build_mutant: Callable  # (manifest, operator, workdir) -> MutantFatbin | None; raises mutant_error
    # ptxas rejected the mutated PTX, or the mutant does not fit the binary: the exception class(es) of either
    mutant_error: type[Exception] | tuple[type[Exception], ...]
    patch_executable: Callable  # (source, target, [(original, mutant), ...])
    objects_of: Callable  # build folder -> {binary path: [manifest, ...]}
    # ([manifest, ...], cache file, processes) -> {object: {operator name: sites}}: where each operator applies,
    # from the PTX text, so that no ptxas runs where it has no site (sites.py). None: every object is tried.
    sites_of: Callable | None = None

    def operator(self, name: str):
        return next(op for op in self.operators if op.name == name)

    def objects(self, build_dir: Path) -> dict[Path, list[dict]]:
        """objects_of, with its failure as one line (CampaignError) rather than a traceback."""
        try:
            return {Path(binary): list(manifests) for binary, manifests in self.objects_of(build_dir).items()}
        except Exception as error:  # noqa: BLE001 - whatever the engine raises, the user gets one line
            raise CampaignError(
                f"cannot list the captured objects of {build_dir}: {type(error).__name__}: {one_line(error)}"
            ) from None


def real_engine() -> Engine:
    """The engine of harness/cuconform/mutation/; CampaignError when a part of it is missing."""
    try:
        from cuconform.mutation import operators, patch, rebuild, runtime_operators, sites
    except ImportError as error:
        raise CampaignError(
            f"the mutation engine is missing ({error}): harness/cuconform/mutation/ needs "
            "operators.py, rebuild.py and patch.py"
        ) from None

    # An invalid mutant: rebuild.py's error (ptxas rejected it, it does not fit the padded room) or patch.py's (the
    # patch cannot be made). The engine was written beside this module; its error classes are taken as it names them.
    named = (
        getattr(rebuild, "MutantError", None),
        getattr(rebuild, "MutantBuildError", None),
        getattr(patch, "PatchError", None),
    )
    errors = tuple(error for error in named if error is not None)
    return Engine(
        operators.OPERATORS + runtime_operators.RUNTIME_OPERATORS,
        rebuild.build_mutant,
        errors,
        patch.patch_executable,
        patch.objects_of,
        sites.index,
    )


@dataclass(frozen=True)
class Plan:
    """What one campaign mutates and how it runs the harness (from scripts/conformance mutate's options)."""

    build_dir: Path
    output: Path
    areas: tuple[str, ...]  # the areas whose binaries are mutated
    operators: tuple[str, ...]  # names, in the engine's order
    timeout: float
    profile: str = "quick"
    expectations: Path = REPO / "expectations"
    jobs: int = 0  # GPU processes of each harness run; 0: the harness's default
    build_jobs: int = 0  # threads for the mutant rebuilds; 0: one per CPU core
    keep_binaries: bool = False
    focus: bool = True  # first run only the tests in the mutated objects' sources (see Campaign._run_batch)
    focus_only: bool = False  # a mutant its focused tests did not kill survives, without its whole area's run
    sample: Sample = Sample(rate=1.0)  # which mutants of the generic integer operators run (sample.py)
    batch_mutants: int = 64  # mutants patched into one overlay and judged by one or two harness runs
    census: bool = True  # a census before the batches (census.py); --no-census runs every host-side mutant

    def header(self) -> dict:
        return {
            "campaign": FORMAT,
            "build_dir": str(self.build_dir),
            "areas": list(self.areas),
            "operators": list(self.operators),
            "timeout": self.timeout,
            "profile": self.profile,
            "expectations": str(self.expectations),
            "sample": self.sample.header(),
            "focus_only": self.focus_only,
            "census": self.census,
        }


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text[:500] if text else type(error).__name__


def with_built_areas(plan: Plan, engine: Engine) -> Plan:
    """The plan with its areas checked against the build (default: every area whose binary has device objects)."""
    built = {area_of(binary) for binary in find_binaries(plan.build_dir / "bin")}
    for area in plan.areas:
        if area not in built:
            raise OptionError(
                f"--area={area}: no such area in {plan.build_dir / 'bin'} (areas: {', '.join(sorted(built)) or 'none'})"
            )
    if plan.areas:
        return plan
    with_objects = sorted(area_of(binary) for binary, manifests in engine.objects(plan.build_dir).items() if manifests)
    if not with_objects:
        raise CampaignError(
            f"{plan.build_dir} has no captured objects (<object>.mut/manifest.json): it was not "
            f"built with the capture launcher (remove it and run without --no-build)"
        )
    return dataclasses.replace(plan, areas=tuple(area for area in with_objects if area in built))


MATH_AREA = "math"  # math and its variants (math-ftz, math-fast-math, ...): areas whose rules need the MPFR reference


def check_math_reference(plan: Plan, areas: Sequence[str] | None = None) -> None:
    """A campaign over a math area needs the math suite's exact (MPFR) reference: without it the math rules that
    need it skip, judge nothing, and the math mutants survive for want of judges (the fourth campaign's math areas,
    docs/results/h200-2026-11-29-mutation4.md). CampaignError when it is missing and `areas` (default: the plan's)
    has a math area: before anything is built, with the areas the build will have, and again with those it has."""
    math = [area for area in (plan.areas if areas is None else areas) if area.split("-", 1)[0] == MATH_AREA]
    if not math or env.find_math_reference(plan.build_dir) is not None:
        return
    raise CampaignError(
        f"the math reference {env.MATH_REFERENCE} (MPFR) was not found, and the campaign has {', '.join(math)}: "
        f"the math rules that need it would skip and judge nothing; build it ({env.MATH_REFERENCE_COMMAND}; on a "
        "GPU machine without MPFR, carry .mathref/ from one that has it) or leave the math areas out with --area"
    )
