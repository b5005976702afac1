"""Turns spec/math/bounds.toml into the rules of one build variant of the math suite.

    python3 bounds.py spec/math/bounds.toml --variant default --out build/ci/generated/math/default

writes one <group>.inc per group of the table (single.inc, double.inc, ...), each a list of RULE_F definitions that
the group's .cu file includes after defining its functions. The table is read by the harness's reader of spec/
(harness/cuconform/spec.py: the build runs this with harness/ on PYTHONPATH); a malformed entry stops the build with
one line naming the file, the entry's line and what is wrong (spec.SpecError).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from pathlib import Path

from cuconform.spec import Place, SpecError, SpecFile, read

GROUPS = {  # group -> the GoogleTest fixture of its rules
    "division": "DivisionAndSquareRoot",
    "single": "SinglePrecision",
    "double": "DoublePrecision",
    "intrinsic": "IntrinsicFunctions",
    "fast_math": "FastMath",
    "conversion": "TypeConversions",
    "vector": "VectorNorms",
    "quad": "QuadPrecision",
    "half": "HalfPrecisionFunctions",
}
# group -> the checker its generated rules call (default: check_accuracy<functions...>(bound, orders))
CHECKERS = {"vector": "check_vector_norm", "quad": "check_quad", "half": "check_half"}
VARIANTS = {  # variant -> how the statement names its flags
    "default": "",
    "ftz": " [built with -ftz=true]",
    "prec_div": " [built with -prec-div=false]",
    "prec_sqrt": " [built with -prec-sqrt=false]",
    "fast_math": " [built with -use_fast_math]",
    "no_fmad": " [built with -fmad=false]",
}
ROUNDINGS = {"rn": "Nearest", "rz": "TowardZero", "ru": "Up", "rd": "Down"}
METRICS = {
    "ulp": "Ulp",
    "ulp_linear": "UlpLinear",
    "ulp_order": "UlpOrder",
    "absolute": "Absolute",
    "relative": "Relative",
    "measured": "Measured",
}
# special_values -> SpecialValues (bounds.h)
SPECIAL_VALUES = {True: "Exact", False: "Unchecked", "results": "WhereResultIsSpecial"}
CONDITIONS = {
    "in": "In",
    "abs_in": "AbsIn",
    "abs_below": "AbsBelow",
    "abs_below_order": "AbsBelowOrder",
    "abs_above_order": "AbsAboveOrder",
    "not_nan": "NotNan",
}
ENTRY_KEYS = {
    "rule",
    "function",
    "documented",
    "source",
    "device",
    "variants",
    "rounding",
    "pieces",
    "orders",
    "identical",
    "special_values",
} | set(METRICS)
MAX_PIECES = 3


def number(value, where: Place) -> float:
    """A number of the table: an int or float, or a string '0x1p-126', '2^-21.41' or 'inf'."""
    if isinstance(value, bool):
        raise where.error(f"expected a number, not {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.strip()
        if text in ("inf", "+inf"):
            return math.inf
        if re.fullmatch(r"[+-]?0x[0-9a-fA-F.]+p[+-]?\d+", text):
            return float.fromhex(text)
        match = re.fullmatch(r"2\^([+-]?\d+(?:\.\d+)?)", text)
        if match:
            return 2.0 ** float(match.group(1))
    raise where.error(f"cannot read the number {value!r}")


def cxx_double(x: float) -> str:
    if math.isinf(x):
        return "INFINITY" if x > 0 else "-INFINITY"
    return float(x).hex()


def cxx_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def piece(spec: dict, where: Place) -> str:
    metrics = [k for k in spec if k in METRICS]
    if len(metrics) != 1:
        raise where.error(f"a piece needs exactly one of {', '.join(METRICS)}")
    metric = metrics[0]
    conditions = [k for k in spec if k in CONDITIONS]
    unknown = set(spec) - set(METRICS) - set(CONDITIONS) - {"arg"}
    if unknown:
        raise where.error(f"unknown key '{sorted(unknown)[0]}' in a piece")
    if len(conditions) > 1:
        raise where.error("a piece has at most one condition")
    condition, a, b = "Always", 0.0, 0.0
    if conditions:
        key = conditions[0]
        condition = CONDITIONS[key]
        value = spec[key]
        if key in ("in", "abs_in"):
            if not isinstance(value, list) or len(value) != 2:
                raise where.error(f"'{key}' must be [lo, hi]")
            a, b = number(value[0], where), number(value[1], where)
        elif key == "not_nan":
            if value is not True:
                raise where.error("'not_nan' must be true")
        else:
            a = number(value, where)
    arg = spec.get("arg", 0)
    if not isinstance(arg, int) or not 0 <= arg < 4:
        raise where.error("'arg' must be 0..3")
    limit, slope = 0.0, 0.0
    value = spec[metric]
    if metric in ("ulp_linear", "ulp_order"):
        if not isinstance(value, list) or len(value) != 2:
            raise where.error(f"'{metric}' must be [a, b]")
        limit, slope = number(value[0], where), number(value[1], where)
    elif metric == "measured":
        if not isinstance(value, str) or not value.strip():
            raise where.error("'measured' must say why there is no bound")
    else:
        limit = number(value, where)
        if metric == "ulp" and (limit < 0 or limit != int(limit)):
            raise where.error("'ulp' must be a non-negative integer")
    return (
        f"{{Condition::{condition}, {arg}, {cxx_double(a)}, {cxx_double(b)}, Metric::{METRICS[metric]}, "
        f"{cxx_double(limit)}, {cxx_double(slope)}}}"
    )


def bound(entry: dict, where: Place) -> str:
    if "pieces" in entry:
        if any(k in entry for k in METRICS):
            raise where.error("give either 'pieces' or one metric key, not both")
        specs = entry["pieces"]
        if not isinstance(specs, list) or not 1 <= len(specs) <= MAX_PIECES:
            raise where.error(f"'pieces' must list 1 to {MAX_PIECES} pieces")
    else:
        specs = [{k: entry[k] for k in METRICS if k in entry}]
    pieces = [piece(spec, where) for spec in specs]
    rounding = entry.get("rounding", "rn")
    if rounding not in ROUNDINGS:
        raise where.error(f"'rounding' must be one of {', '.join(ROUNDINGS)}")
    special = entry.get("special_values", True)
    if not (isinstance(special, bool) or special == "results"):  # 1 and 0 are not true and false
        raise where.error("'special_values' must be true, false or \"results\"")
    return (
        f"{{{{{', '.join(pieces)}}}, {len(pieces)}, Rounding::{ROUNDINGS[rounding]}, "
        f"SpecialValues::{SPECIAL_VALUES[special]}}}"
    )


def identifiers(entry: dict, key: str, where: Place) -> list[str]:
    value = entry.get(key)
    if isinstance(value, str):
        value = [value]
    if (
        not isinstance(value, list)
        or not value
        or not all(isinstance(v, str) and re.fullmatch(r"[a-z][a-z0-9_]*", v) for v in value)
    ):
        raise where.error(f"'{key}' must list function keys such as \"expf\"")
    return value


def rule(group: str, entry: dict, variant: str, where: Place) -> str:
    unknown = set(entry) - ENTRY_KEYS
    if unknown:
        raise where.error(f"unknown key '{sorted(unknown)[0]}'")
    for key in ("rule", "function", "documented", "source"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise where.error(f"needs a non-empty '{key}'")
    if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", entry["rule"]):
        raise where.error("'rule' must be CamelCase without underscores")
    devices = identifiers(entry, "device", where)
    statement = f"{entry['function']}: {entry['documented']}{VARIANTS[variant]}"
    head = (
        f"RULE_F({GROUPS[group]}, {entry['rule']}, {cxx_string(entry['source'])},\n       {cxx_string(statement)}) {{\n"
    )
    if group == "fast_math":
        twins = identifiers(entry, "identical", where)
        if len(twins) != len(devices):
            raise where.error("'identical' must pair one intrinsic with each device function")
        pairs = ", ".join(f"fn::{d}, fn::{t}" for d, t in zip(devices, twins))
        return head + f"  check_identical<{pairs}>();\n}}\n"
    if group in CHECKERS:
        if (group == "vector" and len(devices) != 1) or "orders" in entry:
            what = "exactly one device function" if group == "vector" else "device functions"
            raise where.error(f"a [[{group}]] entry names {what} and no orders")
        functions = ", ".join(f"fn::{d}" for d in devices)
        return (
            head + f"  static constexpr Bound kBound{bound(entry, where)};\n"
            f"  {CHECKERS[group]}<{functions}>(kBound);\n}}\n"
        )
    orders = entry.get("orders", [])
    if not isinstance(orders, list) or not all(isinstance(n, int) for n in orders):
        raise where.error("'orders' must list integers")
    functions = ", ".join(f"fn::{d}" for d in devices)
    order_list = ", ".join(str(n) for n in orders)
    return (
        head + f"  static constexpr Bound kBound{bound(entry, where)};\n"
        f"  check_accuracy<{functions}>(kBound, {{{order_list}}});\n}}\n"
    )


def generate(table: SpecFile, variant: str) -> dict[str, str]:
    """The <group>.inc files of one build variant; SpecError names the entry's line."""
    unknown = set(table.data) - set(GROUPS)
    if unknown:
        group = sorted(unknown)[0]
        raise table.error(table.key_line(group), f"unknown group [[{group}]] (groups: {', '.join(GROUPS)})")
    files = {}
    for group in GROUPS:
        seen = set()
        parts = [
            f"// Generated from spec/math/bounds.toml [[{group}]] for the '{variant}' build by "
            "suites/math/tools/bounds.py; edit the table, not this file.\n"
        ]
        for index, entry in enumerate(table.data.get(group, [])):
            where = table.entry_place(group, index, f"[[{group}]] #{index + 1} ({entry.get('rule', '?')})")
            variants = entry.get("variants", ["default"])
            if not isinstance(variants, list) or not set(variants) <= set(VARIANTS):
                raise where.error(f"'variants' must be a subset of {', '.join(VARIANTS)}")
            if variant not in variants:
                continue
            if entry.get("rule") in seen:
                raise where.error(f"rule '{entry['rule']}' appears twice in one build")
            seen.add(entry.get("rule"))
            parts.append(rule(group, entry, variant, where))
        files[f"{group}.inc"] = "\n".join(parts)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", type=Path)
    parser.add_argument("--variant", required=True, choices=sorted(VARIANTS))
    parser.add_argument("--out", type=Path, required=True, help="directory for the <group>.inc files")
    args = parser.parse_args(argv)
    try:
        files = generate(read(args.table), args.variant)
    except SpecError as error:
        print(error, file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = args.out / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
