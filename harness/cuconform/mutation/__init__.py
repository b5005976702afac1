"""Mutation testing of the suite: the PTX of each object is rewritten by one operator, the fatbin rebuilt and patched
into the linked binary, which then runs against the suite's expectations (README.md here says how and why)."""
