"""Error plots for the math rules: the worst error over each slice of a function's input range as a small inline
SVG, with the documented bound drawn as a line (html_report.py shows one per `<function>.error_profile` metric).

A profile is the JSON text the math suite records (suites/math/report.cpp, error_profile.h):

    {"measure": "ulp" | "absolute" | "relative",
     "scale": "float" | "double" | "int32" | "uint32" | "half" | "bfloat16",
     "axis": what the slices divide ("input" by default; the vector norms: "correctly rounded result"),
     "edges": [129 values], "worst": [128 values, null where no input fell],
     "inputs": [128 counts], "bound": [128 limits, null where the guide gives none]}

The slices are equal shares of the argument format's encodings from -inf to +inf, so the x axis runs through the
binades of either sign (0 in the middle). The y axis is logarithmic: log2(1 + ulps), or the decimal exponent of an
absolute or relative error. Everything is drawn here as escaped text; nothing is fetched.
"""

from __future__ import annotations

import functools
import html
import json
import math

SUFFIX = ".error_profile"
WIDTH, HEIGHT = 384, 132
LEFT, RIGHT, TOP, BOTTOM = 44, 14, 8, 30  # margins of the plot area


def is_profile(name: str) -> bool:
    return name.endswith(SUFFIX)


def _number(value) -> float | None:
    if value is None:
        return None
    if isinstance(value, str):
        return {"inf": math.inf, "-inf": -math.inf}.get(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def parse(value) -> dict | None:
    """The profile of a metric value, or None when it is not one (a malformed profile is never drawn). Not to be
    changed by the caller: a profile's text is parsed once (html_report asks twice: for the row, for the plot)."""
    if isinstance(value, str):
        return _parse_text(value)
    return _profile(value)


@functools.lru_cache(maxsize=16)
def _parse_text(value: str) -> dict | None:
    try:
        return _profile(json.loads(value))
    except ValueError:
        return None


def _profile(data) -> dict | None:
    if not isinstance(data, dict):
        return None
    edges, worst = data.get("edges"), data.get("worst")
    bound, inputs = data.get("bound") or [], data.get("inputs") or []
    if not isinstance(edges, list) or not isinstance(worst, list) or len(edges) != len(worst) + 1 or not worst:
        return None
    if not isinstance(bound, list) or not isinstance(inputs, list):
        return None
    axis = data.get("axis") if isinstance(data.get("axis"), str) and data.get("axis") else "input"
    return {
        "measure": data.get("measure") if data.get("measure") in ("ulp", "absolute", "relative") else "ulp",
        "axis": axis[:60],
        "edges": [_number(e) for e in edges],
        "worst": [_number(w) for w in worst],
        "bound": [_number(b) for b in bound] + [None] * (len(worst) - len(bound)),
        "inputs": [i if isinstance(i, int) else 0 for i in inputs] + [0] * (len(worst) - len(inputs)),
    }


def _label(x: float | None) -> str:
    if x is None:
        return "?"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    if x == 0:
        return "0"
    return f"{x:.3g}"


def _scale(profile: dict):
    """y(v) in [0, 1] for a value, and the axis labels (bottom, top)."""
    values = [v for v in profile["worst"] + profile["bound"] if v is not None and math.isfinite(v)]
    if profile["measure"] == "ulp":
        top = max([math.log2(1 + v) for v in values if v >= 0] + [1.0])
        return (lambda v: min(1.0, math.log2(1 + max(v, 0)) / top)), "0", f"{2**top - 1:.3g} ulp"
    positive = [v for v in values if v > 0]
    lo = math.floor(math.log10(min(positive))) - 1 if positive else -20
    hi = math.ceil(math.log10(max(positive))) if positive else 0
    hi = max(hi, lo + 1)
    return (
        (lambda v: 0.0 if v <= 0 else min(1.0, max(0.0, (math.log10(v) - lo) / (hi - lo)))),
        f"1e{lo}",
        f"1e{hi} {profile['measure']}",
    )


def svg(function: str, profile: dict) -> str:
    """One plot: a bar per slice (red where it is over the bound), the bound as a line, axes with labels."""
    esc = html.escape
    count = len(profile["worst"])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    y_of, bottom_label, top_label = _scale(profile)
    step = plot_w / count
    unit = "ulp" if profile["measure"] == "ulp" else profile["measure"] + " error"
    parts = [f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#f6f8fa" stroke="#d0d7de"/>']
    for i, (worst, bound) in enumerate(zip(profile["worst"], profile["bound"])):
        if worst is None:
            continue
        over = bound is not None and worst > bound
        height = max(1.0, y_of(worst) * plot_h) if not math.isinf(worst) else plot_h
        lo, hi = profile["edges"][i], profile["edges"][i + 1]
        tip = f"[{_label(lo)}, {_label(hi)}]: worst {_label(worst)} {unit} over {profile['inputs'][i]:,} inputs" + (
            f", bound {_label(bound)}" if bound is not None else ", no documented bound"
        )
        parts.append(
            f'<rect x="{LEFT + i * step:.2f}" y="{TOP + plot_h - height:.2f}" '
            f'width="{max(step - 0.4, 0.6):.2f}" height="{height:.2f}" '
            f'fill="{"#cf222e" if over else "#0969da"}"><title>{esc(tip)}</title></rect>'
        )
    # The bound: a horizontal segment over each slice where one is documented, joined where it continues.
    path = []
    previous = None
    for i, bound in enumerate(profile["bound"]):
        if bound is None or not math.isfinite(bound):
            previous = None
            continue
        y = TOP + plot_h - y_of(bound) * plot_h
        x0, x1 = LEFT + i * step, LEFT + (i + 1) * step
        path.append(f"{'L' if previous is not None else 'M'}{x0:.2f},{y:.2f} L{x1:.2f},{y:.2f}")
        previous = y
    if path:
        parts.append(
            f'<path d="{" ".join(path)}" fill="none" stroke="#bf8700" stroke-width="1.5">'
            f"<title>documented bound</title></path>"
        )
    # The x axis: -inf, -1, 0, 1, +inf where the slices pass them.
    ticks = {0: _label(profile["edges"][0]), count: _label(profile["edges"][count])}
    for i in range(count):
        lo, hi = profile["edges"][i], profile["edges"][i + 1]
        if lo is None or hi is None:
            continue
        for mark, name in ((-1.0, "-1"), (0.0, "0"), (1.0, "1")):
            if lo <= mark < hi or (mark == 0 and lo < 0 <= hi):
                ticks.setdefault(i if mark < 0 else i + (0 if mark == 0 else 1), name)
    for i, name in sorted(ticks.items()):
        x = LEFT + i * step
        parts.append(
            f'<line x1="{x:.2f}" y1="{TOP + plot_h}" x2="{x:.2f}" y2="{TOP + plot_h + 3}" stroke="#57606a"/>'
            f'<text x="{x:.2f}" y="{TOP + plot_h + 13}" text-anchor="middle">{esc(name)}</text>'
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.2f}" y="{HEIGHT - 3}" text-anchor="middle">{esc(profile["axis"])}</text>'
    )
    parts.append(
        f'<text x="{LEFT - 3}" y="{TOP + plot_h}" text-anchor="end">{esc(bottom_label)}</text>'
        f'<text x="{LEFT - 3}" y="{TOP + 9}" text-anchor="end">{esc(top_label.split(" ")[0])}</text>'
        f'<text x="{LEFT - 3}" y="{TOP + 19}" text-anchor="end">{esc(unit.split(" ")[0])}</text>'
    )
    label = f"{function}: worst {unit} over the input range, documented bound as a line"
    return (
        f'<svg class="error-plot" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{esc(label)}" font-family="sans-serif" '
        f'font-size="9" fill="#24292f"><title>{esc(label)}</title>{"".join(parts)}</svg>'
    )


def plots_html(metrics: dict) -> str:
    """The plots of a test's metrics (one per profile), each captioned with its function; "" when there are none."""
    figures = []
    for name, value in metrics.items():
        if not is_profile(name):
            continue
        profile = parse(value)
        if profile is None:
            continue
        function = name[: -len(SUFFIX)]
        figures.append(
            f'<figure class="error-plot">{svg(function, profile)}'
            f"<figcaption>{html.escape(function)}</figcaption></figure>"
        )
    return "".join(figures)
