"""Turns spec/litmus/outcomes.toml into the litmus cases of cuconform-litmus.

    python3 outcomes_table.py TABLE --rules suites/litmus/rules.cpp --cxx OUT.inc   # what the build runs
    python3 outcomes_table.py TABLE --list          # one line per case, for people

TABLE is spec/litmus/outcomes.toml, read by the harness's reader of spec/ (harness/cuconform/spec.py: the build runs
this with harness/ on PYTHONPATH).

Each case becomes one line LITMUS_CASE_<Shape>("Name", Placement, Expect, "Sibling", "Rule", "Ordering",
"source", <ordering type>); the shape files register the lines of their shapes. A malformed table stops the build
with 'file:line: what is wrong' (spec.SpecError).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from cuconform import spec
from cuconform.spec import SpecError

SHAPES = ("MP", "GuideXY", "SB", "LB", "S", "R", "TwoPlusTwoW", "CoRR", "CoRW", "CoWR", "CoWW", "IRIW", "WRC", "ISA2")
PLACEMENTS = (
    "Warps",
    "Shared",
    "Blocks",
    "Cluster",
    "HostMemory",
    "Devices",
    "HostThread",
    "SubPartitions",
    "SharedBanks",
)
TWO_THREAD_SHAPES = ("MP", "GuideXY", "SB", "LB", "S", "R", "TwoPlusTwoW", "CoRR", "CoRW", "CoWR")
EXPECTS = {"forbidden": "Forbidden", "allowed": "Allowed"}
CASE_KEYS = {"shape", "ordering", "placements", "expect", "sibling", "rule", "source"}
SCOPES = ("Block", "Cluster", "Device", "System")
ORDERS = ("Acquire", "Release", "AcqRel", "SeqCst", "RelAcq")
RULE = re.compile(r"^[A-Z][A-Za-z0-9]*\.[A-Z][A-Za-z0-9]*$")

_PLAIN = {"Volatile": "::litmus::Volatile", "Relaxed": "::litmus::Relaxed", "LegacyAtomics": "::litmus::LegacyAtomics"}
_ACCESS = {"": "::litmus::RelaxedAccess", "Volatile": "::litmus::VolatileAccess", "Legacy": "::litmus::LegacyAccess"}
_LEGACY_FENCE = re.compile(r"^(Volatile|Legacy)?Threadfence(Block|System)?$")
_FENCE = re.compile(rf"^(Volatile)?(Cuda|Nv)Fence({'|'.join(ORDERS)})({'|'.join(SCOPES)})$")
_ATOMICS = re.compile(rf"^(Ref|Nv)(RelAcq|SeqCst)({'|'.join(SCOPES)})$")
_RMW_ATOMICS = re.compile(rf"^RefRmwRelAcq({'|'.join(SCOPES)})$")


def ordering_type(name: str) -> str:
    """The C++ type of an ordering name (see suites/litmus/engine/orderings.cuh); ValueError if there is none."""
    if name in _PLAIN:
        return _PLAIN[name]
    if m := _LEGACY_FENCE.match(name):
        access, scope = m.group(1) or "", m.group(2) or ""
        return f"::litmus::Fenced<{_ACCESS[access]}, ::litmus::Threadfence{scope}>"
    if m := _FENCE.match(name):
        access, api, order, scope = m.group(1) or "", m.group(2), m.group(3), m.group(4)
        if api == "Cuda" and scope == "Cluster":
            raise ValueError("cuda::atomic_thread_fence has no cluster scope (libcu++ has no thread_scope_cluster)")
        return (
            f"::litmus::Fenced<{_ACCESS[access]}, ::litmus::{api}Fence<::litmus::Order::{order}, "
            f"::litmus::Scope::{scope}>>"
        )
    if m := _ATOMICS.match(name):
        api, order, scope = m.groups()
        if api == "Ref" and scope == "Cluster":
            raise ValueError("cuda::atomic_ref has no cluster scope (libcu++ has no thread_scope_cluster)")
        return f"::litmus::Atomics<::litmus::Api::{api}, ::litmus::Order::{order}, ::litmus::Scope::{scope}>"
    if m := _RMW_ATOMICS.match(name):
        if m.group(1) == "Cluster":
            raise ValueError("cuda::atomic_ref has no cluster scope (libcu++ has no thread_scope_cluster)")
        return f"::litmus::RmwAtomics<::litmus::Scope::{m.group(1)}>"
    raise ValueError(f"unknown ordering '{name}' (see suites/litmus/engine/orderings.cuh)")


@dataclass(frozen=True)
class Case:
    name: str
    shape: str
    placement: str
    ordering: str
    expect: str
    sibling: str
    rule: str
    source: str
    line: int


def load(path: Path) -> list[Case]:
    table = spec.read(path)
    document = table.data
    if set(document) - {"case"}:
        raise SpecError(path, 1, f"unknown top-level key '{sorted(set(document) - {'case'})[0]}' (expected [[case]])")
    cases: list[Case] = []
    for index, entry in enumerate(document.get("case", [])):
        place = table.entry_place("case", index)
        line = place.line

        def fail(message: str) -> SpecError:
            return place.error(message)

        if unknown := set(entry) - CASE_KEYS:
            raise fail(f"unknown key '{sorted(unknown)[0]}' (allowed: {', '.join(sorted(CASE_KEYS))})")
        shape, ordering, expect = entry.get("shape"), entry.get("ordering"), entry.get("expect")
        if shape not in SHAPES:
            raise fail(f"'shape' must be one of {', '.join(SHAPES)}, not {shape!r}")
        if not isinstance(ordering, str):
            raise fail("'ordering' must be a string")
        try:
            ordering_type(ordering)
        except ValueError as error:
            raise fail(str(error)) from None
        if expect not in EXPECTS:
            raise fail(f"'expect' must be 'forbidden' or 'allowed', not {expect!r}")
        placements = entry.get("placements")
        if not placements or not isinstance(placements, list) or any(p not in PLACEMENTS for p in placements):
            raise fail(f"'placements' must be a non-empty list of {', '.join(PLACEMENTS)}")
        if "HostThread" in placements and shape not in TWO_THREAD_SHAPES:
            raise fail(f"the HostThread placement runs two-thread shapes only, not {shape}")
        rule = entry.get("rule")
        if not isinstance(rule, str) or not RULE.match(rule):
            raise fail(f"'rule' must name a rule as Suite.Name in CamelCase, not {rule!r}")
        source = entry.get("source")
        if not isinstance(source, str) or not source.strip():
            raise fail("every case needs a 'source'")
        sibling = entry.get("sibling")
        if expect == "forbidden":
            if not isinstance(sibling, str) or not sibling:
                raise fail("a forbidden case needs a 'sibling': the allowed case run beside it")
        elif sibling is not None:
            raise fail("only forbidden cases have a 'sibling'")
        for placement in placements:
            sibling_name = ""
            if sibling:
                sibling_shape, _, sibling_ordering = sibling.rpartition(":")
                sibling_name = (sibling_shape or shape) + placement + sibling_ordering
            cases.append(
                Case(
                    shape + placement + ordering,
                    shape,
                    placement,
                    ordering,
                    expect,
                    sibling_name,
                    rule,
                    source.strip(),
                    line,
                )
            )

    by_name: dict[str, Case] = {}
    for case in cases:
        if case.name in by_name:
            raise SpecError(path, case.line, f"case {case.name} is also defined at line {by_name[case.name].line}")
        by_name[case.name] = case
    for case in cases:
        if not case.sibling:
            continue
        sibling = by_name.get(case.sibling)
        if sibling is None:
            raise SpecError(path, case.line, f"{case.name}: its sibling {case.sibling} is not in the table")
        if sibling.expect != "allowed":
            raise SpecError(path, case.line, f"{case.name}: its sibling {case.sibling} must be an allowed case")
    return cases


def check_rules(cases: list[Case], path: Path, rules_source: Path) -> None:
    """Every rule the table names is a LITMUS_RULE of rules.cpp, and every LITMUS_RULE has cases."""
    source = rules_source.read_text(encoding="utf-8")
    defined = set(re.findall(r"^LITMUS_RULE\((\w+), (\w+),", source, re.MULTILINE))
    defined = {f"{suite}.{name}" for suite, name in defined}
    for case in cases:
        if case.rule not in defined:
            raise SpecError(path, case.line, f"{case.name}: rule {case.rule} is not defined in {rules_source.name}")
    used = {case.rule for case in cases}
    for rule in sorted(defined - used):
        raise SpecError(path, 1, f"rule {rule} of {rules_source.name} has no case in the table")


def _cxx_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def cxx_table(cases: list[Case]) -> str:
    lines = ["// Generated from spec/litmus/outcomes.toml by suites/litmus/outcomes_table.py; edit those."]
    for c in cases:
        lines.append(
            f"LITMUS_CASE_{c.shape}({_cxx_string(c.name)}, {c.placement}, {EXPECTS[c.expect]}, "
            f"{_cxx_string(c.sibling)}, "
            f"{_cxx_string(c.rule)}, {_cxx_string(c.ordering)}, {_cxx_string(c.source)}, {ordering_type(c.ordering)})"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", type=Path)
    parser.add_argument("--cxx", type=Path, help="the .inc file to write")
    parser.add_argument("--rules", type=Path, help="rules.cpp, to check the rule names against")
    parser.add_argument("--list", action="store_true", help="print the cases")
    args = parser.parse_args(argv)
    try:
        cases = load(args.table)
        if args.rules:
            check_rules(cases, args.table, args.rules)
    except (SpecError, OSError) as error:
        print(error, file=sys.stderr)
        return 2
    if args.list:
        for c in cases:
            print(f"{c.name:44} {c.expect:9} {c.sibling or '-':36} {c.rule}")
    if args.cxx:
        table = cxx_table(cases)
        args.cxx.parent.mkdir(parents=True, exist_ok=True)
        if not args.cxx.exists() or args.cxx.read_text() != table:
            args.cxx.write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
