"""cuconform: the harness that runs the suites, applies the expectations and writes the reports."""

import time

STARTED = time.monotonic()  # when the harness was imported: where a run's phases are counted from (session.py)


def since_start() -> float:
    return round(time.monotonic() - STARTED, 3)
