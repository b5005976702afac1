// report.html's only script: unpacks the test list and filters it by verdict, area and text. The filter lives in
// the URL fragment (#verdict=fail,crash&area=atomics&q=inc) or query (?verdict=fail), so a filtered view can be
// linked; #t-12 opens and shows one test. The list travels packed (html_report.py, pack_tests): gzip-compressed
// JSON of [head, body, search text] per test, each head and body HTML that the report's writer escaped. Every
// test's head goes on the page at once; its body when it is first opened.
(function () {
  "use strict";
  var list = document.getElementById("test-list");
  var packed = document.getElementById("packed-tests");
  var note = document.getElementById("js-note");
  var buttons = Array.prototype.slice.call(document.querySelectorAll("button.vbtn"));
  var areaSelect = document.getElementById("area-filter");
  var textInput = document.getElementById("text-filter");
  var shown = document.getElementById("shown");
  var tests = [];
  var rows = [];
  var state = { verdicts: [], area: "", q: "" };

  function unpack() {
    var text = atob(packed.textContent.replace(/\s+/g, ""));
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  function fill(test) {  // a test's details, the first time it is opened
    var body = test.querySelector("div.body");
    var row = rows[Number(test.id.slice(2))];
    if (body && row && !body.hasChildNodes()) body.innerHTML = row[1];
  }

  function parse(text) {
    var found = {};
    text.replace(/^[#?]/, "").split("&").forEach(function (pair) {
      var at = pair.indexOf("=");
      if (at > 0) {
        try {
          found[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1).replace(/\+/g, " "));
        } catch (error) {
          // a malformed escape: ignore this pair
        }
      }
    });
    return found;
  }

  function fragment() {
    var parts = [];
    if (state.verdicts.length) parts.push("verdict=" + state.verdicts.map(encodeURIComponent).join(","));
    if (state.area) parts.push("area=" + encodeURIComponent(state.area));
    if (state.q) parts.push("q=" + encodeURIComponent(state.q));
    return parts.join("&");
  }

  function apply() {
    var q = state.q.toLowerCase();
    var count = 0;
    tests.forEach(function (test, index) {
      var visible = (!state.verdicts.length || state.verdicts.indexOf(test.dataset.verdict) >= 0) &&
        (!state.area || test.dataset.area === state.area) && (!q || rows[index][2].indexOf(q) >= 0);
      test.hidden = !visible;
      if (visible) count += 1;
    });
    buttons.forEach(function (button) {
      button.setAttribute("aria-pressed", state.verdicts.indexOf(button.dataset.verdict) >= 0 ? "true" : "false");
    });
    areaSelect.value = state.area;
    if (textInput.value !== state.q) textInput.value = state.q;
    var filtered = state.verdicts.length || state.area || state.q;
    shown.textContent = filtered ? count.toLocaleString("en") + " of " + tests.length.toLocaleString("en") +
      " tests shown" : tests.length.toLocaleString("en") + " tests";
    document.body.dataset.filter = fragment();
  }

  function remember() {
    var text = fragment();
    history.replaceState(null, "", text ? "#" + text : location.pathname + location.search);
  }

  function fromLocation(scroll) {
    var hash = location.hash.slice(1);
    if (/^t-\d+$/.test(hash)) {  // one test: make sure it is shown, open it
      var test = document.getElementById(hash);
      if (test) {
        if (test.hidden) {
          state = { verdicts: [], area: "", q: "" };
          apply();
        }
        fill(test);
        test.open = true;
        test.scrollIntoView();
      }
      return;
    }
    var wanted = parse(hash || location.search);
    state.verdicts = (wanted.verdict || "").split(",").filter(function (v) { return v; });
    state.area = wanted.area || "";
    state.q = wanted.q || "";
    apply();
    if (scroll && hash) document.getElementById("tests").scrollIntoView();
  }

  function start(unpacked) {
    rows = unpacked;
    list.innerHTML = rows.map(function (row) { return row[0]; }).join("\n");
    tests = Array.prototype.slice.call(list.querySelectorAll("details.test"));
    list.addEventListener("toggle", function (event) {  // toggle does not bubble: caught on its way down
      if (event.target.classList && event.target.classList.contains("test") && event.target.open) fill(event.target);
    }, true);
    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        var verdict = button.dataset.verdict;
        var at = state.verdicts.indexOf(verdict);
        if (at >= 0) state.verdicts.splice(at, 1); else state.verdicts.push(verdict);
        apply();
        remember();
      });
    });
    areaSelect.addEventListener("change", function () {
      state.area = areaSelect.value;
      apply();
      remember();
    });
    var typing = null;
    textInput.addEventListener("input", function () {
      clearTimeout(typing);
      typing = setTimeout(function () {
        state.q = textInput.value.trim();
        apply();
        remember();
      }, 150);
    });
    document.getElementById("filters").addEventListener("submit", function (event) { event.preventDefault(); });
    document.getElementById("expand").addEventListener("click", function () {
      tests.forEach(function (test) { if (!test.hidden) { fill(test); test.open = true; } });
    });
    document.getElementById("collapse").addEventListener("click", function () {
      tests.forEach(function (test) { test.open = false; });
    });
    document.getElementById("clear").addEventListener("click", function () {
      state = { verdicts: [], area: "", q: "" };
      apply();
      remember();
    });
    window.addEventListener("hashchange", function () { fromLocation(true); });
    note.hidden = true;
    document.body.classList.add("js");
    fromLocation(false);
    list.removeAttribute("aria-busy");
    document.body.dataset.readyMs = String(Math.round(performance.now()));  // when the list was ready to use
  }

  if (typeof DecompressionStream === "undefined") {
    note.textContent = "This browser cannot unpack the list of tests (it needs DecompressionStream: Chrome 80, " +
      "Firefox 113, Safari 16.4 or later); results.json has every test.";
    return;
  }
  unpack().then(start, function (error) {
    note.textContent = "The list of tests could not be unpacked (" + error + "); results.json has every test.";
  });
})();
