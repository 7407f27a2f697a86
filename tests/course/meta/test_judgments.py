"""The registry of judgment kinds, and the predict kind on a synthetic day (no real kit).

The day: ``double`` of a few inputs, predicted in a table. In-process checks call the two tests
the predict kind writes with a made-up ``predictions()``; the toy course then grades the same
kind through its kit.toml, the plugin and the learner's report, as ``pytest`` and ``miniagent
check`` do.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from miniagent_course.grading import judgments
from miniagent_course.grading.course import Judgment, load_course
from miniagent_course.grading.report import short_name
from miniagent_course.grading.run import run_graders

REAL = {"two": 4, "zero": 0, "minus": -2, "text": "TypeError"}  # what doubling each input gives
RIGHT = dict(REAL)
JUDGMENT = Judgment(kind="predict", title="Predict what double gives", function="predictions")


def _pair(value):
    assert isinstance(value, int), "give the number double returns, or the error's class name"


def _tests(**day):
    """(table test, row test) of the synthetic day."""
    declaration = {
        "cases": list(REAL),
        "outcome": REAL.__getitem__,
        "row": "input {case!r}",
        "raised": "doubling raised {actual}",
        "gave": "doubling gave {actual!r}",
        "shape": _pair,
        **day,
    }
    return judgments.kind("predict").graders(JUDGMENT, **declaration)


def _learner(table):
    return SimpleNamespace(predictions=lambda: table)


def _failure(test, *args) -> str:
    with pytest.raises(AssertionError) as caught:
        test(*args)
    return str(caught.value)


def _ids(row_test) -> list:
    (mark,) = [m for m in row_test.pytestmark if m.name == "parametrize"]
    return list(mark.args[1])


def test_a_right_table_passes_every_test():
    table_test, row_test = _tests()
    impl = _learner(RIGHT)
    table_test(impl)
    for case in _ids(row_test):
        row_test(impl, case)
    assert _ids(row_test) == ["two", "zero", "minus", "text"]  # one test per case, in order


def test_a_wrong_row_fails_naming_the_row_and_both_values():
    table_test, row_test = _tests()
    impl = _learner({**RIGHT, "zero": 1, "text": "ValueError"})
    table_test(impl)  # the form is right: only the rows are wrong
    assert _failure(row_test, impl, "zero") == "input 'zero': you predicted 1; doubling gave 0"
    assert _failure(row_test, impl, "text") == (
        "input 'text': you predicted 'ValueError'; doubling raised TypeError"
    )
    row_test(impl, "two")  # the other rows still pass, one by one


def test_a_missing_case_fails_the_table_and_its_row():
    table_test, row_test = _tests()
    impl = _learner({"two": 4, "zero": 0, "text": "TypeError", "three": 6})
    message = _failure(table_test, impl)
    assert message == (
        "predictions() must give one entry per case: missing entries for ['minus']; entries for "
        "['three'], which are not cases (the cases are ['two', 'zero', 'minus', 'text'])"
    )
    assert _failure(row_test, impl, "minus") == "input 'minus': predictions() gives no entry for it"


@pytest.mark.parametrize("table", [[("two", 4)], None, "two: 4"], ids=["list", "none", "str"])
def test_a_table_that_is_not_a_dict_fails_with_one_sentence(table):
    table_test, row_test = _tests()
    expected = (
        f"predictions() must return a dict with one entry per case, got {type(table).__name__}."
    )
    for message in (
        _failure(table_test, _learner(table)),
        _failure(row_test, _learner(table), "two"),
    ):
        assert message == expected
        assert "\n" not in message and message.count(". ") == 0  # one sentence


def test_the_days_form_is_checked_row_by_row():
    table_test, _ = _tests()
    wrong_form = _failure(table_test, _learner({**RIGHT, "minus": "-2"}))
    assert wrong_form == (
        "input 'minus': a str names the exception a run raises, and '-2' is not the name of a class"
    )
    not_a_number = _failure(table_test, _learner({**RIGHT, "zero": 0.0}))
    assert not_a_number == "input 'zero': give the number double returns, or the error's class name"


def test_the_normaliser_reads_the_prediction_and_what_it_cannot_read_is_compared_as_written():
    table_test, row_test = _tests(shape=None, raised=None, normalise=int)
    impl = _learner({**RIGHT, "two": "4", "zero": "nothing"})
    table_test(impl)
    row_test(impl, "two")  # "4" is read as 4
    assert _failure(row_test, impl, "zero") == (
        "input 'zero': you predicted 'nothing'; doubling gave 0"
    )


def test_the_tests_are_written_fresh_for_each_day():
    first, second = _tests(), _tests(cases=["two"])
    assert first[1] is not second[1] and _ids(first[1]) != _ids(second[1])


# --- the registry --------------------------------------------------------------------------


def test_the_registry_holds_the_three_kinds():
    assert list(judgments.KINDS) == ["predict", "grader", "extend"]
    assert all(kind.what and callable(kind.graders) for kind in judgments.KINDS.values())


def test_an_unknown_kind_fails_with_one_sentence_naming_the_known_kinds():
    with pytest.raises(judgments.UnknownKind) as caught:
        judgments.kind("predicts", "day03")
    assert str(caught.value) == (
        "day03's kit.toml names the judgment kind 'predicts', which the course does not know; "
        "the known kinds are predict, grader, extend."
    )


def test_every_kit_names_a_registered_kind(course):
    for exercise in course.exercises:
        assert exercise.judgment is not None, exercise.id
        assert judgments.kind(exercise.judgment.kind, exercise.id).name == exercise.judgment.kind


# --- through a kit: the toy course's day01 with a predict part ------------------------------

TOY_REFERENCE = """

REAL = {"two": 4, "zero": 0, "minus": -2}


def predictions():
    return dict(REAL)
"""

TOY_KIT = """
[[functions]]
name = "predictions"
reference = "toyref:predictions"
upstream = "toyref:predictions"

[judgment]
kind = "{kind}"
title = "Predict what double gives"
function = "predictions"
"""

TOY_GRADERS = """import toyref

from miniagent_course.grading.judgments import judgment_graders


def test_double_two(impl):
    assert impl.double(2) == 4


test_predictions_are_a_table_of_every_case, test_prediction = judgment_graders(
    __file__,
    cases=list(toyref.REAL),
    outcome=toyref.REAL.__getitem__,
    row="input {case!r}",
    gave="doubling gave {actual!r}",
)
"""

TOY_LEARNER = """
def double(x):
    return 2 * x


def predictions():
    return {"two": 4, "zero": 1}
"""


def _toy_predict_day(toy_course, kind: str = "predict"):
    root = toy_course.root
    with (root / "ref" / "toyref.py").open("a", encoding="utf-8") as reference:
        reference.write(TOY_REFERENCE)
    with (root / "kits" / "day01" / "kit.toml").open("a", encoding="utf-8") as kit:
        kit.write(TOY_KIT.format(kind=kind))
    (root / "kits/day01/graders/test_day01_double.py").write_text(TOY_GRADERS, encoding="utf-8")
    (root / "exercises" / "day01_double.py").write_text(TOY_LEARNER, encoding="utf-8")
    return load_course(root)


def test_a_kit_of_the_predict_kind_is_graded_through_the_learners_report(toy_course):
    course = _toy_predict_day(toy_course)
    day = course.exercise("day01")
    run = run_graders(course, [day])
    tests = {short_name(t["nodeid"]): t for t in run.day_tests(day)}
    assert {name: t["status"] for name, t in tests.items()} == {
        "test_double_two": "passed",
        "test_predictions_are_a_table_of_every_case": "failed",
        "test_prediction[two]": "passed",
        "test_prediction[zero]": "failed",
        "test_prediction[minus]": "failed",
    }
    table = tests["test_predictions_are_a_table_of_every_case"]
    missing = "predictions() must give one entry per case: missing entries for ['minus']"
    assert table["message"] == missing
    assert f"  problem:   {missing}" in table["details"]  # the learner's report, in full
    assert "  your call: predictions()" in table["details"]
    zero = tests["test_prediction[zero]"]
    assert zero["message"] == "input 'zero': you predicted 1; doubling gave 0"
    assert "Traceback" not in run.output and "judgments.py" not in run.output
    assert run.day_status(day) == "failing"


def test_a_kit_naming_an_unknown_kind_fails_with_one_sentence(toy_course):
    course = _toy_predict_day(toy_course, kind="guess")
    run = run_graders(course, [course.exercise("day01")])
    assert run.exitstatus != 0
    assert (
        "day01's kit.toml names the judgment kind 'guess', which the course does not know; "
        "the known kinds are predict, grader, extend."
    ) in run.output
