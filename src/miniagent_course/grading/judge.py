"""Be the grader: grade the learner's own tests of the day's function.

A "be the grader" part (``[judgment] kind = "grader"`` in its kit.toml) asks for
``test_*`` functions, each taking the function under test as its only argument. Two graders judge
them, with the day's usual time limit:

1. every test passes on the reference (a test that fails on correct code is a wrong test);
2. together they fail at least ``catch`` of the day's known mistakes: the mutants of that
   function, the same ones that prove the course's own graders bite.

Until the part passes, the learner sees only counts: no mutant's name, file or code (they would
give the answers away). Once it passes, each mistake is listed as caught or missed, in one line.

This is the ``grader`` kind of the registry in :mod:`.judgments`; a day's grader file binds the two
tests :func:`graders` writes (``judgment_graders(__file__)``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from miniagent_course.grading.course import (
    Implementation,
    Judgment,
    import_target,
    load_mutant,
)
from miniagent_course.grading.explain import summary
from miniagent_course.grading.plugin import NOTES
from miniagent_course.text import say
from miniagent_course.todo import NotStarted


def _setup(impl: Implementation) -> tuple[Any, list[tuple[str, Callable[..., Any]]]]:
    judgment = impl.exercise.judgment
    assert judgment is not None and judgment.kind == "grader", f"{impl.exercise.id}: no grader part"
    tests = impl.tests
    if not tests:  # no test_ function at all: this part is not started (or your file predates it)
        raise NotStarted(impl.exercise.id)
    return judgment, tests


def _reference(impl: Implementation, name: str) -> Callable[..., Any]:
    graded = next(f for f in impl.exercise.functions if f.name == name)
    return import_target(graded.reference)


def _failure(test: Callable[..., Any], function: Callable[..., Any]) -> BaseException | None:
    """What ``test(function)`` raised (None: it passed). NotStarted is not a verdict: re-raise."""
    try:
        test(function)
    except NotStarted:
        raise
    # any exception is the test saying "this is wrong"; pytest.raises' "DID NOT RAISE" (and
    # pytest.fail) is a BaseException, not an Exception, so it is named here too
    except (Exception, pytest.fail.Exception) as error:
        return error
    return None


def pass_on_the_reference(impl: Implementation) -> None:
    """Grader 1: each of the tests passes on a correct function."""
    judgment, tests = _setup(impl)
    reference = _reference(impl, judgment.function)
    for name, test in tests:
        error = _failure(test, reference)
        assert error is None, say(
            "judge.fails_on_reference", test=name, function=judgment.function, error=summary(error)
        )


def catch_the_mistakes(impl: Implementation) -> list[str]:
    """Grader 2: the tests reject at least ``catch`` mutants. Returns one line per mistake."""
    judgment, tests = _setup(impl)
    pass_on_the_reference(impl)  # a suite that fails everything would catch every mistake
    assert impl.course is not None
    mistakes = [
        m for m in impl.exercise.mutants if m.part == "function" and m.function == judgment.function
    ]
    caught = []
    for mutant in mistakes:
        wrong = load_mutant(impl.course, impl.exercise, mutant)[judgment.function]
        caught.append(any(_failure(test, wrong) is not None for _, test in tests))
    count = sum(caught)
    assert count >= judgment.catch, say(
        "judge.too_few",
        caught=count,
        total=len(mistakes),
        need=judgment.catch,
        function=judgment.function,
    )
    return [
        say("judge.caught" if hit else "judge.missed", why=mutant.why)
        for mutant, hit in zip(mistakes, caught, strict=True)
    ]


def graders(judgment: Judgment) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The two tests of a "be the grader" part: (passes on the reference, catches the mistakes).

    The second records each mistake as caught or missed, shown once the day passes.
    """

    def test_your_tests_pass_on_a_correct_function(impl: Implementation) -> None:
        pass_on_the_reference(impl)

    def test_your_tests_catch_the_known_mistakes(
        impl: Implementation, record_property: Callable[[str, object], None]
    ) -> None:
        record_property(NOTES, catch_the_mistakes(impl))

    return test_your_tests_pass_on_a_correct_function, test_your_tests_catch_the_known_mistakes
