"""scripts/conformance list: the rules of a build, one line each (or one per test, as JSON, or per section of the
guide); needs no GPU."""

from __future__ import annotations

import argparse
import json
import sys

from cuconform import options
from cuconform.catalog import list_binary
from cuconform.cli.conformance import build_options
from cuconform.cli.conformance.build_options import BAD_INPUT, EXIT_BAD_INPUT, EXIT_OK
from cuconform.options import Settings
from cuconform.shard import SelectionError, nothing_matched
from cuconform.stage_select import by_rules, filters_text

HELP = "one line per rule: id, section, test(s)"
DESCRIPTION = (
    "Lists the rules of a build, one line each: rule id, guide section, its test (or its tests' common "
    "pattern and count). Needs no GPU."
)
EPILOG = "exit codes: 0 listed, 2 bad input (a bad option, a failed build, no rule selected)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    build_options.add_arguments(parser)
    parser.add_argument("-k", dest="keyword", metavar="TEXT", help="only tests whose id contains TEXT")
    shape = parser.add_mutually_exclusive_group()
    shape.add_argument("--tests", action="store_true", help="one line per test instead of per rule")
    shape.add_argument("--json", action="store_true", help="one JSON object per test")
    shape.add_argument(
        "--by-section",
        action="store_true",
        help="the sections' table of contents (spec/sections/) with the number of rules under each",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="add each rule's statement")


def run(args: argparse.Namespace) -> int:
    try:
        settings = options.settings(options.from_arguments(args))
        build_options.split_areas(args)
        preset, build_dir = build_options.where(args, settings)
        build_options.ensure_built(args, preset, build_dir, always=False)
        return _list(args, settings, build_options.binaries(args, build_dir))
    except BAD_INPUT as error:
        print(error, file=sys.stderr)
        return EXIT_BAD_INPUT


def _list(args: argparse.Namespace, settings: Settings, binaries: list) -> int:
    listed = [case for binary in binaries for case in list_binary(binary)]
    cases = by_rules(listed, settings.rules, settings.exclude_rules)
    if args.keyword:
        cases = [c for c in cases if args.keyword in c.test_id]
    if listed and not cases:
        filters = filters_text(settings.rules, settings.exclude_rules)
        filters += [f"-k {args.keyword}"] if args.keyword else []
        raise SelectionError(nothing_matched(filters, len(listed)))
    if args.json:
        for case in cases:
            print(
                json.dumps(
                    {
                        "id": case.test_id,
                        "rule": case.rule_id,
                        "section": case.section,
                        "statement": case.statement,
                        "gpu": case.gpu,
                        "exclusive": case.exclusive,
                        "param": case.param,
                        "source": f"{case.file}:{case.line}",
                    }
                )
            )
        return EXIT_OK
    if args.by_section:
        from cuconform.sections import by_section

        print("\n".join(by_section(cases)))
        return EXIT_OK
    if args.tests:
        rows = [(case.test_id, case.section, case.rule_id, case.statement) for case in cases]
    else:
        by_rule: dict[str, list] = {}
        for case in cases:
            by_rule.setdefault(case.rule_id, []).append(case)
        rows = [(rule, tests[0].section, _tests_of(tests), tests[0].statement) for rule, tests in by_rule.items()]
    width = [max((len(row[i]) for row in rows), default=0) for i in range(2)]
    for row in rows:
        line = f"{row[0]:{width[0]}}  {row[1]:{width[1]}}  {row[2]}"
        print(f"{line}  {row[3]}" if args.verbose else line)
    return EXIT_OK


def _tests_of(cases: list) -> str:
    """A rule's test, or its tests as one pattern with their count: 'BlockSizes/Sync.Count/* (42 tests)'."""
    if len(cases) == 1:
        return cases[0].name
    names = [case.name for case in cases]
    prefix = names[0]
    for name in names[1:]:
        while not name.startswith(prefix):
            prefix = prefix[:-1]
    return f"{prefix}* ({len(names)} tests)"
