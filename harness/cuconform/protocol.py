"""What the harness and every test binary agree on (docs/architecture.md, "What a test binary prints"): the tags of
the stream a binary prints — GoogleTest's own, cuconform's ([ POISONED ], [ METRIC ]) and compute-sanitizer's as the
harness marks it ([ SANITIZER]) — and the environment variables the harness sets for it.

Defined here once, for the reader (gtest.py) and for every writer in Python (cuconform-compile,
suites/compile/cuconform_compile/rules.py); the C++ writers are suites/common/src/main.cpp, metric.cpp and multi.cpp.
Imports nothing.
"""

from __future__ import annotations

BANNER = "[==========] "
RUN = "[ RUN      ] "  # a test starts
OK = "[       OK ] "  # it passed: "<name> (<ms> ms)"
SKIPPED = "[  SKIPPED ] "  # it skipped; the reason is the text after the "<file>:<line>: Skipped" line
FAILED = "[  FAILED  ] "  # it failed; the message is the text after the "<file>:<line>: Failure" line
POISONED = "[ POISONED ] "  # right after an end line: the test broke the CUDA context (fail -> crash)
METRIC = "[ METRIC   ] "  # "<name> = <json>": a measurement kept with the test's result
SANITIZER = "[ SANITIZER] "  # compute-sanitizer's report, prefixed by the harness's wrapper
AREA = "[ AREA     ] "  # cuconform-multi: the tests that follow are this area's (modules.py)

PROFILE_ENV = "CUCONFORM_PROFILE"  # quick | full (kinds.Profile): how much of each sweep the tests cover
SANITIZER_ENV = "CUCONFORM_SANITIZER"  # the compute-sanitizer tool a GPU batch runs under (unset: none)
COMPILE_CACHE_ENV = "CUCONFORM_COMPILE_CACHE"  # "off": cuconform-compile neither reads nor trusts its cache
