"""error_plots.py: the math rules' error profiles drawn as inline SVG in report.html (well-formed, escaped, the bound
as a line, bars over it in red), and a malformed profile left in the metrics table, never drawn."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from cuconform import error_plots
from cuconform.html_report import render_html, unpack_tests

SVG = "{http://www.w3.org/2000/svg}"


def profile(measure="ulp", worst=None, bound=None) -> str:
    count = 128
    edges = ["-inf"] + [-(2.0 ** (60 - i)) for i in range(63)] + [0.0] + [2.0 ** (i - 60) for i in range(63)] + ["inf"]
    assert len(edges) == count + 1
    worst = worst if worst is not None else [None] * 10 + [1] * 100 + [5] + [0] * 17
    bound = bound if bound is not None else [2] * count
    return json.dumps(
        {
            "measure": measure,
            "scale": "float",
            "edges": edges,
            "worst": worst,
            "inputs": [0 if w is None else 7 for w in worst],
            "bound": bound,
        }
    )


def test_a_profile_becomes_a_well_formed_svg_with_bars_and_the_bound():
    parsed = error_plots.parse(profile())
    root = ET.fromstring(error_plots.svg("expf", parsed))
    bars = [r for r in root.iter(f"{SVG}rect")][1:]  # the first is the plot area
    assert len(bars) == 118  # one per slice that holds inputs
    assert sum(b.get("fill") == "#cf222e" for b in bars) == 1  # the 5 ulp slice is over the bound of 2
    assert root.find(f"{SVG}path") is not None  # the bound
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "-inf" in texts and "+inf" in texts and "0" in texts and "1" in texts and "-1" in texts
    assert "expf" in root.get("aria-label")


def test_absolute_profiles_use_a_decimal_log_scale_and_gaps_where_there_is_no_bound():
    worst = [1e-7] * 64 + [3e-6] * 64
    bound = [2**-21.41] * 64 + [None] * 64  # __sinf: absolute on [-pi, pi], measured outside
    root = ET.fromstring(error_plots.svg("__sinf", error_plots.parse(profile("absolute", worst, bound))))
    assert root.find(f"{SVG}path").get("d").count("M") == 1
    assert any((t.text or "").startswith("1e-") for t in root.iter(f"{SVG}text"))


def test_the_report_draws_profiles_and_keeps_malformed_ones_as_metrics():
    hostile = "<script>alert(1)</script>"
    results = {
        "tests": [
            {
                "id": "math/SinglePrecision.Expf",
                "verdict": "pass",
                "status": "pass",
                "metrics": {
                    "expf.max_ulp_distance": 1,
                    f"{hostile}.error_profile": profile(),
                    "broken.error_profile": "{not json",
                },
            }
        ]
    }
    packed = render_html(results)
    page = "".join(body for _, body, _ in unpack_tests(packed))  # the test's details, as the page shows them
    assert page.count('<svg class="error-plot"') == 1
    assert "<script>alert(1)</script>" not in page + packed and "&lt;script&gt;" in page
    assert "broken.error_profile" in page  # left in the table, as text
    assert f"{hostile}.error_profile" not in page.split('<table class="metrics">')[1].split("</table>")[0]


def test_malformed_profiles_are_not_profiles():
    assert error_plots.parse("[1, 2]") is None
    assert error_plots.parse(json.dumps({"edges": [1, 2], "worst": [1, 2]})) is None
    assert error_plots.parse(42) is None
    assert error_plots.plots_html({"a.error_profile": "nope", "b.max": 1}) == ""


def test_the_axis_is_named_by_the_profile():
    data = json.loads(profile())
    data["axis"] = "correctly rounded result"
    root = ET.fromstring(error_plots.svg("normf", error_plots.parse(json.dumps(data))))
    assert "correctly rounded result" in [t.text for t in root.iter(f"{SVG}text")]
    assert error_plots.parse(profile())["axis"] == "input"
