"""The course model in miniagent_course.grading.course, tested in-process (fast, no subprocess)."""

from __future__ import annotations

import pytest

from miniagent_course.grading.course import (
    ExerciseLoadError,
    PristineStubError,
    impl_label,
    load_course,
    load_implementation,
    not_started_in,
    parse_impl_option,
    pristine_stub,
    stub_problems,
)
from miniagent_course.grading.report import short_name
from miniagent_course.todo import NotStarted


def test_translated_title_and_hints_replace_the_english_ones(toy_course):
    toml = toy_course.root / "kits" / "day02" / "kit.toml"
    toml.write_text(
        toml.read_text() + '\n[zh]\ntitle = "加倍"\nhints = ["x + x?", "2 * x?"]\n',
        encoding="utf-8",
    )
    day02_zh = load_course(toy_course.root, lang="zh").exercise("day02")
    assert (day02_zh.title, day02_zh.hints) == ("加倍", ("x + x?", "2 * x?"))
    day02_en = load_course(toy_course.root, lang="en").exercise("day02")
    assert day02_en.title == "Add one"


def test_impl_option_expands_mutants_and_rejects_unknown_names(toy_course):
    assert parse_impl_option("reference, learner", toy_course) == ["reference", "learner"]
    assert parse_impl_option("mutants", toy_course) == [
        "mutant:day01_plus_two",
        "mutant:day01_triple",
    ]
    # a mutant by key, by its unique name, or a whole-file mutant by path: always its key
    by_path = "mutant:kits/day01/instructor/mutants/triple.py"
    assert parse_impl_option(f"mutant:day01_plus_two,mutant:plus_two,{by_path}", toy_course) == [
        "mutant:day01_plus_two",
        "mutant:day01_triple",
    ]
    assert impl_label("mutant:day01_triple") == "mutant-day01_triple"
    with pytest.raises(ValueError, match="unknown implementation 'solution'"):
        parse_impl_option("solution", toy_course)
    with pytest.raises(KeyError, match="is not a mutant of any day kit"):
        parse_impl_option("mutant:kits/day01/instructor/mutants/nope.py", toy_course)


def test_a_patch_mutant_is_the_reference_with_its_edit(toy_course):
    exercise = toy_course.exercise("day01")
    mutant = load_implementation(toy_course, exercise, "mutant:day01_plus_two")
    assert (mutant.kind, mutant.label) == ("mutant", "mutant-day01_plus_two")
    assert [mutant.double(x) for x in (0, 2, 5)] == [2, 4, 7]  # x + 2, not 2 * x
    assert mutant.double.__module__ == "toyref"  # it runs in the reference's module globals
    whole = load_implementation(toy_course, exercise, "mutant:day01_triple")
    assert whole.double(2) == 6


def _write_toy_mutant(course, replace):
    """A patch mutant ``stale`` whose one hunk's anchor is exactly ``replace`` (no newline)."""
    patch = course.root / "kits" / "day01" / "instructor" / "mutants" / "stale.patch"
    patch.write_text(
        "why: old\nfunction: double\n--- toyref:double\n+++ mutant stale\n@@ -2 +2 @@\n"
        f"-{replace}\n\\ No newline at end of file\n+x\n",
        encoding="utf-8",
    )
    return load_course(course.root)


@pytest.mark.parametrize(
    ("anchor", "times"), [("return 3 * x", 0), ("x", 2)], ids=["missing", "ambiguous"]
)
def test_a_patch_whose_anchor_is_gone_or_ambiguous_does_not_load(toy_course, anchor, times):
    course = _write_toy_mutant(toy_course, anchor)
    with pytest.raises(ExerciseLoadError) as error:
        load_implementation(course, course.exercise("day01"), "mutant:day01_stale")
    message = str(error.value)
    assert message.startswith("mutant day01_stale did not load: a patch anchor must occur")
    assert f"source of toyref:double, but it occurs {times} times" in message
    assert message.endswith(f"The anchor:\n{anchor}")


def test_not_started_is_found_behind_causes_contexts_and_groups():
    stub = NotStarted("day00")
    try:
        try:
            raise stub
        except NotStarted:
            raise ValueError("while handling") from None
    except ValueError as error:
        assert not_started_in(error) is None  # `from None` hides it on purpose
    wrapped = RuntimeError("graph failed")
    wrapped.__cause__ = stub
    assert not_started_in(wrapped) is stub
    group = Exception("many")  # an ExceptionGroup (3.11+) keeps its members in .exceptions
    group.exceptions = (ValueError(), wrapped)
    assert not_started_in(group) is stub
    assert not_started_in(AssertionError("plain failure")) is None
    assert "day00 is not started yet" in str(stub)


def test_stub_lint_names_each_problem(toy_course):
    exercise = toy_course.exercise("day01")
    stub = (toy_course.root / exercise.file).read_text()
    assert stub_problems(stub, exercise) == []
    assert stub_problems(stub.replace("# TODO(day01): your code", "# later"), exercise) == [
        "`double` needs a `# TODO(day01)` comment on the line above its `raise NotStarted`"
    ]
    solved = stub.replace('raise NotStarted("day01")', "return 2 * x")
    assert stub_problems(solved, exercise) == [
        '`double` has code in its body; a stub body is a docstring plus `raise NotStarted("day01")`'
    ]
    assert stub_problems("x = 1\n", exercise) == ["has no function `double`"]


def test_pristine_stub_comes_from_the_stubs_folder(toy_course):
    exercise = toy_course.exercise("day01")
    assert (
        pristine_stub(toy_course, exercise) == (toy_course.root / "kits/day01/stub.py").read_text()
    )
    (toy_course.root / "kits/day01/stub.py").unlink()
    with pytest.raises(PristineStubError, match="its original stub kits/day01/stub.py is missing"):
        pristine_stub(toy_course, exercise)


THINK = """
[[functions]]
name = "predictions"
upstream = "toyref:inc"

[judgment]
kind = "predict"
title = "Predict inc"
function = "predictions"
"""


def _with_a_think_part(toy_course, answers: str | None):
    """The toy's day02 with a predict part whose kit.toml names no reference (and its kit's
    instructor/answers.py, unless ``answers`` is None)."""
    kit = toy_course.root / "kits" / "day02"
    with (kit / "kit.toml").open("a", encoding="utf-8") as toml:
        toml.write(THINK)
    if answers is not None:
        (kit / "instructor").mkdir()
        (kit / "instructor" / "answers.py").write_text(answers, encoding="utf-8")
    course = load_course(toy_course.root)  # loads whether or not the answers are there
    return course, course.exercise("day02"), kit / "instructor" / "answers.py"


def test_the_think_reference_kit_toml_does_not_name_is_its_kits_answers(toy_course):
    course, day02, answers = _with_a_think_part(toy_course, "def predictions():\n    return 1\n")
    graded = {f.name: f.reference for f in day02.functions}
    assert graded == {"inc": "toyref:inc", "predictions": f"{answers.as_posix()}:predictions"}
    reference = load_implementation(course, day02, "reference")
    assert reference.predictions() == 1 and reference.inc(1) == 2
    assert reference.predictions.__code__.co_filename == str(answers)


def test_a_missing_answers_file_fails_in_one_sentence(toy_course):
    course, day02, answers = _with_a_think_part(toy_course, None)
    with pytest.raises(ExerciseLoadError) as failed:
        load_implementation(course, day02, "reference")
    message = str(failed.value)
    assert message.startswith(f"{answers.as_posix()} is missing, and it holds the reference")
    assert "\n" not in message and message.count(". ") == 0 and message.endswith(").")


def test_short_test_names_drop_the_learner_id():
    assert short_name("kits/day01/graders/test_x.py::test_y[learner]") == "test_y"
    assert short_name("kits/day01/graders/test_x.py::test_y[learner-dict]") == "test_y[dict]"
    assert short_name("kits/day01/graders/test_x.py::test_y[reference]") == "test_y[reference]"


def test_a_day_is_named_by_its_id_its_number_or_its_file():
    """``miniagent reset exercises/day05_prompt.py`` works, as the missing-file message says."""
    course = load_course()
    day05 = course.exercise("day05")
    assert course.exercise("5") is day05 and course.exercise("05") is day05
    assert course.exercise(day05.file) is day05 and course.exercise(f"./{day05.file}") is day05
    with pytest.raises(KeyError):
        course.exercise("exercises/day05_elsewhere.py")
