"""The grading plan (classroom.toml), the day parts, and which files of an upload are taken:
the quick tests, nothing graded."""

from __future__ import annotations

import zipfile

import pytest

from miniagent_course.classroom.config import SAMPLE, ConfigError, parse_config
from miniagent_course.classroom.parts import day_parts, file_parts
from miniagent_course.classroom.submission import copy_course, find_exercises

from .conftest import write_upload

# --- the plan --------------------------------------------------------------------------------


def test_the_sample_plan_grades_every_day_at_the_defaults(course):
    plan = parse_config(SAMPLE, course)
    assert [p.day for p in plan.days] == [e.id for e in course.exercises]
    assert all(p.points == 10 and p.timeout == 10 for p in plan.days)
    assert plan.total == 10 * len(course.exercises) and plan.partial_credit


def test_a_plan_sets_days_points_split_visibility_and_time_limits(plan):
    day05 = plan.plan("day05")
    assert day05.part_points() == (14.0, 6.0)
    assert day05.visibility == ("visible", "after_due_date")
    assert plan.plan("day13").timeout == 3 and plan.plan("day00").timeout == 10
    assert plan.total == 40


def test_days_are_named_as_the_learner_commands_name_them_and_kept_in_course_order(course):
    plan = parse_config('days = ["13", "day5", "day00"]\n', course)
    assert [p.day for p in plan.days] == ["day00", "day05", "day13"]


@pytest.mark.parametrize(
    "text, named",
    [
        ("pionts = 3\n", "pionts"),
        ('days = ["day99"]\n', "day99"),
        ("split = [0.5, 0.6]\n", "split"),
        ('visibility = "sometimes"\n', "visibility"),
        ("timeout = 0\n", "timeout"),
        ('days = ["day00"]\n[day.day05]\npoints = 3\n', "day05"),
        ("[day.day00]\npoint = 3\n", "day.day00.point"),
        ("partial_credit = 1\n", "partial_credit"),
        ("days = [\n", "TOML"),
    ],
)
def test_a_mistake_in_the_plan_is_named(course, text, named):
    with pytest.raises(ConfigError) as error:
        parse_config(text, course)
    assert named in str(error.value)


# --- the parts of a day ----------------------------------------------------------------------


def test_every_grader_test_of_every_day_is_in_one_part(course):
    for exercise in course.exercises:
        parts = day_parts(course, exercise)
        assert set(parts.values()) == ({1, 2} if exercise.judgment else {1}), exercise.id


def test_the_judgment_kinds_tests_and_an_extend_days_own_are_part_2(course):
    day05 = day_parts(course, course.exercise("day05"))  # predict: the tests the kind writes
    assert day05["test_prediction"] == 2 and day05["test_keeps_the_upstream_signature"] == 1
    day00 = day_parts(course, course.exercise("day00"))  # be the grader
    assert day00["test_your_tests_catch_the_known_mistakes"] == 2
    assert day00["test_dict_state_returns_the_stored_value"] == 1
    day13 = day_parts(course, course.exercise("day13"))  # extend: reaching guard_tool_call
    assert day13["test_guard_tool_call"] == 2 and day13["test_guardrail_in_a_real_agent"] == 2
    assert day13["test_no_handlers_gives_none"] == 1


def test_reaching_the_judgment_function_counts_through_fixtures_and_helpers(course):
    source = """
import pytest

def helper(impl):
    return impl.choose_model(1)

@pytest.fixture
def routed(impl):
    return helper(impl)

def test_direct(impl):
    assert impl.choose_model(0)

def test_through_a_fixture(routed):
    assert routed

def test_by_name(impl):
    assert getattr(impl, "choose_model")

def test_other(impl):
    assert impl.make_resolve_model(0)
"""
    parts = file_parts(source, course.exercise("day10"))
    assert parts == {
        "test_direct": 2,
        "test_through_a_fixture": 2,
        "test_by_name": 2,
        "test_other": 1,
    }


# --- what is taken from an upload -----------------------------------------------------------


def test_exercise_files_are_found_in_every_layout(course, tmp_path):
    exercises = [course.exercise(d) for d in ("day00", "day05", "day13")]
    files = {"day00_warmup.py": b"A", "day05_prompt.py": b"B"}
    for layout in ("exercises", "loose", "repo_zip"):
        found = find_exercises(write_upload(tmp_path / layout, files, layout), exercises)
        assert found.contents == {"day00": b"A", "day05": b"B"}, layout
        assert found.files["day13"] is None
    zipped = found.files["day00"]
    assert zipped == "miniagent-main.zip/miniagent-main/exercises/day00_warmup.py"


def test_the_exact_name_in_exercises_wins_and_backups_and_caches_are_skipped(course, tmp_path):
    day00 = course.exercise("day00")
    upload = tmp_path / "upload"
    for path, data in {
        "exercises/day00_warmup.py": b"right",
        "day00_warmup.py": b"loose copy",
        "exercises/.backup/day00_warmup.py": b"old",
        "notes/day00_draft.py": b"draft",
    }.items():
        (upload / path).parent.mkdir(parents=True, exist_ok=True)
        (upload / path).write_bytes(data)
    assert find_exercises(upload, [day00]).contents == {"day00": b"right"}
    (upload / "exercises/day00_warmup.py").unlink()
    (upload / "day00_warmup.py").unlink()
    assert find_exercises(upload, [day00]).contents == {"day00": b"draft"}  # dayNN_*.py


def test_a_zip_cannot_write_outside_its_folder(course, tmp_path):
    upload = tmp_path / "upload"
    upload.mkdir()
    with zipfile.ZipFile(upload / "evil.zip", "w") as zipped:
        zipped.writestr("../../day00_warmup.py", b"escaped")
        zipped.writestr("/abs/day05_prompt.py", b"absolute")
    found = find_exercises(upload, [course.exercise("day00"), course.exercise("day05")])
    assert found.contents == {}
    assert not (tmp_path / "day00_warmup.py").exists()


def test_the_grading_copy_has_no_solutions_and_no_instructor_checks(course, tmp_path):
    copy = copy_course(course, ["day00", "day01"], tmp_path)
    assert [e.id for e in copy.exercises] == ["day00", "day01"]
    kit = tmp_path / copy.exercises[0].kit
    assert (kit / "graders").is_dir() and (kit / "instructor" / "mutants").is_dir()
    assert (kit / "instructor" / "reference_tests.py").is_file()  # a be-the-grader part reads it
    assert not list(tmp_path.rglob("solutions")) and not list(
        tmp_path.rglob("instructor/test_*.py")
    )
