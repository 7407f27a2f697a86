"""The registry of judgment kinds, and the predict kind on a synthetic day (no real kit).

The day: ``double`` of a few inputs, predicted in a table. In-process checks call the two tests
the predict kind writes with a made-up ``predictions()``; the toy course then grades the same
kind through its kit.toml, the plugin and the learner's report, as ``pytest`` and ``miniagent
check`` do. The table is sealed: a partial one says "k of n filled" and grades no row; the
learner's first answered table is recorded before a run shows any real outcome, kept across
``miniagent reset`` and shown in the progress table and ``miniagent list`` (the real days:
``test_sealed_predictions.py``).
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from miniagent_course import cli
from miniagent_course.grading import judgments, sealed
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


def _skipped(test, *args) -> str:
    with pytest.raises(pytest.skip.Exception) as caught:
        test(*args)
    return str(caught.value)


def test_a_partial_table_says_how_full_it_is_and_no_row_is_graded():
    table_test, row_test = _tests()
    impl = _learner({"two": 4, "zero": 1, "text": "TypeError", "three": 6})
    message = _failure(table_test, impl)
    assert message == (
        "predictions() has 3 of 4 filled, so it is not graded yet (no row says anything before "
        "every entry is filled): missing entries for ['minus']; entries for ['three'], which are "
        "not cases (the cases are ['two', 'zero', 'minus', 'text'])"
    )
    for case in ["two", "zero", "minus", "text"]:  # the wrong row "zero" says nothing either
        assert _skipped(row_test, impl, case) == "not graded: predictions() has 3 of 4 filled"


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


def test_the_days_form_is_checked_row_by_row_and_a_malformed_row_is_not_filled():
    table_test, row_test = _tests()
    wrong_form = _failure(table_test, _learner({**RIGHT, "minus": "-2"}))
    assert wrong_form.endswith(
        "3 of 4 filled, so it is not graded yet (no row says anything before every entry is "
        "filled): input 'minus': a str names the exception a run raises, and '-2' is not the name "
        "of a class"
    )
    not_a_number = _failure(table_test, _learner({**RIGHT, "zero": 0.0}))
    assert not_a_number.endswith(
        "filled): input 'zero': give the number double returns, or the error's class name"
    )
    assert _skipped(row_test, _learner({**RIGHT, "zero": 0.0}), "two").endswith("3 of 4 filled")


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


# --- sealed: the learner's first answered table is recorded before any outcome --------------


def _yours(root, table, kind="learner"):
    """An implementation as the plugin builds it: the learner's own file is the one sealed."""
    return SimpleNamespace(
        kind=kind,
        course=SimpleNamespace(root=root),
        exercise=SimpleNamespace(id="day01"),
        predictions=lambda: table,
    )


def test_the_first_answered_table_is_recorded_and_its_run_shows_no_outcome(tmp_path, monkeypatch):
    monkeypatch.setenv(sealed.XDIST_RUN_ENV, "the-first-run")
    table_test, row_test = _tests()
    impl = _yours(tmp_path, {**RIGHT, "zero": 1, "text": "ValueError"})
    table_test(impl)  # answered: the table passes, and is recorded as the first try
    assert sealed.first_try(tmp_path, "day01") == sealed.FirstTry(
        "day01", 2, 4, ("zero", "text"), "the-first-run"
    )
    zero, text = _failure(row_test, impl, "zero"), _failure(row_test, impl, "text")
    assert zero == (
        "input 'zero': wrong (your first try is recorded: 2 of 4 right; the real outcome shows "
        "from your next run)"
    )
    assert text.startswith("input 'text': wrong (")
    for shown in (zero, text):  # which rows are wrong, never what the real run gives
        assert "doubling" not in shown and "TypeError" not in shown and "gave 0" not in shown
    row_test(impl, "two")  # a right row passes

    monkeypatch.setenv(sealed.XDIST_RUN_ENV, "a-later-run")  # the next grading run
    better = _yours(tmp_path, {**RIGHT, "text": "ValueError"})
    table_test(better)
    assert _failure(row_test, better, "text") == (
        "input 'text': you predicted 'ValueError'; doubling raised TypeError"
    )
    row_test(better, "zero")
    assert sealed.first_try(tmp_path, "day01").score == "2/4"  # the first try stays


def test_a_partial_table_is_not_recorded(tmp_path):
    table_test, row_test = _tests()
    impl = _yours(tmp_path, {"two": 4, "zero": 1})
    assert "2 of 4 filled" in _failure(table_test, impl)
    assert _skipped(row_test, impl, "zero").endswith("2 of 4 filled")
    assert sealed.first_try(tmp_path, "day01") is None
    assert not (tmp_path / sealed.FIRST_TRY).exists()


def test_only_the_learners_file_is_sealed(tmp_path):
    table_test, row_test = _tests()
    for kind in ("reference", "mutant", "solution"):
        impl = _yours(tmp_path, {**RIGHT, "zero": 1}, kind=kind)
        table_test(impl)
        assert _failure(row_test, impl, "zero") == "input 'zero': you predicted 1; doubling gave 0"
    assert sealed.first_try(tmp_path, "day01") is None


def test_a_first_try_is_recorded_once(tmp_path):
    first = sealed.FirstTry("day01", 2, 4, ("zero", "text"), "run-1")
    assert sealed.record_first_try(tmp_path, first) == first
    later = sealed.FirstTry("day01", 4, 4, (), "run-2")
    assert sealed.record_first_try(tmp_path, later) == first
    assert sealed.first_try(tmp_path, "day01") == first
    assert sealed.first_tries(tmp_path, ["day01", "day02"]) == {"day01": first}
    (tmp_path / sealed.FIRST_TRY / "day02.json").write_text("{cut sho", encoding="utf-8")
    assert sealed.first_try(tmp_path, "day02") is None  # unreadable: as if none...
    replaced = sealed.FirstTry("day02", 1, 3, ("a", "b"), "run-3")
    assert sealed.record_first_try(tmp_path, replaced) == replaced  # ...and replaced
    assert sealed.first_try(tmp_path, "day02") == replaced


# --- the registry --------------------------------------------------------------------------


def test_the_registry_holds_the_six_kinds_and_seals_the_tables():
    assert list(judgments.KINDS) == ["predict", "read", "spot", "repair", "grader", "extend"]
    assert all(kind.what and callable(kind.graders) for kind in judgments.KINDS.values())
    assert [k.name for k in judgments.KINDS.values() if k.sealed] == ["predict", "read"]


def test_an_unknown_kind_fails_with_one_sentence_naming_the_known_kinds():
    with pytest.raises(judgments.UnknownKind) as caught:
        judgments.kind("predicts", "day03")
    assert str(caught.value) == (
        "day03's kit.toml names the judgment kind 'predicts', which the course does not know; "
        "the known kinds are predict, read, spot, repair, grader, extend."
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
        "test_double_two": "held",  # part 1 waits for the table (sealed, answered first)
        "test_predictions_are_a_table_of_every_case": "failed",
        "test_prediction[two]": "skipped",  # a partial table: no row is graded
        "test_prediction[zero]": "skipped",
        "test_prediction[minus]": "skipped",
    }
    table = tests["test_predictions_are_a_table_of_every_case"]
    partial = (
        "predictions() has 2 of 3 filled, so it is not graded yet (no row says anything before "
        "every entry is filled): missing entries for ['minus']"
    )
    assert table["message"] == partial
    assert f"  problem:   {partial}" in table["details"]  # the learner's report, in full
    assert "  your call: predictions()" in table["details"]
    assert (
        tests["test_prediction[zero]"]["message"] == "not graded: predictions() has 2 of 3 filled"
    )
    assert "doubling gave" not in run.output + json.dumps(run.tests)
    assert "Traceback" not in run.output and "judgments.py" not in run.output
    assert run.day_status(day) == "failing"
    assert sealed.first_try(course.root, "day01") is None


def test_through_the_kit_the_first_try_is_sealed_kept_across_reset_and_listed(toy_course, capsys):
    course = _toy_predict_day(toy_course)
    learner = course.root / "exercises" / "day01_double.py"
    learner.write_text(TOY_LEARNER.replace('"zero": 1}', '"zero": 1, "minus": -2}'), "utf-8")
    day = course.exercise("day01")

    first = run_graders(course, [day])  # the first answered table: recorded, nothing shown
    zero = {short_name(t["nodeid"]): t for t in first.day_tests(day)}["test_prediction[zero]"]
    assert zero["message"] == (
        "input 'zero': wrong (your first try is recorded: 2 of 3 right; the real outcome shows "
        "from your next run)"
    )
    assert "doubling gave" not in first.output + json.dumps(first.tests)
    row = next(line for line in first.output.splitlines() if line.startswith("  day01  "))
    assert row.endswith("failing 1 of 5, first try 2/3") and len(row) <= 80  # the progress table

    second = run_graders(course, [day])  # a later run: the real outcome of a wrong row
    zero = {short_name(t["nodeid"]): t for t in second.day_tests(day)}["test_prediction[zero]"]
    assert zero["message"] == "input 'zero': you predicted 1; doubling gave 0"

    assert cli.main(["--root", str(course.root), "reset", "day01"]) == 0
    assert sealed.first_try(course.root, "day01").score == "2/3"  # reset keeps the first try
    capsys.readouterr()
    assert cli.main(["--root", str(course.root), "list"]) == 0
    listed = next(line for line in capsys.readouterr().out.splitlines() if " day01 " in line)
    assert listed.endswith("first try 2/3") and len(listed) <= 80


def test_a_kit_naming_an_unknown_kind_fails_with_one_sentence(toy_course):
    course = _toy_predict_day(toy_course, kind="guess")
    run = run_graders(course, [course.exercise("day01")])
    assert run.exitstatus != 0
    assert (
        "day01's kit.toml names the judgment kind 'guess', which the course does not know; "
        "the known kinds are predict, read, spot, repair, grader, extend."
    ) in run.output


# --- spot: an input per changed copy, graded by running both ----------------------------------


def _clamp(x):  # "upstream": clamps to 0..10
    return max(0, min(10, x))


def _clamp_no_floor(x):  # a changed copy: forgets the floor
    return min(10, x)


def _clamp_raises(x):  # a changed copy: raises above the ceiling
    if x > 10:
        raise ValueError(f"too big: {x}")
    return max(0, x)


SPOT = Judgment(kind="spot", title="Spot the bug", function="inputs")


def _spot_tests():
    def number(given):
        assert isinstance(given, int), "give an int"

    return judgments.kind("spot").graders(
        SPOT,
        variants={"no_floor": _clamp_no_floor, "raises": _clamp_raises},
        upstream=_clamp,
        run=lambda function, given: function(given),
        shape=number,
    )


def test_spot_passes_inputs_that_tell_each_copy_apart():
    table_test, row_test = _spot_tests()
    impl = SimpleNamespace(inputs=lambda: {"no_floor": -3, "raises": 99})
    table_test(impl)
    assert _ids(row_test) == ["no_floor", "raises"]
    for variant in _ids(row_test):
        row_test(impl, variant)  # -3 vs 0; ValueError vs 10: a raise is an outcome


def test_spot_fails_an_input_on_which_both_behave_alike_and_says_what_both_gave():
    table_test, row_test = _spot_tests()
    impl = SimpleNamespace(inputs=lambda: {"no_floor": 5, "raises": 12})
    assert _failure(row_test, impl, "no_floor") == (
        "variant 'no_floor': on your input 5 it behaves as upstream does (both give 5); "
        "find an input where the change shows"
    )
    row_test(impl, "raises")
    partial = SimpleNamespace(inputs=lambda: {"no_floor": "x"})
    assert _failure(table_test, partial).startswith("inputs() has 0 of 2 inputs, so no variant")


def test_spot_gives_each_side_its_own_copy_of_the_input():
    seen = []

    def pops(items):
        seen.append(list(items))
        return items.pop() if items else None

    tests = judgments.kind("spot").graders(
        SPOT, variants={"same": pops}, upstream=pops, run=lambda f, given: f(given)
    )
    given = [1, 2]
    with pytest.raises(AssertionError):
        tests[1](SimpleNamespace(inputs=lambda: {"same": given}), "same")  # alike: fails
    assert seen == [[1, 2], [1, 2]] and given == [1, 2]


def test_spot_runs_each_variant_against_the_function_it_copies_with_that_ones_form():
    """Variants of several functions (Day 04): ``upstream`` and ``shape`` per variant; an input
    that cannot be copied (a ``MappingProxyType``) is given to each side as it is."""
    from types import MappingProxyType

    def keys(mapping):  # "upstream" of the second function: a dict's keys, nothing else
        if not isinstance(mapping, dict):
            raise TypeError("a dict only")
        return sorted(mapping)

    def keys_of_any_mapping(mapping):  # its changed copy
        return sorted(mapping)

    def a_mapping(given):
        assert hasattr(given, "keys"), "give a mapping"

    table_test, row_test = judgments.kind("spot").graders(
        SPOT,
        variants={"no_floor": _clamp_no_floor, "any_mapping": keys_of_any_mapping},
        upstream={"no_floor": _clamp, "any_mapping": keys},
        run=lambda function, given: function(given),
        shape={"any_mapping": a_mapping},
    )
    impl = SimpleNamespace(inputs=lambda: {"no_floor": -3, "any_mapping": MappingProxyType({})})
    table_test(impl)
    for variant in _ids(row_test):
        row_test(impl, variant)
    wrong = SimpleNamespace(inputs=lambda: {"no_floor": -3, "any_mapping": 5})
    assert _failure(row_test, wrong, "any_mapping") == "variant 'any_mapping': give a mapping"
    alike = SimpleNamespace(inputs=lambda: {"no_floor": 5, "any_mapping": {"k": 1}})
    assert "both give 5" in _failure(row_test, alike, "no_floor")
    assert "both give ['k']" in _failure(row_test, alike, "any_mapping")


# --- repair: scenarios on the learner's application; the library stays as it is ---------------


REPAIR = Judgment(kind="repair", title="Repair", function="build")


def _repair_test():
    def answers_ten(impl):
        assert impl.build()(3) == 10, "the application must answer 10"

    (test,) = judgments.kind("repair").graders(
        REPAIR, scenarios={"ten": answers_ten}, untouched=[__name__]
    )
    return test


def test_repair_passes_a_fixed_application_and_fails_one_that_still_misbehaves():
    test = _repair_test()
    test(SimpleNamespace(build=lambda: lambda x: _clamp(x + 7)), "ten")
    with pytest.raises(AssertionError, match="must answer 10"):
        test(SimpleNamespace(build=lambda: _clamp), "ten")


def test_repair_fails_a_fix_that_changes_the_library_and_puts_it_back():
    import sys

    test = _repair_test()
    module = sys.modules[__name__]

    def patched():
        module._clamp = lambda x: 10  # "fixes" it by editing the library
        return module._clamp

    original = _clamp
    message = _failure(test, SimpleNamespace(build=patched), "ten")
    assert "your fix changed the library" in message and "_clamp" in message
    assert module._clamp is original  # put back for the next scenario
