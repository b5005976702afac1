"""The command lines (cuconform/cli/): one module per subcommand, each with the same interface, listed once."""

import argparse
import importlib
import inspect

import pytest

from conftest import REPO
from cuconform import cli
from cuconform.cli import conformance, toolkit

SCRIPTS = (conformance, toolkit)
HELPERS = {"build_options"}  # modules of a script's folder that are not subcommands (shared by some)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda script: script.PROGRAM)
def test_every_subcommand_module_has_the_interface_and_is_listed(script):
    folder = REPO / "harness" / "cuconform" / "cli" / script.__name__.rsplit(".", 1)[1]
    modules = {path.stem for path in folder.glob("*.py")} - {"__init__"}
    assert modules - HELPERS == set(script.SUBCOMMANDS), "a module of the folder is not in SUBCOMMANDS, or back"
    for name, module in cli.subcommands(script).items():
        missing = [attribute for attribute in cli.INTERFACE if not hasattr(module, attribute)]
        assert not missing, f"{module.__name__} lacks {missing}"
        assert module.HELP is None or isinstance(module.HELP, str)
        assert isinstance(module.DESCRIPTION, str) and module.DESCRIPTION.strip()
        assert isinstance(module.EPILOG, str)
        assert list(inspect.signature(module.run).parameters) == ["args"]


def test_the_top_help_lists_every_subcommand_but_the_hidden_ones(capsys):
    with pytest.raises(SystemExit) as exited:
        conformance.main(["--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    assert "{run,list,build,diff,merge,report,mutate,triage}" in text and "\n    compare " not in text


def test_a_bad_subcommand_or_option_is_one_line_and_exit_2(capsys):
    for argv in (["bogus"], ["run", "--bogus"], []):
        with pytest.raises(SystemExit) as exited:
            conformance.main(argv)
        assert exited.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.endswith("(--help lists the options)\n"), err


def test_a_new_subcommand_is_one_module_and_one_name(tmp_path, monkeypatch, capsys):
    package = tmp_path / "fake_script"
    package.mkdir()
    (package / "__init__.py").write_text(
        'PROGRAM = "fake"\nDESCRIPTION = "A fake script."\nEPILOG = ""\nSUBCOMMANDS = ("hello",)\n'
    )
    (package / "hello.py").write_text(
        'HELP = "say hello"\nDESCRIPTION = "Says hello."\nEPILOG = "exit code 3"\n'
        'def add_arguments(parser):\n    parser.add_argument("name")\n'
        'def run(args):\n    print("hello", args.name)\n    return 3\n'
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert cli.main(importlib.import_module("fake_script"), ["hello", "world"]) == 3
    assert capsys.readouterr().out == "hello world\n"


def test_descriptions_keep_their_paragraphs():
    formatter = cli.Paragraphs("x", width=40)
    filled = formatter._fill_text("one two\nthree\n\n  four five", 40, "")
    assert filled == "one two three\n\nfour five"
    assert isinstance(cli.parser(conformance), argparse.ArgumentParser)
