"""cuconform: the harness that runs the suites, applies the expectations and writes the reports."""
