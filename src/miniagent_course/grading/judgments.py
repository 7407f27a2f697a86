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
  one test per case compares the learner's prediction with the real outcome. A failure names the
  row, the prediction and the outcome in one line (the wording is in ``text/cli.en.toml``).
* ``grader`` (:func:`miniagent_course.grading.judge.graders`): the learner writes ``test_*``
  functions; they must pass on the reference and catch the day's known mistakes.
* ``extend``: a variant or policy with its own contract; its day writes its own graders.

The tests are raised as plain ``AssertionError`` with a finished sentence, so the learner's report
(:mod:`.explain`) shows that sentence as the problem.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from miniagent_course.grading import judge
from miniagent_course.grading.course import COURSE_FILE, Course, Exercise, Judgment, load_course
from miniagent_course.text import say

Test = Callable[..., Any]
Builder = Callable[..., tuple[Test, ...]]  # (the kit's judgment, **the day's declaration) -> tests


@dataclass(frozen=True)
class Kind:
    """One kind of judgment part: its name in kit.toml and how its graders are written."""

    name: str
    what: str  # one line: what this kind grades
    graders: Builder


KINDS: dict[str, Kind] = {}


def register(name: str, what: str) -> Callable[[Builder], Builder]:
    """Add a kind to :data:`KINDS` (a decorator of the function that writes its graders)."""

    def add(graders: Builder) -> Builder:
        KINDS[name] = Kind(name, what, graders)
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
    return load_course(root)


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

    def row_name(self, case: Any) -> str:
        return self.row.format(case=case) if isinstance(self.row, str) else self.row(case)

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


@register("predict", "a table of predictions, graded row by row against what real runs give")
def predict(judgment: Judgment, **declaration: Any) -> tuple[Test, Test]:
    """``(the table test, the row test)``: bind them under the names the day's learners see.

    The row test is parametrized over the cases (``test_prediction[<case>]``).
    """
    day = Predictions(**declaration)
    function = judgment.function or "predictions"
    cases = list(day.cases)

    def test_predictions_are_a_table_of_every_case(impl: Any) -> None:
        check_table(day, _table(impl, function), function)

    @pytest.mark.parametrize("case", cases)
    def test_prediction(impl: Any, case: Any) -> None:
        check_row(day, _table(impl, function), function, case)

    return test_predictions_are_a_table_of_every_case, test_prediction


def _table(impl: Any, function: str) -> dict[Any, Any]:
    """What the learner's ``predictions()`` returns, if it is a dict."""
    table = getattr(impl, function)()
    if not isinstance(table, dict):
        raise AssertionError(
            say("judgment.not_a_table", function=function, got=type(table).__name__)
        )
    return table


def check_table(day: Predictions, table: dict[Any, Any], function: str) -> None:
    """One entry per case, each of the day's form."""
    cases = list(day.cases)
    missing = [case for case in cases if case not in table]
    unknown = [key for key in table if key not in cases]
    if missing or unknown:
        problems = []
        if missing:
            problems.append(say("judgment.missing", keys=missing))
        if unknown:
            problems.append(say("judgment.unknown", keys=unknown, cases=cases))
        raise AssertionError(
            say("judgment.entries", function=function, problems="; ".join(problems))
        )
    for case in cases:
        problem = day.problem(table[case])
        if problem is not None:
            raise AssertionError(say("judgment.shape", row=day.row_name(case), problem=problem))


def check_row(day: Predictions, table: dict[Any, Any], function: str, case: Any) -> None:
    """The learner's prediction for ``case`` is what the real run gives."""
    if case not in table:
        raise AssertionError(say("judgment.no_row", row=day.row_name(case), function=function))
    written = table[case]
    predicted = day.as_compared(written)
    actual = day.outcome(case)
    if not predicted == actual:
        # as compared when it has the day's form (so both sides read alike), else as written
        shown = predicted if day.problem(written) is None else written
        raise AssertionError(
            say(
                "judgment.wrong",
                row=day.row_name(case),
                predicted=repr(shown),
                gave=day.told(actual),
            )
        )


# --- grader: the learner's own tests (judge.py) ----------------------------------------------

register("grader", "the learner's test_* functions pass on the reference and catch its mistakes")(
    judge.graders
)


# --- extend: a variant with its own contract ---------------------------------------------------


@register("extend", "a variant or policy with its own contract, graded by its day's own tests")
def extend(judgment: Judgment, **declaration: Any) -> tuple[Test, ...]:
    """No tests are shared: each extend day writes its own graders."""
    raise TypeError(say("judgment.extend_shares_nothing"))
