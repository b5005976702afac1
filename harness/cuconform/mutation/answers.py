"""suites/<folder>/survivors.toml: the answer to each mutant that survived a campaign, kept beside the rules of the
areas built from that folder (area_names.py: math-ftz's in suites/math).

    [[survivor]]
    operator = "atom-max-to-min"        # an operator of operators.py or runtime_operators.py
    area = "math-ftz"                   # an area built from this folder
    answer = "suite-code"               # one of KINDS
    why = "one line: what the mutated sites are and why no verdict can change, with the evidence"
    rule = "math/SinglePrecision.Sinf"  # the rule (or a list of rules) added or strengthened: needed for new-rule

An answer explains a survivor in the reports; it never changes the score: a `new-rule` answer's mutant counts as
killed only when a campaign kills it. A malformed file is one line, `<file>:<line>: what is wrong` (AnswerError),
before anything is built or run.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from cuconform.files import FileLineError
from cuconform.mutation.area_names import areas_of
from cuconform.mutation.equivalent import Equivalents
from cuconform.mutation.outcome import MutantStatus
from cuconform.mutation.toml_tables import check_keys, read_tables

FILE = "survivors.toml"
TABLE = "survivor"
KINDS = {
    "new-rule": "a rule added or strengthened fails under it (a kill once a campaign shows it)",
    "suite-code": "every mutated site is the suite's own code that reaches no verdict; the instruction is checked "
    "where it is the subject",
    "permitted": "the change stays within what the documentation allows for what the rules check",
    "not-observable": "the change is real, but this GPU cannot show it",
    "not-run": "the mutated code runs only where this GPU never goes",
}
# A survivor of an earlier campaign that equivalent.toml lists now (a later campaign does not run it) is answered by
# that entry: this kind, never written in a survivors.toml.
EQUIVALENT = "equivalent"
_KEYS = {"operator", "area", "answer", "why", "rule"}
SURVIVED = MutantStatus.SURVIVED.value


class AnswerError(FileLineError):
    """A malformed survivors.toml."""


@dataclass(frozen=True)
class Answer:
    operator: str
    area: str
    kind: str
    why: str
    rules: tuple[str, ...]
    file: str  # as the reports name it: suites/<folder>/survivors.toml
    line: int

    def entry(self) -> dict:
        """What results.json records of it, beside the mutant it answers or among the stale answers."""
        entry = {"answer": self.kind, "why": self.why, "file": self.file, "line": self.line}
        return {**entry, "rule": list(self.rules)} if self.rules else entry


@dataclass(frozen=True)
class Answers:
    files: tuple[str, ...]
    entries: tuple[Answer, ...]


NONE = Answers((), ())


def load(suites: Path, operators: Collection[str]) -> Answers:
    """Every `suites/<folder>/survivors.toml`, each entry checked: known keys, an operator of `operators`, an area
    built from its folder, a known answer, a non-empty why, a rule for new-rule, no (operator, area) twice."""
    files, entries = [], []
    for folder in sorted(path for path in suites.iterdir() if (path / FILE).is_file()):
        path = folder / FILE
        files.append(_shown(path, suites))
        entries += _entries(path, _shown(path, suites), operators, areas_of(folder))
    return Answers(tuple(files), tuple(entries))


def _entries(path: Path, shown: str, operators: Collection[str], areas: list[str]) -> list[Answer]:
    def fail(line: int, message: str) -> AnswerError:
        return AnswerError(path, line, message)

    entries: list[Answer] = []
    seen: dict[tuple[str, str], int] = {}
    for table, line in read_tables(path, TABLE, fail):
        check_keys(table, line, TABLE, _KEYS, fail)
        operator, area, kind, why = (table.get(key) for key in ("operator", "area", "answer", "why"))
        if not isinstance(operator, str) or operator not in operators:
            raise fail(
                line, f"'operator' must name an operator of operators.py or runtime_operators.py, not {operator!r}"
            )
        if not isinstance(area, str) or area not in areas:
            raise fail(
                line,
                f"'area' must name an area built from {path.parent.name}/ ({', '.join(areas) or 'none'}), not {area!r}",
            )
        if not isinstance(kind, str) or kind not in KINDS:
            where = " (an equivalent mutant belongs in harness/cuconform/mutation/equivalent.toml)"
            raise fail(
                line, f"'answer' must be one of {', '.join(KINDS)}, not {kind!r}{where if kind == 'equivalent' else ''}"
            )
        if not isinstance(why, str) or not why.strip():
            raise fail(line, "every entry needs a non-empty 'why': what the mutated sites are and the evidence")
        rules = _rules(table.get("rule"), line, fail)
        if kind == "new-rule" and not rules:
            raise fail(line, "a new-rule answer needs 'rule': the rule or rules added or strengthened to kill it")
        if (operator, area) in seen:
            raise fail(
                line, f"operator '{operator}' in area '{area}' is answered already, at line {seen[operator, area]}"
            )
        seen[operator, area] = line
        entries.append(Answer(operator, area, kind, " ".join(why.split()), rules, shown, line))
    return entries


def _rules(value: object, line: int, fail) -> tuple[str, ...]:
    """`rule`: a rule id or a list of them (none: no rule named)."""
    if value is None:
        return ()
    listed = [value] if isinstance(value, str) else value
    if not isinstance(listed, list) or not all(isinstance(rule, str) and rule.strip() for rule in listed):
        raise fail(line, f"'rule' must be a rule id or a list of rule ids, not {value!r}")
    return tuple(rule.strip() for rule in listed)


def _shown(path: Path, suites: Path) -> str:
    return f"{suites.name}/{path.relative_to(suites).as_posix()}"


@dataclass(frozen=True)
class Scope:
    """What a campaign measured: its areas, the operators it ran, the (operator, area) pairs its sample left out."""

    areas: frozenset[str]
    operators: frozenset[str]
    sampled_out: frozenset[tuple[str, str]] = frozenset()

    def holds(self, operator: str, area: str) -> bool:
        return area in self.areas and operator in self.operators


def attach(
    answers: Answers, mutants: list[dict], scope: Scope, equivalents: Equivalents | None = None
) -> tuple[list[dict], list[dict]]:
    """The mutants, each survivor with an entry given its `answer` (from survivors.toml, else from an equivalent.toml
    entry written after the campaign ran it); and the stale entries (each with `now`: what its mutant is in this
    campaign). An entry outside the campaign (its operator or area not chosen, its operator not run yet) is neither."""
    by_key = {(m.get("operator"), m.get("area")): m for m in mutants}
    answered = {(a.operator, a.area): a for a in answers.entries}

    def answer_of(mutant: dict) -> dict | None:
        key = (mutant.get("operator"), mutant.get("area"))
        if mutant.get("status") != SURVIVED:
            return None
        if key in answered:
            return answered[key].entry()
        why = equivalents.why(*key) if equivalents is not None else None
        return {"answer": EQUIVALENT, "why": why, "file": str(equivalents.path.name)} if why else None

    shown = [{**m, "answer": answer} if (answer := answer_of(m)) else m for m in mutants]
    stale = []
    for answer in answers.entries:
        if not scope.holds(answer.operator, answer.area):
            continue
        mutant = by_key.get((answer.operator, answer.area))
        if mutant is not None and mutant.get("status") == SURVIVED:
            continue
        stale.append(
            {"operator": answer.operator, "area": answer.area, **answer.entry(), "now": _now(answer, mutant, scope)}
        )
    return shown, stale


def _now(answer: Answer, mutant: dict | None, scope: Scope) -> str:
    """What the answered mutant is in this campaign, when it did not survive."""
    if mutant is None:
        if (answer.operator, answer.area) in scope.sampled_out:
            return "left out by the sample"
        return "no such mutant: the operator is not tried in this area"
    status = str(mutant.get("status"))
    if status == "killed" and mutant.get("killed_by"):
        return f"killed by {mutant['killed_by']}"
    return status
