"""scripts/toolkit: other CUDA toolkits for regression testing a compiler (README "Regression testing a compiler"),
one module per subcommand (cuconform/cli/__init__.py says what each module holds).

    install VERSION   lay out CUDA VERSION (13.5, or exact: 13.5.0) from the package index's wheels under
                      build/toolkits/<release>/; prints its root as the last line
    list              the toolkits laid out here: release, nvcc version, complete or not, size
    pack BUILD_DIR    a build's binaries in one .tar.xz to carry to a GPU machine
    targets [...]     compile-only validation per target (sm_80 ... sm_120)
"""

from __future__ import annotations

import sys

from cuconform import cli

PROGRAM = "scripts/toolkit"
DESCRIPTION = "scripts/toolkit: install other CUDA toolkits from the package index and validate the suite per target."
EPILOG = "exit codes: 0 done, 1 an incomplete toolkit or a target that failed, 2 bad input or a failed download"
SUBCOMMANDS = ("install", "list", "pack", "targets")


def main(argv: list[str] | None = None) -> int:
    return cli.main(sys.modules[__name__], argv)
