// report.html's only script: filters the test list by verdict, area and text. The filter lives in the URL
// fragment (#verdict=fail,crash&area=atomics&q=inc) or query (?verdict=fail), so a filtered view can be linked;
// #t-12 opens and shows one test. It reads the page, never writes HTML: all text was escaped when it was written.
(function () {
  "use strict";
  var tests = Array.prototype.slice.call(document.querySelectorAll("details.test"));
  var buttons = Array.prototype.slice.call(document.querySelectorAll("button.vbtn"));
  var areaSelect = document.getElementById("area-filter");
  var textInput = document.getElementById("text-filter");
  var shown = document.getElementById("shown");
  var searchable = tests.map(function (test) {
    var statement = test.querySelector(".statement");
    return (test.querySelector("summary").textContent + " " + (statement ? statement.textContent : "")).toLowerCase();
  });
  var state = { verdicts: [], area: "", q: "" };

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
        (!state.area || test.dataset.area === state.area) && (!q || searchable[index].indexOf(q) >= 0);
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
    tests.forEach(function (test) { if (!test.hidden) test.open = true; });
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
  document.getElementById("js-note").hidden = true;
  document.body.classList.add("js");
  fromLocation(false);
})();
