"""report.html: one self-contained page per run, for people (reports/README.md, "report.html").

    write_html(results, path)    results: the results.json document (reports.py results_document)

The page needs no network and loads nothing: its CSS and JavaScript (report_page/) are inlined, and its
Content-Security-Policy allows only that one script (by its hash) and nothing from outside. Everything the page
shows is rendered here, on the server side, as escaped text; the script filters tests (by verdict, area and text,
read from and written to the URL fragment, e.g. report.html#verdict=fail&area=atomics).

The top of the page (environment, verdicts, what needs attention, the area matrix) is plain HTML, shown as soon as
it arrives. The list of every test travels packed (`pack_tests`: each test's HTML, rendered here, as gzip-compressed
JSON in base64, in a data block the browser does not run): a quick run's list is 20 MB of HTML (half of it error
plots), 1.4 MB packed. The script unpacks it (the browser's DecompressionStream), puts every test's collapsed line
on the page at once, and a test's details when it is opened. The page reads no JSON from a test: each piece of the
packed list is HTML this module made.

Whatever a test prints cannot break or script the page: every text goes through `text()` (HTML-escaped, control
and invisible characters shown as visible marks) or `attr()` (for attribute values).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
import re
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from string import Template
from urllib.parse import quote

from cuconform import cc_coverage, error_plots, overview
from cuconform.files import atomic_write
from cuconform.overview import UNEXPECTED_VERDICTS, VERDICTS

OUTPUT_CHARS = 64 * 1024  # of a test's output or message, the page keeps this much (results.json has it all)
OUTPUT_TAIL = 16 * 1024  # ... the last so many characters of it
UNEXPECTED_LINES = 3  # of an unexpected result's message, the list at the top shows so many lines

# Characters a test may print that HTML would drop, hide or use to reorder text: C0 and C1 controls (ESC of
# terminal colour sequences, NUL, ...) but tab and newline, DEL, lone surrogates (a results.json may hold "\ud800"),
# zero-width and bidirectional formatting characters, and the noncharacters U+FFFE/U+FFFF.
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ufffe\uffff\ud800-\udfff]"
)
VERDICT_TITLES = {
    "pass": "did what the documentation says",
    "fail": "failed, and no expectation entry expected it",
    "crash": "broke its process or CUDA context, unexpectedly",
    "timeout": "hung, unexpectedly",
    "skip": "cannot be exercised here",
    "xfail": "failed as its expectation entry records: a known finding",
    "xpass": "expected to fail but passed: the entry is stale",
    "flake": "failed, then passed when its batch ran again",
    "missing": "selected, but never produced a result",
}


def _mark(character: str) -> str:
    r"""A control or invisible character as a visible mark: \x1b, \x00, \u202e (the font may lack control
    pictures), with its code point on hover."""
    code = ord(character)
    shown = f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return f'<span class="ctl" title="U+{code:04X}">{shown}</span>'


def text(value: object) -> str:
    """Text as HTML element content: escaped, and every control or invisible character a visible mark."""
    string = str(value).replace("\r\n", "\n")
    if not _INVISIBLE.search(string):
        return html.escape(string)
    parts, start = [], 0
    for match in _INVISIBLE.finditer(string):
        parts += [html.escape(string[start : match.start()]), _mark(match.group())]
        start = match.end()
    parts.append(html.escape(string[start:]))
    return "".join(parts)


def attr(value: object) -> str:
    """Text as an attribute value (inside double quotes): escaped, invisible characters as \\uXXXX."""
    return html.escape(_INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", str(value)), quote=True)


def clipped(value: str | None) -> str:
    """A long output as the page shows it: its head and its tail, with what was left out in between."""
    value = value or ""
    if len(value) <= OUTPUT_CHARS:
        return text(value)
    head, tail = value[: OUTPUT_CHARS - OUTPUT_TAIL], value[-OUTPUT_TAIL:]
    left_out = len(value) - len(head) - len(tail)
    return (
        f'{text(head)}<span class="clip">[... {left_out:,} characters left out here: results.json has them all'
        f" ...]</span>{text(tail)}"
    )


def badge(verdict: str) -> str:
    title = attr(VERDICT_TITLES.get(verdict, ""))
    return f'<span class="badge v-{attr(verdict)}" title="{title}">{text(verdict)}</span>'


def filter_link(label: str, css: str = "", **filters: str) -> str:
    """A link that filters the test list (page.js reads the fragment): `label` is HTML."""
    fragment = "&amp;".join(f"{key}={attr(quote(value, safe=''))}" for key, value in filters.items())
    css_attribute = f' class="{css}"' if css else ""
    return f'<a{css_attribute} href="#{fragment}">{label}</a>'


# --- the top of the page -------------------------------------------------------------------------------------


def outcome(results: dict) -> str:
    counted = overview.counts(results)
    bad = sum(counted[verdict] for verdict in UNEXPECTED_VERDICTS)
    total = sum(counted.values())
    not_run = overview.unstartable(results)
    line = (
        f'<p class="outcome bad"><a href="#not-run">{text(overview.unstartable_text(len(not_run)))}</a></p>'
        if not_run
        else ""
    )
    if bad:
        words = ", ".join(f"{counted[v]} {v}" for v in UNEXPECTED_VERDICTS if counted[v])
        line += f'<p class="outcome bad">{bad} unexpected of {total} tests <span>({text(words)})</span></p>'
    else:  # not green when binaries did not start: the tests that ran are not the run's tests
        line += f'<p class="outcome {"partial" if not_run else "good"}">Nothing unexpected in {total} tests</p>'
    if results.get("complete") is False:
        line += '<p class="outcome partial">Incomplete run: it stopped early, and only the tests that ran are here</p>'
    drafts = overview.accepted_without_review(results)
    if drafts:
        tests = sum(len(d.tests) for d in drafts)
        line += (
            f'<p class="outcome partial"><a href="#drafts">{tests} {overview.ACCEPTED_WITHOUT_REVIEW}</a> '
            f"<span>({len(drafts)} draft entr{'y' if len(drafts) == 1 else 'ies'})</span></p>"
        )
    return line


def environment(results: dict) -> str:
    return "\n".join(
        f"    <div><dt>{text(label)}</dt><dd>{text(value)}</dd></div>"
        for label, value in overview.environment_rows(results)
    )


def chips(results: dict) -> str:
    counted = overview.counts(results)
    return "\n".join(
        f'    <a class="chip v-{verdict}{" zero" if not counted[verdict] else ""}" href="#verdict={verdict}" '
        f'title="{attr(VERDICT_TITLES[verdict])}"><b>{counted[verdict]:,}</b> {verdict}</a>'
        for verdict in VERDICTS
    )


# --- what needs attention: unexpected results, findings, flakes, stale entries ------------------------------------


def attention(results: dict, anchors: dict[int, str]) -> str:
    sections = [
        not_run_section(results),
        unexpected_section(results, anchors),
        new_cc_section(results),
        drafts_section(results, anchors),
        findings_section(results, anchors),
        flakes_section(results, anchors),
        stale_section(results),
    ]
    return "\n".join(section for section in sections if section)


def test_link(test: dict, anchors: dict[int, str]) -> str:
    return f'<a class="tid" href="#{anchors[id(test)]}">{text(test.get("id", "?"))}</a>'


def not_run_section(results: dict) -> str:
    """The suite binaries that could not start on the run's machine (results.json `unstartable`): each with the
    line that says why; their tests are absent from every count of the page."""
    not_run = overview.unstartable(results)
    if not not_run:
        return ""
    rows = "\n".join(
        f'<tr><td class="tid">{text(binary.binary)}</td><td class="msg"><div>{text(binary.line)}</div></td></tr>'
        for binary in not_run
    )
    return (
        f'<section id="not-run" class="attention">\n<h2>Not run <small>{text(overview.NOT_RUN_HINT)}</small></h2>'
        '\n<table class="list"><thead><tr><th>binary</th><th>why</th></tr></thead>'
        f"<tbody>\n{rows}\n</tbody></table>\n</section>"
    )


def unexpected_section(results: dict, anchors: dict[int, str]) -> str:
    tests = overview.unexpected(results)
    if not tests:
        return ""
    newline = "\n"
    rows = "\n".join(
        f"<tr><td>{badge(overview.verdict_of(t))}</td><td>{test_link(t, anchors)}</td>"
        f'<td class="sec">{text(t.get("section") or "")}</td>'
        f'<td class="msg"><div>{text(newline.join(overview.failure_lines(t, UNEXPECTED_LINES)))}</div></td></tr>'
        for t in tests
    )
    return (
        f'<section id="unexpected" class="attention">\n<h2>Unexpected results <small>{len(tests)}: these fail '
        'the run</small></h2>\n<div class="scroll tall"><table class="list">\n<colgroup><col class="c-verdict">'
        '<col class="c-test"><col class="c-section"><col></colgroup>\n<thead><tr><th>verdict</th><th>test</th>'
        f"<th>section</th><th>what went wrong</th></tr></thead>\n<tbody>\n{rows}\n</tbody></table></div>"
        "\n</section>"
    )


def entry_members(tests: list, anchors: dict[int, str], after) -> tuple[str, str]:
    """An expectation entry's tests: the first linked ('and N more'), and the list of all of them, each followed by
    after(test), folded away; the list is empty for one test."""
    what = test_link(tests[0], anchors) + (
        f' <span class="more">and {len(tests) - 1} more</span>' if len(tests) > 1 else ""
    )
    if len(tests) == 1:
        return what, ""
    listed = "".join(f"<li>{test_link(t, anchors)}{after(t)}</li>" for t in tests)
    return what, f'<details class="members"><summary>all {len(tests)} tests</summary><ul>{listed}</ul></details>'


def findings_section(results: dict, anchors: dict[int, str]) -> str:
    found = overview.findings(results)
    if not found:
        return ""
    items = []
    for finding in found:
        tests = finding.tests
        what, more = entry_members(tests, anchors, lambda t: "")
        items.append(
            f'<div class="finding"><div class="finding-head">{badge("xfail")} {what}'
            f'<span class="entry">{text(finding.entry)}, expected {text(finding.status)}</span></div>'
            f'<p class="reason">{text(finding.reason)}</p>'
            f'<p class="evidence">{text(finding.evidence)}</p>{more}</div>'
        )
    total = sum(len(f.tests) for f in found)
    return (
        f'<section id="findings">\n<h2>Known findings <small>{total} tests failed as {len(found)} expectation '
        'entries record (xfail)</small></h2>\n<div class="scroll tall">\n' + "\n".join(items) + "\n</div>\n</section>"
    )


def drafts_section(results: dict, anchors: dict[int, str]) -> str:
    """The tests draft entries of scripts/conformance triage judged: apart from the findings, since nobody has
    written why yet."""
    drafts = overview.accepted_without_review(results)
    if not drafts:
        return ""
    items = []
    for draft in drafts:
        tests = draft.tests
        what, more = entry_members(tests, anchors, lambda t: " " + badge(overview.verdict_of(t)))
        items.append(
            f'<div class="finding draft"><div class="finding-head">{badge(overview.verdict_of(tests[0]))} '
            f'{what}<span class="entry">{text(draft.entry)}, expected {text(draft.status)}, draft</span></div>'
            f'<p class="evidence">{text(draft.evidence)}</p>{more}</div>'
        )
    total = sum(len(d.tests) for d in drafts)
    return (
        f'<section id="drafts" class="attention">\n<h2>Accepted without review <small>{total} tests judged by '
        f'{len(drafts)} draft entries, {text(overview.DRAFT_HINT)}</small></h2>\n<div class="scroll tall">\n'
        + "\n".join(items)
        + "\n</div>\n</section>"
    )


def new_cc_section(results: dict) -> str:
    """A run on a compute capability new to the suite: the chain it was judged by, what spec/ lacks for it, and
    the tests that skip for want of it (cc_coverage.py)."""
    coverage = results.get("unknown_cc")
    if not isinstance(coverage, dict):
        return ""
    said = "".join(f"<p>{text(line)}</p>" for line in cc_coverage.lines(coverage, shown=None))  # every item
    return (
        f'<section id="new-cc" class="attention">\n<h2>{text(cc_coverage.heading(coverage))}</h2>\n{said}\n</section>'
    )


def flakes_section(results: dict, anchors: dict[int, str]) -> str:
    tests = overview.flakes(results)
    if not tests:
        return ""
    rows = "\n".join(
        f"<tr><td>{test_link(t, anchors)}</td><td>{text(overview.attempts_text(t))}</td>"
        f'<td class="msg">{text(overview.failure_line(t))}</td></tr>'
        for t in tests
    )
    return (
        f'<section id="flakes">\n<h2>Flakes <small>{len(tests)}</small></h2>\n<table class="list"><thead><tr>'
        f"<th>test</th><th>attempts</th><th>first attempt</th></tr></thead><tbody>\n{rows}\n</tbody></table>"
        "\n</section>"
    )


def stale_section(results: dict) -> str:
    stale = [entry for entry in results.get("stale_expectations") or [] if isinstance(entry, dict)]
    if not stale:
        return ""
    rows = "\n".join(
        f'<tr><td class="tid">{text(e.get("entry", "?"))}</td><td>{text(", ".join(e.get("tests") or []))}'
        f'</td><td>{text(e.get("status", ""))}</td><td class="msg">{text(e.get("reason", ""))}</td></tr>'
        for e in stale
    )
    return (
        f'<section id="stale">\n<h2>Stale expectation entries <small>{len(stale)}, matching no test: remove '
        'them</small></h2>\n<table class="list"><thead><tr><th>entry</th><th>tests</th><th>status</th>'
        f"<th>reason</th></tr></thead><tbody>\n{rows}\n</tbody></table>\n</section>"
    )


# --- the area x verdict matrix and the filters -------------------------------------------------------------------


def matrix(results: dict) -> str:
    areas = overview.areas(results)
    shown = [v for v in VERDICTS if any(a.counts[v] for a in areas)] or ["pass"]
    head = "".join(f'<th class="v-{v}">{filter_link(v, "", verdict=v)}</th>' for v in shown)
    rows = [
        f"<thead><tr><th>area</th>{head}<th>tests</th><th title=\"the sum of its tests' durations; tests run in "
        'parallel">test time</th></tr></thead>',
        "<tbody>",
    ]
    for area in areas:
        cells = "".join(
            f'<td class="n v-{v}">{filter_link(f"{area.counts[v]:,}", "hit", area=area.name, verdict=v)}</td>'
            if area.counts[v]
            else '<td class="n zero">·</td>'
            for v in shown
        )
        css = ' class="has-unexpected"' if area.unexpected else ""
        rows.append(
            f"<tr{css}><th>{filter_link(text(area.name), '', area=area.name)}</th>{cells}"
            f'<td class="n">{area.total:,}</td><td class="n">{text(overview.duration_text(area.seconds))}</td>'
            "</tr>"
        )
    totals = overview.counts(results)
    cells = "".join(f'<td class="n">{totals[v]:,}</td>' for v in shown)
    total_time = sum(a.seconds for a in areas)
    rows += [
        "</tbody>",
        f'<tfoot><tr><th>all</th>{cells}<td class="n">{sum(totals.values()):,}</td>'
        f'<td class="n">{text(overview.duration_text(total_time))}</td></tr></tfoot>',
    ]
    return "\n".join(rows)


def verdict_buttons(results: dict) -> str:
    counted = overview.counts(results)
    return "\n".join(
        f'      <button type="button" class="vbtn v-{v}" data-verdict="{v}" aria-pressed="false"'
        f"{' disabled' if not counted[v] else ''}>{v} <b>{counted[v]:,}</b></button>"
        for v in VERDICTS
    )


def area_options(results: dict) -> str:
    return "\n".join(
        f'      <option value="{attr(a.name)}">{text(a.name)} ({a.total:,})</option>' for a in overview.areas(results)
    )


# --- one test ---------------------------------------------------------------------------------------------------


def fact(label: str, value_html: str) -> str:
    return f"<dt>{label}</dt><dd>{value_html}</dd>"


def expected_html(test: dict) -> str:
    expected = test.get("expected")
    if not isinstance(expected, dict):
        return "pass (no expectation entry)"
    parts = [f"<b>{text(expected.get('status', '?'))}</b> ({text(expected.get('entry', '?'))})"]
    if expected.get("draft") is True:
        parts.append(f" <b>draft: {text(overview.ACCEPTED_WITHOUT_REVIEW)}</b>")
    if expected.get("reason"):
        parts.append(f'<div class="reason">{text(expected["reason"])}</div>')
    if expected.get("evidence"):
        parts.append(f'<div class="evidence">{text(expected["evidence"])}</div>')
    return "".join(parts)


def attempts_html(test: dict) -> str:
    attempts = [a for a in test.get("attempts") or [] if isinstance(a, dict)]
    if len(attempts) < 2:
        return ""
    items = "".join(
        f"<li>{text(a.get('status') or 'none')}, {text(overview.duration_text(a.get('duration')))}"
        f"{': ' + text(overview.failure_line(a)) if overview.failure_line(a) else ''}</li>"
        for a in attempts
    )
    return fact("Attempts", f'<ol class="attempts">{items}</ol>')


def metrics_html(test: dict) -> str:
    metrics = test.get("metrics")
    if not isinstance(metrics, dict) or not metrics:
        return ""
    rows = "".join(
        f"<tr><th>{text(name)}</th><td>{text(json.dumps(value, ensure_ascii=False))}</td></tr>"
        for name, value in metrics.items()
        if not (error_plots.is_profile(name) and error_plots.parse(value))
    )
    plots = error_plots.plots_html(metrics)
    return fact("Metrics", f'<table class="metrics">{rows}</table>') + (fact("Error", plots) if plots else "")


def test_body(test: dict) -> str:
    """What an opened test shows: its statement, facts, message and output."""
    status = test.get("status")
    duration = test_duration(test)
    facts = []
    if test.get("rule") and test.get("rule") != test.get("id"):
        facts.append(fact("Rule", text(test["rule"])))
    if test.get("param") is not None:
        facts.append(fact("Parameter", text(test["param"])))
    facts.append(fact("Observed", f"<b>{text(status or 'never ran')}</b>"))
    facts.append(fact("Expected", expected_html(test)))
    facts.append(fact("Duration", text(duration)))
    kind = ["needs a GPU" if test.get("gpu") else "host only"] + (["exclusive"] if test.get("exclusive") else [])
    if test.get("compiler"):
        kind.append(f"compiler {test['compiler']} {test.get('compiler_version') or ''}".strip())
    facts.append(fact("Runs", text(", ".join(kind))))
    if test.get("source"):
        facts.append(fact("Source", f"<code>{text(test['source'])}</code>"))
    if test.get("nodeid"):
        facts.append(fact("pytest id", f"<code>{text(test['nodeid'])}</code>"))
    attempts = attempts_html(test)
    if attempts:
        facts.append(attempts)
    metrics = metrics_html(test)
    if metrics:
        facts.append(metrics)

    body = [
        f'<p class="statement">{text(test.get("statement") or "(no statement)")}</p>',
        f'<dl class="facts">{"".join(facts)}</dl>',
    ]
    message, output = test.get("message") or "", test.get("output") or ""
    if message.strip():
        body.append(f'<h4>Message</h4><pre class="message">{clipped(message.rstrip())}</pre>')
    if output.strip() and output.strip() != message.strip():
        lines = output.rstrip("\n").count("\n") + 1
        body.append(
            f'<details class="output"><summary>Output <small>{lines:,} line{"s" if lines != 1 else ""}'
            f"</small></summary><pre>{clipped(output.rstrip())}</pre></details>"
        )
    return "".join(body)


def test_duration(test: dict) -> str:
    return overview.duration_text(test.get("duration")) if test.get("attempts") or test.get("status") else "not run"


def test_head(test: dict, anchor: str) -> str:
    """A test as the list shows it, collapsed: its verdict, id, section and duration (its body is added when it is
    opened)."""
    before, after = _head_around_anchor(test)
    return before + anchor + after


def _head_around_anchor(test: dict) -> tuple[str, str]:
    """test_head's text before and after its anchor (the anchor is the test's place in the list, known at the end)."""
    verdict = overview.verdict_of(test)
    return (
        f'<details class="test v-{verdict}" id="',
        f'" data-verdict="{verdict}" '
        f'data-area="{attr(overview.area_of(test))}"><summary>{badge(verdict)}'
        f'<span class="tid">{text(test.get("id", "?"))}</span><span class="sec">{text(test.get("section") or "")}'
        f'</span><span class="dur">{text(test_duration(test))}</span></summary><div class="body"></div></details>',
    )


def test_entry(test: dict, anchor: str) -> str:
    """A test as the page shows it once opened: its head with its body in place."""
    head = test_head(test, anchor)
    at = head.rindex('<div class="body"></div>') + len('<div class="body">')
    return head[:at] + test_body(test) + head[at:]


def search_text(test: dict) -> str:
    """What the page's text filter looks in: the test's id, section and statement."""
    return " ".join(str(test.get(key) or "") for key in ("id", "section", "statement")).lower()


def packed_row(test: dict) -> tuple[str, str]:
    """A test's entry of the packed list, [head, body, search text] as JSON, in two pieces around its anchor: made
    once per test, when it finishes (prerender.py), and joined at the end. (JSON escapes each character on its
    own, so the pieces joined around the anchor are the JSON of the whole row.)"""
    before, after = _head_around_anchor(test)
    dumps = _PACKED_JSON.encode
    return "[" + dumps(before)[:-1], dumps(after)[1:] + "," + dumps(test_body(test)) + "," + dumps(
        search_text(test)
    ) + "]"


_PACKED_JSON = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))


def pack_tests(tests: list[dict], anchors: dict[int, str], rows: Callable[[dict], tuple[str, str]] = packed_row) -> str:
    """The test list as the page carries it: JSON of [head, body, search text] per test, gzip-compressed, in base64
    (no '<' can close its data block). The heads and bodies are HTML made here (test_head, test_body); `rows`: each
    test's packed_row (a run's are made as its tests finish)."""
    listed = []
    for test in tests:
        before, after = rows(test)
        listed.append(before + anchors[id(test)] + after)
    packed = gzip.compress(("[" + ",".join(listed) + "]").encode("ascii"), compresslevel=6, mtime=0)
    return base64.b64encode(packed).decode("ascii")


def unpack_tests(page: str) -> list[list[str]]:
    """The packed test list of a page written by render_html: [head, body, search text] per test (what page.js
    reads; for tests and tools)."""
    found = re.search(r'<script type="application/gzip" id="packed-tests">([A-Za-z0-9+/=\s]*)</script>', page)
    if not found:
        return []
    return json.loads(gzip.decompress(base64.b64decode(found.group(1))))


# --- the page ---------------------------------------------------------------------------------------------------


def _resource(name: str) -> str:
    return (resources.files("cuconform") / "report_page" / name).read_text(encoding="utf-8")


def render_html(results: dict, parts: Sequence[str] = (), rows: Callable[[dict], tuple[str, str]] = packed_row) -> str:
    """The page of a results.json document; `parts`: the <section>s features render for it (reports.ReportPart),
    shown after the verdict counts; `rows`: each test's packed_row (pack_tests)."""
    tests = overview.tests_of(results)
    anchors = {id(test): f"t-{index}" for index, test in enumerate(tests)}
    environment_ = results.get("environment") or {}
    run = str(environment_.get("run") or "cuconform run")
    counted = overview.counts(results)
    bad = sum(counted[v] for v in UNEXPECTED_VERDICTS)
    title = f"{run}: {bad} unexpected" if bad else f"{run}: nothing unexpected"
    if overview.unstartable(results):
        title += f", {overview.unstartable_text(len(overview.unstartable(results)))}"
    script = "\n" + _resource("page.js").strip() + "\n"
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    # Only the page's own script runs, nothing is loaded: an injected tag could neither run nor call home.
    csp = (
        f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )
    page = Template(_resource("page.html")).substitute(
        csp=csp,
        title=text(title),
        css=_resource("page.css").strip(),
        run=text(run),
        outcome=outcome(results),
        environment=environment(results),
        chips=chips(results),
        parts="\n".join(part for part in parts if part),
        attention=attention(results, anchors),
        matrix=matrix(results),
        total=f"{len(tests):,}",
        verdict_buttons=verdict_buttons(results),
        area_options=area_options(results),
        packed=pack_tests(tests, anchors, rows),
        format=text(results.get("format", "?")),
        footer=text(f"{environment_.get('started', '')} to {environment_.get('ended', '')}"),
        js=script.strip("\n"),
    )
    return page


def write_html(
    results: dict, path: Path, parts: Sequence[str] = (), rows: Callable[[dict], tuple[str, str]] = packed_row
) -> Path:
    atomic_write(Path(path), render_html(results, parts, rows))
    return Path(path)
