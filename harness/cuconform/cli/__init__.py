"""The command lines: one dispatcher for scripts/conformance and scripts/toolkit, one module per subcommand.

    cli/conformance/<name>.py   scripts/conformance <name> (cli/conformance/__init__.py lists them)
    cli/toolkit/<name>.py       scripts/toolkit <name>     (cli/toolkit/__init__.py lists them)

A script's package (cli/<script>/__init__.py) holds PROGRAM, DESCRIPTION, EPILOG and SUBCOMMANDS, the names of its
subcommand modules in the order its --help lists them. A subcommand module holds:

    HELP: str | None        its line in the script's --help (None: not listed, as an older name)
    DESCRIPTION: str        the text of its own --help (paragraphs are kept, each re-wrapped)
    EPILOG: str             what its exit codes mean, below its --help
    add_arguments(parser)   its options and arguments, on the parser the dispatcher made for it
    run(args) -> int        does the work and returns the exit code; bad input is one line on stderr and 2

Adding a subcommand is one module in the script's folder and its name in SUBCOMMANDS. A bad option or argument is
one line on stderr and exit 2, as every other bad input (Parser).
"""

from __future__ import annotations

import argparse
import importlib
import re
import textwrap
from types import ModuleType

EXIT_BAD_INPUT = 2
INTERFACE = ("HELP", "DESCRIPTION", "EPILOG", "add_arguments", "run")


class Parser(argparse.ArgumentParser):
    """Bad options are one line on stderr and exit 2, as every other bad input is."""

    def error(self, message: str):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (--help lists the options)\n")


class Paragraphs(argparse.HelpFormatter):
    """Re-wraps a description to the terminal, paragraph by paragraph (a blank line separates two)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = re.split(r"\n\s*\n", textwrap.dedent(text).strip())
        return "\n\n".join(
            textwrap.fill(" ".join(paragraph.split()), width, initial_indent=indent, subsequent_indent=indent)
            for paragraph in paragraphs
        )


def subcommands(script: ModuleType) -> dict[str, ModuleType]:
    """A script package's subcommand modules by name, in its SUBCOMMANDS order."""
    return {name: importlib.import_module(f"{script.__name__}.{name}") for name in script.SUBCOMMANDS}


def parser(script: ModuleType) -> Parser:
    top = Parser(prog=script.PROGRAM, description=script.DESCRIPTION, epilog=script.EPILOG, formatter_class=Paragraphs)
    modules = subcommands(script)
    listed = [name for name, module in modules.items() if module.HELP is not None]
    commands = top.add_subparsers(dest="command", required=True, metavar="{" + ",".join(listed) + "}")
    for name, module in modules.items():
        listing = {"help": module.HELP} if module.HELP is not None else {}
        sub = commands.add_parser(
            name, description=module.DESCRIPTION, epilog=module.EPILOG or None, formatter_class=Paragraphs, **listing
        )
        module.add_arguments(sub)
        sub.set_defaults(subcommand=module)
    return top


def main(script: ModuleType, argv: list[str] | None = None) -> int:
    """Parses the command line of `script` (a package of cli/) and runs the subcommand it names."""
    args = parser(script).parse_args(argv)
    return args.subcommand.run(args)
