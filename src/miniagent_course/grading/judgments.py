"""The kinds of a day's second part, the one that needs judgment: a registry, each kind written once.

A kit names its kind in ``kit.toml`` (``[judgment] kind = "predict"``). Its grader file declares
only what is the day's own and binds the tests the kind writes from it, under the names the
learner's progress output shows::

    test_predictions_are_a_table_of_the_scripts, test_prediction = judgment_graders(
        __file__,
        cases=PREDICTED,  # the rows of the table
        outcome=what_the_agent_does,  # case -> what a real run gives
        row="script {case!r}",  # how a row is named in a message
        gave="the default agent gave {actual!r}",  # the real outcome, in the day's words
        shape=_one_string,  # asserts the form of one prediction
    )

:func:`judgment_graders` reads the kit's kind and dispatches through :data:`KINDS`; an unknown
kind fails with one sentence naming the known ones. The kinds:

* ``predict`` (:func:`predict`): the learner's ``predictions()`` table, graded against what real
  runs give. One test checks the table (a dict with one entry per case, each of the day's form);
  one test per case compares the learner's prediction with the real outcome. The table is
  *sealed*: it is graded only once it is answered (a partial one gets "k of n filled" and no row
  is graded), and the learner's first answered table is recorded (:mod:`.sealed`) before any
  outcome is shown: in that run a wrong row says only that it is wrong; from the next run on, a
  failure names the row, the prediction and the outcome in one line (the wording is in
  ``text/cli.en.toml``). :func:`your_table` is the same grading for a notebook's table cell.
* ``read`` (:func:`predict` again): a sealed table about the upstream function the kit names
  (``[judgment] read = "module:qualname"``), which no page explains: the learner reads it alone,
  in the installed package.
* ``spot`` (:func:`spot`): the learner's function returns, for each changed copy of the function
  the page shows, an input on which it behaves differently from upstream; graded by running both.
* ``repair`` (:func:`repair`): a real failure reproduced as a misbehaving application; the learner
  fixes it in application code (a limit, a tool, a middleware, the way it is run), graded on the
  day's scenarios, and a fix that changes the library's functions fails.
* ``grader`` (:func:`miniagent_course.grading.judge.graders`): the learner writes ``test_*``
  functions; they must pass on the reference and catch the day's known mistakes.
* ``extend``: a variant or policy with its own contract; its day writes its own graders.

A kind is *sealed* (:attr:`Kind.sealed`: ``predict``, ``read``) when its table is answered first.

The tests are raised as plain ``AssertionError`` with a finished sentence, so the learner's report
(:mod:`.explain`) shows that sentence as the problem.
"""

from __future__ import annotations

import copy
import functools
import importlib
import os
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from miniagent_course.grading import judge
from miniagent_course.grading.course import (
    COURSE_FILE,
    NOTEBOOK_IMPL_ENV,
    Course,
    Exercise,
    Judgment,
    load_course,
    shared_course,
)
from miniagent_course.grading.sealed import FirstTry, first_try, record_first_try, this_run
from miniagent_course.text import say

Test = Callable[..., Any]
Builder = Callable[..., tuple[Test, ...]]  # (the kit's judgment, **the day's declaration) -> tests


@dataclass(frozen=True)
class Kind:
    """One kind of judgment part: its name in kit.toml and how its graders are written."""

    name: str
    what: str  # one line: what this kind grades
    graders: Builder
    sealed: bool = False  # a table answered first: graded only once whole, first try recorded


KINDS: dict[str, Kind] = {}


def register(name: str, what: str, *, sealed: bool = False) -> Callable[[Builder], Builder]:
    """Add a kind to :data:`KINDS` (a decorator of the function that writes its graders)."""

    def add(graders: Builder) -> Builder:
        KINDS[name] = Kind(name, what, graders, sealed)
        return graders

    return add


class UnknownKind(ValueError):
    """A kit.toml names a judgment kind the registry does not hold."""


def kind(name: str, day: str = "") -> Kind:
    """The registered kind ``name``; an unknown one fails with one sentence naming the known."""
    try:
        return KINDS[name]
    except KeyError:
        known = ", ".join(KINDS)
        raise UnknownKind(
            say("judgment.unknown_kind", day=day or "a day", kind=name, known=known)
        ) from None


def judgment_graders(
    grader_file: str | os.PathLike[str], /, **declaration: Any
) -> tuple[Test, ...]:
    """The tests of the day's judgment part: its kit.toml's kind, written from ``declaration``.

    ``grader_file`` is the grader's ``__file__``: its kit (two folders up) names the kind.
    """
    exercise = _exercise_of(Path(grader_file))
    judgment = exercise.judgment
    if judgment is None:
        raise UnknownKind(say("judgment.none", day=exercise.id, known=", ".join(KINDS)))
    for told in ("gave", "raised"):  # a real outcome told in the learner's language ([zh.judgment])
        if getattr(judgment, told, "") and told in declaration:
            declaration[told] = getattr(judgment, told)
    return kind(judgment.kind, exercise.id).graders(judgment, **declaration)


def _exercise_of(grader: Path) -> Exercise:
    """The exercise whose kit holds ``grader``, from the course that holds the kit."""
    grader = grader.resolve()
    root = next((p for p in grader.parents if (p / COURSE_FILE).is_file()), None)
    exercise = _course(root).exercise_for_grader(grader) if root is not None else None
    if exercise is None:
        raise FileNotFoundError(say("plugin.not_a_grader", path=grader))
    return exercise


@functools.cache
def _course(root: Path) -> Course:
    return shared_course(root)  # the grading plugin's copy, in a grading run


# --- predict: a table of predictions against real runs ---------------------------------------


@dataclass(frozen=True)
class Predictions:
    """What a predict day declares: its cases and how it reads and tells its table's rows.

    ``row`` and ``gave`` are a template (``str.format`` with ``case`` / ``actual``) or a
    function of the case / the actual outcome. With ``raised`` (a template too), a run may raise:
    its outcome is then the exception's class name (a str), told with ``raised``, and a str
    prediction must be a class name. ``shape(value)`` asserts the form of any other prediction:
    the first line of its ``AssertionError`` is what the learner reads, after the row's name.
    ``normalise(value)`` is the prediction as compared (say, lists written as tuples); if it
    cannot read the value, the value is compared as written.
    """

    cases: Sequence[Hashable]
    outcome: Callable[[Any], Any]
    gave: str | Callable[[Any], str]
    row: str | Callable[[Any], str] = "{case}"
    raised: str | None = None
    shape: Callable[[Any], object] | None = None
    normalise: Callable[[Any], Any] | None = None
    _outcomes: dict[Any, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def row_name(self, case: Any) -> str:
        return self.row.format(case=case) if isinstance(self.row, str) else self.row(case)

    def actual(self, case: Any) -> Any:
        """The real outcome of ``case``, computed once per process (the table test and the row
        tests of a run ask for it)."""
        if case not in self._outcomes:
            self._outcomes[case] = self.outcome(case)
        return self._outcomes[case]

    def told(self, actual: Any) -> str:
        if self.raised is not None and isinstance(actual, str):
            return self.raised.format(actual=actual)
        return self.gave.format(actual=actual) if isinstance(self.gave, str) else self.gave(actual)

    def problem(self, value: Any) -> str | None:
        """What is wrong with the form of one prediction (None: nothing)."""
        if self.raised is not None and isinstance(value, str):
            return None if value.isidentifier() else say("judgment.not_a_class", value=value)
        if self.shape is None:
            return None
        try:
            self.shape(value)
        except AssertionError as error:  # the day's own sentence: its first line
            lines = str(error).strip().splitlines()
            return lines[0] if lines else type(error).__name__
        return None

    def as_compared(self, value: Any) -> Any:
        if self.normalise is None:
            return value
        try:
            return self.normalise(value)
        except Exception:  # a value of another form: compared as written, and shown so
            return value

    def right(self, table: dict[Any, Any], case: Any) -> bool:
        """The learner's prediction for ``case`` is what the real run gives."""
        if case not in table:
            return False
        try:
            return bool(self.as_compared(table[case]) == self.actual(case))
        except Exception:  # a value that cannot even be compared is not the outcome
            return False


def message_pairs(value: Any) -> None:
    """The form of a prediction that is a list of messages: ``(type, content)`` pairs."""
    assert isinstance(value, (list, tuple)), "a list of (type, content) or a str"
    for pair in value:
        assert isinstance(pair, (list, tuple)) and len(pair) == 2, (
            f"each message is a (type, content) pair, got {pair!r}"
        )


def as_message_pairs(value: Any) -> Any:
    """A list of messages as compared: ``(type, content)`` tuples, even if written as lists."""
    if isinstance(value, (list, tuple)):
        return [tuple(pair) if isinstance(pair, (list, tuple)) else pair for pair in value]
    return value


@register(
    "predict", "a table of predictions, graded row by row against what real runs give", sealed=True
)
def predict(judgment: Judgment, **declaration: Any) -> tuple[Test, Test]:
    """``(the table test, the row test)``: bind them under the names the day's learners see.

    The row test is parametrized over the cases (``test_prediction[<case>]``). Both read the
    table's :func:`seal` first: a table that is not answered yet fails the table test ("k of n
    filled") and skips every row; the learner's first answered table is recorded before a row
    is graded.
    """
    day = Predictions(**declaration)
    function = judgment.function or "predictions"
    cases = list(day.cases)

    def test_predictions_are_a_table_of_every_case(impl: Any) -> None:
        table = _table(impl, function)
        seal(day, table, impl)  # an answered table of the learner's is recorded here
        check_table(day, table, function)

    @pytest.mark.parametrize("case", cases)
    def test_prediction(impl: Any, case: Any) -> None:
        table = _table(impl, function)
        sealed = seal(day, table, impl)
        if not sealed.answered:
            pytest.skip(
                say(
                    "judgment.not_graded",
                    function=function,
                    filled=sealed.filled,
                    total=sealed.total,
                )
            )
        check_row(day, table, function, case, sealed)

    for test in (test_predictions_are_a_table_of_every_case, test_prediction):
        test.declaration = day  # type: ignore[attr-defined]  # the day's table, for its proofs
    return test_predictions_are_a_table_of_every_case, test_prediction


def _table(impl: Any, function: str) -> dict[Any, Any]:
    """What the learner's ``predictions()`` returns, if it is a dict."""
    table = getattr(impl, function)()
    if not isinstance(table, dict):
        raise AssertionError(
            say("judgment.not_a_table", function=function, got=type(table).__name__)
        )
    return table


@dataclass(frozen=True)
class Seal:
    """Where a table stands: how full it is, and whether a wrong row may show the real outcome."""

    filled: int  # cases that hold a value of the day's form
    total: int
    answered: bool  # every case filled, and no entry that is not a case
    reveal: bool  # a wrong row may show the real outcome
    first: FirstTry | None = None  # the learner's recorded first try


def seal(day: Predictions, table: dict[Any, Any], impl: Any) -> Seal:
    """The table's :class:`Seal`; the learner's first answered table is recorded here.

    Only the learner's own file is sealed (``impl.kind == "learner"``): the reference, mutants
    and alternative solutions are graded in the open. For the learner, a wrong row shows its
    real outcome only once a first try is recorded, by an earlier run than this one
    (:func:`~miniagent_course.grading.sealed.this_run`): the run that records says only which
    rows are wrong.
    """
    cases = list(day.cases)
    filled = _filled(day, table)
    answered = filled == len(cases) and all(key in cases for key in table)
    course, exercise = getattr(impl, "course", None), getattr(impl, "exercise", None)
    if getattr(impl, "kind", None) != "learner" or course is None or exercise is None:
        return Seal(filled, len(cases), answered, reveal=True)
    first = first_try(course.root, exercise.id)
    if first is None and answered:
        wrong = [case for case in cases if not day.right(table, case)]
        attempt = FirstTry(
            exercise.id, len(cases) - len(wrong), len(cases), tuple(map(str, wrong)), this_run()
        )
        first = record_first_try(course.root, attempt)
    reveal = first is not None and first.run != this_run()
    return Seal(filled, len(cases), answered, reveal, first)


def form_problems(
    table: dict[Any, Any],
    keys: Sequence[Any],
    row_name: Callable[[Any], str],
    problem: Callable[[Any, Any], str | None],
) -> str:
    """What keeps ``table`` from being whole, in one line ("" when nothing): keys missing, keys
    that are not asked for, and the first entry not of its form (``problem(key, value)``)."""
    problems = []
    missing = [key for key in keys if key not in table]
    unknown = [key for key in table if key not in keys]
    if missing:
        problems.append(say("judgment.missing", keys=missing))
    if unknown:
        problems.append(say("judgment.unknown", keys=unknown, cases=list(keys)))
    shapes = (
        say("judgment.shape", row=row_name(key), problem=found)
        for key in keys
        if key in table and (found := problem(key, table[key])) is not None
    )
    first_shape = next(shapes, None)  # one is enough to say what the form is
    return "; ".join([*problems, first_shape] if first_shape else problems)


def check_table(day: Predictions, table: dict[Any, Any], function: str) -> None:
    """One entry per case, each of the day's form; a table that is not answered says how full
    it is ("k of n filled") and that it is not graded yet."""
    cases = list(day.cases)
    problems = form_problems(table, cases, day.row_name, lambda case, value: day.problem(value))
    if problems:
        raise AssertionError(
            say(
                "judgment.partial",
                function=function,
                filled=_filled(day, table),
                total=len(cases),
                problems=problems,
            )
        )


def _filled(day: Predictions, table: dict[Any, Any]) -> int:
    """How many cases hold a prediction of the day's form."""
    return sum(1 for case in day.cases if case in table and day.problem(table[case]) is None)


def check_row(
    day: Predictions,
    table: dict[Any, Any],
    function: str,
    case: Any,
    sealed: Seal | None = None,
) -> None:
    """The learner's prediction for ``case`` is what the real run gives; while the table's first
    try is being recorded (``sealed.reveal`` is False), a wrong row does not say what that is."""
    if case not in table:
        raise AssertionError(say("judgment.no_row", row=day.row_name(case), function=function))
    if day.right(table, case):
        return
    if sealed is not None and not sealed.reveal:
        first = sealed.first
        raise AssertionError(
            say(
                "judgment.wrong_sealed",
                row=day.row_name(case),
                right=first.right if first else "?",
                total=first.total if first else len(list(day.cases)),
            )
        )
    written = table[case]
    # as compared when it has the day's form (so both sides read alike), else as written
    shown = day.as_compared(written) if day.problem(written) is None else written
    raise AssertionError(
        say(
            "judgment.wrong",
            row=day.row_name(case),
            predicted=repr(shown),
            gave=day.told(day.actual(case)),
        )
    )


# --- a notebook's table cell: the same grading, in a grading run of its own --------------------

_OPENED: set[str] = set()  # the days whose real outcomes this kernel's table cell has shown
OPEN_TABLES_ENV = "MINIAGENT_NOTEBOOK_TABLES"  # "open": the package's own notebook test


def your_table(day: str, root: str | os.PathLike[str] | None = None) -> None:
    """A notebook's table cell: grade the learner's ``predictions()`` of ``day`` and print it.

    It runs the day's prediction graders as ``pytest`` does (a grading run in a process of its
    own, :func:`~miniagent_course.grading.run.run_graders`), so it seals alike: a table that is
    not answered says how full it is; the first answered table is recorded and this run says
    only how many rows are right and which are wrong; from the next run on, every wrong row
    shows what the real run gives, and :func:`after_your_table` opens the notebook's later
    sections. With ``MINIAGENT_NOTEBOOK_IMPL=reference`` (the site, the package's tests) there
    is no learner's table: nothing is graded or shown (``MINIAGENT_NOTEBOOK_TABLES=open``, the
    package's notebook test, opens the later sections so that every cell runs).
    """
    from miniagent_course.grading.report import short_name
    from miniagent_course.grading.run import run_graders

    if os.environ.get(NOTEBOOK_IMPL_ENV) == "reference":
        if os.environ.get(OPEN_TABLES_ENV) == "open":
            _OPENED.add(day)
        print(say("table_cell.reference", day=day))
        return
    course = load_course(root)
    exercise = course.exercise(day)
    before = first_try(course.root, exercise.id)
    run = run_graders(course, [exercise], "learner", "-k", "test_prediction")
    tests = [(short_name(t["nodeid"]), t) for t in run.day_tests(exercise)]
    table = [t for name, t in tests if name.startswith("test_predictions")]
    rows = [(name, t) for name, t in tests if name.startswith("test_prediction[")]
    if not table:
        print(say("table_cell.broken", day=day, file=exercise.file))
        print(run.output.strip()[-2000:])
        return
    status, message = table[0]["status"], table[0]["message"]
    if status == "not_started":
        print(say("table_cell.not_started", day=day, file=exercise.file))
        return
    if status != "passed":
        print(message)
        return
    first = first_try(course.root, exercise.id)
    if before is None or first is None:  # recorded by this very run: nothing is shown yet
        wrong = ", ".join(first.wrong) if first and first.wrong else say("table_cell.none")
        right, total = (first.right, first.total) if first else ("?", len(rows))
        print(say("table_cell.recorded", right=right, total=total, wrong=wrong))
        return
    for name, test in rows:
        case = name.removeprefix("test_prediction[").removesuffix("]")
        line = say("table_cell.row_right", case=case)
        if test["status"] != "passed":
            line = say("table_cell.row_wrong", message=test["message"])
        print(line)
    right = sum(test["status"] == "passed" for _, test in rows)
    print(say("table_cell.score", right=right, total=len(rows), first=first.score))
    _OPENED.add(day)


def after_your_table(day: str) -> bool:
    """True once this kernel's table cell of ``day`` has shown the real outcomes; else one line
    saying so (a notebook's later sections run cases of the table, so they wait for it)."""
    if day in _OPENED:
        return True
    print(say("table_cell.sealed", day=day))
    return False


# --- read: a sealed table about an upstream function no page explains --------------------------

register(
    "read",
    "a sealed table about a named upstream function that the learner reads alone, in the "
    "installed package",
    sealed=True,
)(predict)  # graded as a predict table; the kit names the function read (``[judgment] read``)


# --- spot: an input on which each changed copy differs from upstream ---------------------------


@dataclass(frozen=True)
class Spots:
    """What a spot-the-bug day declares: the changed copies and how one input is run.

    ``variants`` maps a name to a changed copy of the function the page shows (the learner reads
    them on the learner side of the kit); ``upstream`` is that function. ``run(function, given)``
    runs one function on the learner's input and returns what is compared (a value both sides
    read alike, e.g. messages as ``(type, content)`` pairs); an exception it lets through is the
    outcome ``("raised", class name, str(error))``. Each side gets its own deep copy of the input
    (one that cannot be copied, such as a ``MappingProxyType``, is given as it is).
    ``shape(given)`` asserts the form of one input (first line of its ``AssertionError`` shown).
    When the variants copy several functions, ``upstream`` and ``shape`` may each map a variant's
    name to its own: the function it copies, the form of that function's input.
    """

    variants: Mapping[str, Callable[..., Any]]
    upstream: Callable[..., Any] | Mapping[str, Callable[..., Any]]
    run: Callable[[Callable[..., Any], Any], Any]
    row: str = "variant {case!r}"
    shape: Callable[[Any], object] | Mapping[str, Callable[[Any], object]] | None = None

    def row_name(self, case: str) -> str:
        return self.row.format(case=case)

    def twin(self, case: str) -> Callable[..., Any]:
        """The upstream function the variant ``case`` is a changed copy of."""
        return self.upstream[case] if isinstance(self.upstream, Mapping) else self.upstream

    def outcome(self, function: Callable[..., Any], given: Any) -> Any:
        try:
            given = copy.deepcopy(given)
        except Exception:  # an input that cannot be copied: each side gets it as it is
            pass
        try:
            return self.run(function, given)
        except Exception as error:  # a raise is an outcome like any other
            return ("raised", type(error).__name__, str(error))

    def problem(self, given: Any, case: str | None = None) -> str | None:
        shape = self.shape.get(case) if isinstance(self.shape, Mapping) else self.shape
        if shape is None:
            return None
        try:
            shape(given)
        except AssertionError as error:
            lines = str(error).strip().splitlines()
            return lines[0] if lines else type(error).__name__
        return None


@register("spot", "for each changed copy of a function, an input on which it differs from upstream")
def spot(judgment: Judgment, **declaration: Any) -> tuple[Test, Test]:
    """``(the table test, the variant test)``: the learner's function (``[judgment] function``)
    returns ``{variant name: an input}``; each variant's row runs upstream and the variant on its
    input and passes when they behave differently. Nothing is sealed: running both is the work.
    """
    day = Spots(**declaration)
    function = judgment.function or "inputs"
    names = list(day.variants)

    def test_an_input_for_every_variant(impl: Any) -> None:
        table = _table(impl, function)
        problems = form_problems(table, names, day.row_name, lambda n, v: day.problem(v, n))
        if problems:
            filled = sum(1 for n in names if n in table and day.problem(table[n], n) is None)
            raise AssertionError(
                say(
                    "judgment.partial_inputs",
                    function=function,
                    filled=filled,
                    total=len(names),
                    problems=problems,
                )
            )

    @pytest.mark.parametrize("variant", names)
    def test_spot(impl: Any, variant: str) -> None:
        table = _table(impl, function)
        if variant not in table:
            raise AssertionError(
                say("judgment.no_row", row=day.row_name(variant), function=function)
            )
        given = table[variant]
        problem = day.problem(given, variant)
        if problem is not None:
            raise AssertionError(say("judgment.shape", row=day.row_name(variant), problem=problem))
        theirs = day.outcome(day.variants[variant], given)
        ours = day.outcome(day.twin(variant), given)
        if _same(theirs, ours):
            raise AssertionError(
                say(
                    "judgment.spot_same",
                    row=day.row_name(variant),
                    given=_short(given),
                    outcome=_short(ours),
                )
            )

    for test in (test_an_input_for_every_variant, test_spot):
        test.declaration = day  # type: ignore[attr-defined]
    return test_an_input_for_every_variant, test_spot


def _same(one: Any, other: Any) -> bool:
    try:
        return bool(one == other)
    except Exception:  # outcomes that cannot be compared are not the same
        return False


def _short(value: Any, limit: int = 160) -> str:
    text = repr(value).replace("\n", " ")  # one line (a sequence's repr breaks before each |)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- repair: a misbehaving agent fixed in application code --------------------------------------


@dataclass(frozen=True)
class Repairs:
    """What a repair day declares: the scenarios its fixed application must pass, and what it
    must leave alone.

    ``scenarios`` maps a name to ``check(impl)``, which builds and runs the learner's fixed
    application and raises ``AssertionError`` with a finished sentence when it still misbehaves.
    ``untouched`` names the modules whose functions a repair may not change (the upstream-shaped
    code: a fix lives in application code, never in the library): every function and class
    there, and the code of every function, must be the same object after a scenario as before.
    """

    scenarios: Mapping[str, Callable[[Any], None]]
    untouched: Sequence[str] = ()

    def snapshot(self) -> dict[tuple[str, str], Any]:
        seen: dict[tuple[str, str], Any] = {}
        for name in self.untouched:
            module = importlib.import_module(name)
            for attr, value in vars(module).items():
                if callable(value):
                    seen[(name, attr)] = (value, getattr(value, "__code__", None))
        return seen


@register("repair", "a real failure reproduced as a misbehaving agent, fixed in application code")
def repair(judgment: Judgment, **declaration: Any) -> tuple[Test]:
    """``(the scenario test,)``, parametrized over the day's scenarios; each fails when the
    learner's application still misbehaves or when it changed the library to get there."""
    day = Repairs(**declaration)

    @pytest.mark.parametrize("scenario", list(day.scenarios))
    def test_repaired(impl: Any, scenario: str) -> None:
        before = day.snapshot()
        try:
            day.scenarios[scenario](impl)
        finally:
            changed = [
                f"{module}.{attr}"
                for (module, attr), (value, code) in before.items()
                if getattr(importlib.import_module(module), attr, None) is not value
                or getattr(value, "__code__", None) is not code
            ]
            for (module, attr), (value, code) in before.items():  # put the library back
                setattr(importlib.import_module(module), attr, value)
                if code is not None and value.__code__ is not code:
                    value.__code__ = code
            if changed:
                raise AssertionError(say("judgment.repair_edits_library", names=", ".join(changed)))

    test_repaired.declaration = day  # type: ignore[attr-defined]
    return (test_repaired,)


# --- grader: the learner's own tests (judge.py) ----------------------------------------------

register("grader", "the learner's test_* functions pass on the reference and catch its mistakes")(
    judge.graders
)


# --- extend: a variant with its own contract ---------------------------------------------------


@register("extend", "a variant or policy with its own contract, graded by its day's own tests")
def extend(judgment: Judgment, **declaration: Any) -> tuple[Test, ...]:
    """No tests are shared: each extend day writes its own graders."""
    raise TypeError(say("judgment.extend_shares_nothing"))
