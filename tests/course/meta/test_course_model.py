"""The course model in miniagent_course.grading.course, tested in-process (fast, no subprocess)."""

from __future__ import annotations

import pytest

from miniagent_course.grading.course import (
    PristineStubError,
    load_course,
    not_started_in,
    parse_impl_option,
    pristine_stub,
    stub_problems,
)
from miniagent_course.grading.report import short_name
from miniagent_course.todo import NotStarted


def test_translated_title_and_hints_replace_the_english_ones(toy_course):
    toml = toy_course.root / "course.toml"
    toml.write_text(
        toml.read_text() + '\n[exercises.zh]\ntitle = "加倍"\nhints = ["x + x?", "2 * x?"]\n',
        encoding="utf-8",
    )
    day02_zh = load_course(toy_course.root, lang="zh").exercise("day02")
    assert (day02_zh.title, day02_zh.hints) == ("加倍", ("x + x?", "2 * x?"))
    day02_en = load_course(toy_course.root, lang="en").exercise("day02")
    assert day02_en.title == "Add one"


def test_impl_option_expands_mutants_and_rejects_unknown_names(toy_course):
    assert parse_impl_option("reference, learner", toy_course) == ["reference", "learner"]
    assert parse_impl_option("mutants", toy_course) == [
        "mutant:tests/course/mutants/day01_triple.py"
    ]
    with pytest.raises(ValueError, match="unknown implementation 'solution'"):
        parse_impl_option("solution", toy_course)
    with pytest.raises(KeyError, match="is not listed as a mutant"):
        parse_impl_option("mutant:tests/course/mutants/nope.py", toy_course)


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


def test_reset_without_git_says_so(toy_course, monkeypatch):
    monkeypatch.setattr("miniagent_course.grading.course.shutil.which", lambda name: None)
    with pytest.raises(PristineStubError, match="git is not installed"):
        pristine_stub(toy_course, toy_course.exercise("day01"))


def test_short_test_names_drop_the_learner_id():
    assert short_name("tests/course/graders/test_x.py::test_y[learner]") == "test_y"
    assert short_name("tests/course/graders/test_x.py::test_y[learner-dict]") == "test_y[dict]"
    assert short_name("tests/course/graders/test_x.py::test_y[reference]") == "test_y[reference]"
