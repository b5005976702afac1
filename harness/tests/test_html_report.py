"""report.html and summary.md (html_report.py, summary.py): what they show, that nothing a test prints can break or
script them, and, in headless Chromium when it is installed, that the page's filters work and it renders."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import struct
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cuconform import html_report
from cuconform.html_report import render_html, write_html
from cuconform.summary import cell, render_summary

REPO = Path(__file__).resolve().parents[2]
CONFORMANCE = REPO / "scripts" / "conformance"

# What a hostile test prints: markup that would script the page or close its elements, quotes, terminal colours,
# NUL and other control characters, C1 and bidirectional controls, a lone surrogate (json.loads makes one from
# "\ud800"), and the \xNN text the harness writes for invalid UTF-8.
PWNED = "<script>document.title='PWNED'</script>"
HOSTILE = (
    f"{PWNED}</details></pre></td></table></section><!-- <img src=x onerror=\"document.title='IMG'\"> "
    "\"double\" 'single' &amp; ]]> nul \x00 esc \x1b[31mred\x1b[0m bell \x07 del \x7f csi \x9b "
    "rlo \u202eevil\u202c zwsp \u200b surrogate \ud800 invalid \\xff\\xfe | `tick` *star* _under_ [link](x)"
)


def a_test(test_id: str, verdict: str, status: str | None, **fields) -> dict:
    area = test_id.split("/", 1)[0]
    return {
        "id": test_id,
        "rule": test_id,
        "section": "5.4.5.1",
        "statement": f"the statement of {test_id}",
        "area": area,
        "param": None,
        "gpu": True,
        "exclusive": False,
        "source": f"/suites/{area}/x.cu:10",
        "nodeid": f"build/ci/bin/cuconform-{area}::{test_id.split('/', 1)[1]}",
        "status": status,
        "expected": None,
        "verdict": verdict,
        "duration": 0.0125,
        "message": "",
        "output": "",
        "metrics": {},
        "attempts": [] if status is None else [{"status": status, "duration": 0.0125, "message": ""}],
        **fields,
    }


def hostile_results() -> dict:
    entry = {
        "status": "fail",
        "reason": "the guide says 1 <b>bold</b> | the GPU says 2",
        "evidence": "NVIDIA H100 80GB HBM3, driver 580.159.04, CUDA 13.0, 2026-11-25",
        "entry": "sm_90.toml:12",
    }
    tests = [
        a_test("atomics/AtomicAdd.Pass", "pass", "pass"),
        a_test(
            "atomics/AtomicAdd.Hostile",
            "fail",
            "fail",
            message=f"/suites/x.cu:3: Failure\nfirst {HOSTILE}\nmore",
            output=f"printed {HOSTILE}\n" * 3,
            metrics={"note": HOSTILE, "gbps": 12.5},
        ),
        a_test("atomics/AtomicInc.Known1", "xfail", "fail", expected=entry, message="/x.cu:4: Failure\nwrong value 2"),
        a_test("atomics/AtomicInc.Known2", "xfail", "fail", expected=entry, message="/x.cu:4: Failure\nwrong value 3"),
        a_test(
            "sync/Syncthreads.Flaky",
            "flake",
            "fail",
            message="first attempt failed",
            attempts=[
                {"status": "fail", "duration": 0.1, "message": "first attempt failed"},
                {"status": "pass", "duration": 0.1, "message": "", "output": ""},
            ],
        ),
        a_test("sync/Syncthreads.Crash", "crash", "crash", message="the process was killed by SIGSEGV"),
        a_test("sync/Syncthreads.Stale", "xpass", "pass", expected={**entry, "entry": "sm_90.toml:30"}),
        a_test("sync/Syncthreads.Cc100", "skip", "skip", message="needs compute capability 10.0, device is 9.0"),
        a_test("warp/Shfl.Never", "missing", None, message="the harness never ran it"),
        a_test(f"warp/Shfl.Param/{HOSTILE[:20]}", "pass", "pass", param=HOSTILE, statement=HOSTILE),
    ]
    return {
        "format": 1,
        "environment": {
            "run": "20261125-1046-sm_90-nvcc",
            "started": "2026-11-25T10:46:57+00:00",
            "ended": "2026-11-25T10:47:50+00:00",
            "command": ["scripts/conformance", "run"],
            "profile": "quick",
            "timeout_s": 60.0,
            "jobs": 1,
            "processes": 7,
            "host": {"name": "gpu-host", "system": "Linux 6.8", "machine": "x86_64", "cpus": 16},
            "devices": {
                "runtime_version": "13.0",
                "driver_cuda_version": "13.0",
                "devices": [{"name": "NVIDIA H100 80GB HBM3", "cc": "9.0"}],
            },
            "compute_capability": "9.0",
            "build": {
                "compiler": "nvcc",
                "compiler_version": "13.0.88",
                "host_compiler": "GNU 13.3.0",
                "cuda_toolkit": "13.0.88",
                "flags": "-O3",
                "architectures": "90-real",
            },
            "expectation_chain": ["/repo/expectations/sm_90.toml", "/repo/expectations/common.toml"],
            "cuconform_commit": "0123456789abcdef",
        },
        "complete": True,
        "counts": {},  # the reports count the tests themselves
        "unexpected": 3,
        "stale_expectations": [
            {"entry": "sm_90.toml:40", "tests": ["atomics/Gone.*"], "status": "fail", "reason": "renamed | gone"}
        ],
        "tests": tests,
    }


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text outside tags, as a browser's tokenizer sees them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.starts: list[tuple[str, dict]] = []
        self.ends: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.starts.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        self.ends.append(tag)

    def handle_data(self, data):
        self.text.append(data)

    def tags(self, name: str) -> list[dict]:
        return [attrs for tag, attrs in self.starts if tag == name]


def parsed(page: str) -> Elements:
    elements = Elements()
    elements.feed(page)
    elements.close()
    return elements


def expanded(page: str) -> str:
    """The page as the browser shows it with every test opened: the packed list unpacked into its place, each
    test's body in its head (what page.js does)."""
    entries = "\n".join(
        head.replace('<div class="body"></div>', f'<div class="body">{body}</div>')
        for head, body, _ in html_report.unpack_tests(page)
    )
    empty = '<div class="test-list" id="test-list" aria-busy="true"></div>'
    assert page.count(empty) == 1
    return page.replace(empty, f'<div class="test-list" id="test-list">\n{entries}\n</div>')


@pytest.fixture(scope="module")
def page() -> str:
    return expanded(render_html(hostile_results()))


def executable_scripts(elements) -> list[dict]:
    return [attrs for attrs in elements.tags("script") if attrs.get("type") in (None, "", "text/javascript")]


def test_nothing_a_test_prints_becomes_markup(page):
    elements = parsed(page)
    assert len(executable_scripts(elements)) == 1  # the page's own
    assert [attrs.get("type") for attrs in elements.tags("script")] == ["application/gzip", None]  # + the packed list
    assert not elements.tags("img") and not elements.tags("iframe")
    assert not [attrs for _, attrs in elements.starts if any(name.startswith("on") for name in attrs)]
    # every test is one <details> and nothing a test printed closed one early
    assert len(elements.tags("details")) == elements.ends.count("details")
    assert elements.ends.count("pre") == len(elements.tags("pre"))
    tests = [attrs for attrs in elements.tags("details") if attrs.get("class", "").startswith("test ")]
    assert len(tests) == len(hostile_results()["tests"])
    text = "".join(elements.text)
    assert PWNED in text and "</details></pre>" in text and "\"double\" 'single' &amp; ]]>" in text
    assert "&lt;script&gt;document.title=&#x27;PWNED&#x27;&lt;/script&gt;" in page


def test_control_and_invisible_characters_are_shown_not_sent(page):
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\ud800-\udfff]", page)
    page.encode("utf-8")  # no lone surrogate left: the file can be written
    assert '<span class="ctl" title="U+0000">\\x00</span>' in page
    assert '<span class="ctl" title="U+001B">\\x1b</span>[31mred' in page
    assert '<span class="ctl" title="U+202E">\\u202e</span>evil' in page
    assert '<span class="ctl" title="U+D800">\\ud800</span>' in page
    assert "invalid \\xff\\xfe" in page  # the harness's own mark for invalid UTF-8 stays as it is


def test_the_page_loads_nothing_and_runs_only_its_own_script(page):
    elements = parsed(page)
    for tag, attrs in elements.starts:
        assert "src" not in attrs, tag
        assert attrs.get("href", "#").startswith("#"), (tag, attrs)
    assert not elements.tags("link")
    policy = next(a["content"] for a in elements.tags("meta") if a.get("http-equiv") == "Content-Security-Policy")
    script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy and "default-src 'none'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]


def test_the_environment_and_findings_come_before_the_tests(page):
    order = [
        page.index(marker)
        for marker in (
            'id="environment"',
            'id="verdicts"',
            'id="unexpected"',
            'id="findings"',
            'id="flakes"',
            'id="stale"',
            'id="areas"',
            'id="tests"',
        )
    ]
    assert order == sorted(order)
    environment = page[page.index('id="environment"') : page.index('id="verdicts"')]
    for value in (
        "NVIDIA H100 80GB HBM3 (CC 9.0)",
        "supports CUDA 13.0",
        "13.0.88",
        "nvcc 13.0.88",
        "GNU 13.3.0",
        "sm_90.toml → common.toml",
        "20261125-1046-sm_90-nvcc",
        "quick",
        "53.00 s",
    ):
        assert value in environment, value
    unexpected = page[page.index('id="unexpected"') : page.index('id="findings"')]
    assert unexpected.count("<tr>") == 1 + 4  # header, fail, crash, xpass, missing
    assert "first &lt;script&gt;" in unexpected  # the line after GoogleTest's 'Failure' header
    assert "expected fail (sm_90.toml:30) but it passed" in unexpected
    findings = page[page.index('id="findings"') : page.index('id="flakes"')]
    assert "2 tests failed as 1 expectation entries record" in findings and "and 1 more" in findings
    assert "the guide says 1 &lt;b&gt;bold&lt;/b&gt; | the GPU says 2" in findings and "sm_90.toml:12" in findings


def test_the_matrix_counts_areas_by_verdict_and_links_to_the_filter(page):
    matrix = page[page.index('id="areas"') : page.index('id="tests"')]
    assert '<a class="hit" href="#area=atomics&amp;verdict=xfail">2</a>' in matrix
    assert '<a class="hit" href="#area=sync&amp;verdict=crash">1</a>' in matrix
    assert '<a href="#verdict=flake">flake</a>' in matrix and '<a href="#area=warp">warp</a>' in matrix
    assert "timeout" not in matrix  # no test has it: no column


def test_each_test_shows_its_rule_expectation_status_and_output_collapsed(page):
    hostile = page[page.index('<details class="test v-fail" id="t-1"') :]
    hostile = hostile[: hostile.index("</details>\n")]
    assert "<b>fail</b>" in hostile and "pass (no expectation entry)" in hostile and "12.5 ms" in hostile
    assert "/suites/atomics/x.cu:10" in hostile and "gbps" in hostile
    assert '<details class="output"><summary>Output <small>3 lines</small>' in hostile
    assert " open" not in hostile.split(">")[0]  # collapsed
    known = page[page.index('id="t-2"') :]
    assert "sm_90.toml:12" in known[: known.index("</details>")] and "NVIDIA H100" in known[: known.index("</details>")]
    flaky = page[page.index('id="t-4"') :]
    assert "<li>fail, 100.0 ms: first attempt failed</li><li>pass, 100.0 ms</li>" in flaky


def test_a_long_output_keeps_its_head_and_tail():
    results = hostile_results()
    results["tests"][1]["output"] = "head\n" + "x" * 200_000 + "\ntail"
    raw = render_html(results)
    page = expanded(raw)
    assert "head\n" in page and "\ntail" in page and "characters left out here: results.json has them all" in page
    assert len(page) < 150_000 and len(raw) < 60_000


def test_a_big_run_travels_packed_and_small():
    results = hostile_results()
    plots = {"max_ulp_profile": {"bins": list(range(64)), "counts": [i * 37 % 1000 for i in range(64)]}}
    for index in range(6000):  # a quick run's size, with outputs that repeat as real ones do
        results["tests"].append(
            a_test(
                f"math/Func.Case{index}",
                "pass",
                "pass",
                output=f"checked {index}\n" * 20,
                metrics=plots if index % 10 == 0 else {},
            )
        )
    page = render_html(results)
    assert len(page.encode()) < 1_500_000, len(page)
    rows = html_report.unpack_tests(page)
    assert len(rows) == len(results["tests"]) and rows[-1][2].startswith("math/func.case5999")
    assert 'id="t-6009"' in rows[-1][0] and "checked 5999" in rows[-1][1]


def test_an_empty_or_sparse_document_still_renders():
    assert "Nothing unexpected in 0 tests" in render_html({})
    sparse = {"tests": [{"id": "a/B.c", "verdict": "weird"}], "complete": False}
    page = expanded(render_html(sparse))
    assert "Incomplete run" in page and 'data-verdict="missing"' in page
    assert "a/B.c" in render_summary(sparse)


def test_binaries_that_could_not_start_lead_both_reports():
    # results.json `unstartable` (a binary the loader stopped): first in the outcome, then listed with why, in both
    # report.html and summary.md; never a green "nothing unexpected", and what the line holds stays text.
    results = hostile_results()
    results["tests"] = [t for t in results["tests"] if t["verdict"] in ("pass", "skip")]
    results["unstartable"] = [
        "cuconform-nvrtc cannot start here, its tests were not run: libnvrtc.so.12: cannot open shared object file",
        f"cuconform-odd cannot start here, its tests were not run: {HOSTILE}",
    ]
    page = render_html(results)
    outcome = page[page.index('<p class="outcome') : page.index("</header>")]
    assert outcome.startswith('<p class="outcome bad"><a href="#not-run">2 binaries could not start, their tests')
    assert 'class="outcome partial">Nothing unexpected in 3 tests' in outcome and "outcome good" not in page
    section = page[page.index('<section id="not-run"') :]
    section = section[: section.index("</section>")]
    assert "libnvrtc.so.12: cannot open shared object file" in section and PWNED not in page
    assert '<td class="tid">cuconform-odd</td>' in section and "&lt;script&gt;" in section
    assert "<title>20261125-1046-sm_90-nvcc: nothing unexpected, 2 binaries could not start" in page
    lines = render_summary(results).splitlines()
    assert lines[0] == (
        r"### cuconform 20261125-1046-sm\_90-nvcc: **2 binaries could not start, their tests were not run**; "
        "nothing unexpected in 3 tests"
    )
    listed = [
        line
        for line in lines[: lines.index("| pass | fail | crash | timeout | skip | xfail | xpass | flake | missing |")]
        if line.startswith("- ")
    ]
    assert listed[0] == (
        "- cuconform-nvrtc cannot start here, its tests were not run: libnvrtc.so.12: cannot open shared object file"
    )
    assert "<script>" not in listed[1] and "\x1b" not in listed[1] and len(listed) == 2
    assert "**Not run:**" in lines[4]


# --- summary.md --------------------------------------------------------------------------------------------------


def test_summary_cells_cannot_break_a_markdown_table():
    assert cell("a | b") == r"a \| b"
    assert cell("one\ntwo\r\nthree") == "one two three"
    assert cell("`code` *em* _u_ [l](x) ~s~") == r"\`code\` \*em\* \_u\_ \[l\](x) \~s\~"
    assert cell("<img src=x onerror=alert(1)> & more") == "&lt;img src=x onerror=alert(1)&gt; &amp; more"
    assert cell("esc \x1b[31m nul \x00 rlo \u202e") == r"esc \\x1b\[31m nul \\x00 rlo \\u202e"
    assert cell("# heading") == r"\# heading" and cell("- item") == r"\- item" and cell("1. item") == r"1\. item"
    assert cell("5.4.5.1 text") == "5.4.5.1 text"
    assert cell("x" * 500).endswith("…") and len(cell("x" * 500)) == 160


def test_the_summary_is_short_and_says_what_matters():
    summary = render_summary(hostile_results())
    lines = summary.splitlines()
    assert lines[0] == r"### cuconform 20261125-1046-sm\_90-nvcc: **4 unexpected** of 10 tests"
    assert "NVIDIA H100 80GB HBM3 (CC 9.0) · driver supports CUDA 13.0" in lines[2]
    assert "| 2 | 1 | 1 | 0 | 1 | 2 | 1 | 1 | 1 |" in lines  # pass fail crash timeout skip xfail xpass flake missing
    hostile = next(line for line in lines if line.startswith("| atomics/AtomicAdd.Hostile"))
    assert hostile.count(" | ") == 2 and "\x1b" not in hostile and "<script>" not in hostile  # three cells
    assert (
        r"| atomics/AtomicInc.Known1 (+1 more) | sm\_90.toml:12 | "
        r"the guide says 1 &lt;b&gt;bold&lt;/b&gt; \| the GPU says 2 |"
    ) in lines
    assert "- sync/Syncthreads.Flaky: fail then pass" in lines
    assert r"- sm\_90.toml:40: atomics/Gone.\*" in lines
    assert "#### Slowest areas" in lines
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", summary)
    for line in lines:  # every table row has as many cells as its header
        if line.startswith("|"):
            assert len(re.findall(r"(?<!\\)\|", line)) in (4, 5, 10), line


def test_long_lists_are_cut():
    results = hostile_results()
    results["tests"] = [a_test(f"a/T.Fail{i}", "fail", "fail", message="bad") for i in range(50)]
    summary = render_summary(results)
    assert "… and 30 more in report.html." in summary and "a/T.Fail19 |" in summary and "a/T.Fail20 |" not in summary


# --- where the reports are written ---------------------------------------------------------------------------------


def test_scripts_conformance_report_regenerates_both_files(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.json").write_text(json.dumps(hostile_results()), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(CONFORMANCE), "report", str(run)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(run / "report.html"), str(run / "summary.md")]
    results = json.loads((run / "results.json").read_text(encoding="utf-8"))
    assert (run / "report.html").read_text(encoding="utf-8") == render_html(results)
    assert (run / "summary.md").read_text(encoding="utf-8").startswith("### cuconform 20261125-1046")
    missing = subprocess.run(
        [sys.executable, str(CONFORMANCE), "report", str(tmp_path / "nothing")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 2 and missing.stderr == f"{tmp_path / 'nothing'}: no such file or folder\n"


def test_a_report_that_cannot_be_made_is_a_warning_not_a_lost_run(tmp_path, monkeypatch, capsys):
    from cuconform import reports

    def broken(results, parts=(), rows=None):
        raise KeyError("surprise")

    monkeypatch.setattr(html_report, "render_html", broken)
    written = reports.write_readable(hostile_results(), tmp_path)
    assert written == [tmp_path / "summary.md"] and not (tmp_path / "report.html").exists()
    assert f"could not write {tmp_path / 'report.html'}: KeyError" in capsys.readouterr().err


def test_a_run_writes_report_html_and_summary_md(fake_build):
    from conftest import H100

    fake_build.area("alpha", "Fake.Pass1", "Fake.Hostile1", "Fake.Skip1")
    fake_build.devices(H100)
    run = fake_build.run()
    assert run.code == 1, run.stdout + run.stderr
    page = (run.folder / "report.html").read_text(encoding="utf-8")
    assert page == render_html(run.results)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in expanded(page) and len(executable_scripts(parsed(page))) == 1
    summary = (run.folder / "summary.md").read_text(encoding="utf-8")
    assert "| alpha/Fake.Hostile1 | fail |" in summary
    assert f"{run.folder}/report.html" in run.stdout


# --- in a real browser ---------------------------------------------------------------------------------------------

CHROMIUM = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="no chromium: apt-get install chromium (.ci/run does)")


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Headless Chromium on a page; --virtual-time-budget lets the page's script unpack the list before the DOM is
    dumped or the screenshot taken."""
    command = [
        CHROMIUM,
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--no-first-run",
        "--disable-extensions",
        "--virtual-time-budget=10000",
        f"--user-data-dir={tmp_path / 'profile'}",
        *args,
    ]
    return subprocess.run(command, capture_output=True, timeout=120, errors="backslashreplace")


@pytest.fixture
def written(tmp_path) -> Path:
    return write_html(hostile_results(), tmp_path / "report.html")


@needs_chromium
def test_in_chromium_the_fragment_filters_and_no_injected_script_runs(written, tmp_path):
    done = chromium(tmp_path, "--dump-dom", f"{written.as_uri()}#verdict=fail,crash&area=atomics")
    dom = done.stdout
    assert "<body" in dom, done.stderr[-2000:]
    assert "PWNED" not in re.search(r"<title>(.*?)</title>", dom, re.S).group(1)
    assert "IMG" not in re.search(r"<title>(.*?)</title>", dom, re.S).group(1)
    assert 'data-filter="verdict=fail,crash&amp;area=atomics"' in dom  # the script ran and read the fragment
    shown = re.findall(
        r'<details class="test v-\w+" id="(t-\d+)" data-verdict="(\w+)" data-area="([^"]*)"'
        r'( hidden="")?',
        dom,
    )
    assert len(shown) == len(hostile_results()["tests"])
    assert [(v, a) for _, v, a, hidden in shown if not hidden] == [("fail", "atomics")]
    assert "1 of 10 tests shown" in dom
    assert re.search(r'data-verdict="fail" aria-pressed="true"', dom)
    assert '<p class="noscript-note" id="js-note" hidden="">' in dom


@needs_chromium
def test_in_chromium_a_query_filters_by_text(written, tmp_path):
    dom = chromium(tmp_path, "--dump-dom", f"{written.as_uri()}?q=syncthreads").stdout
    visible = re.findall(r'<details class="test v-\w+" id="t-\d+" data-verdict="\w+" data-area="(\w+)">', dom)
    assert visible == ["sync"] * 4, dom[-3000:]


@needs_chromium
def test_in_chromium_a_test_fragment_opens_that_test(written, tmp_path):
    dom = chromium(tmp_path, "--dump-dom", f"{written.as_uri()}#t-4").stdout
    assert re.search(r'<details class="test v-flake" id="t-4" data-verdict="flake" data-area="sync" open="">', dom)
    assert dom.count(' open=""') == 1
    opened = dom[dom.index('id="t-4"') :]
    assert "<li>fail, 100.0 ms: first attempt failed</li>" in opened[: opened.index("</details>")]  # its body, filled
    assert dom.count('<div class="body"></div>') == len(hostile_results()["tests"]) - 1  # the others: not yet


@needs_chromium
def test_in_chromium_the_page_renders(tmp_path):
    results = hostile_results()
    for index in range(40):  # enough tests to fill the window
        results["tests"].append(
            a_test(f"memory/Copy.Case{index}", "pass" if index % 7 else "skip", "pass" if index % 7 else "skip")
        )
    path = write_html(results, tmp_path / "report.html")
    shot = tmp_path / "report.png"
    done = chromium(
        tmp_path,
        f"--screenshot={shot}",
        "--window-size=1280,2000",
        "--hide-scrollbars",
        f"{path.as_uri()}#verdict=fail,crash,xpass,missing,xfail,flake",
    )
    assert shot.is_file(), done.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1280, 2000)
    assert len(data) > 50_000  # a blank page compresses to a few kilobytes
