"""Grading is safe: a broken file fails only its own day, endless loops time out, half-done work
fails normally, and learner files are never modified. Runs on the toy course (tests/course/meta/conftest)."""

from __future__ import annotations

import time

from miniagent_course.grading.run import run_graders


def _write(course, day, body):
    exercise = course.exercise(day)
    (course.root / exercise.file).write_text(body, encoding="utf-8")


def _snapshot(folder):
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.rglob("*"))}


def test_syntax_error_fails_only_its_own_day(toy_course):
    _write(toy_course, "day01", "def double(x):\n    return 2 *\n")
    _write(toy_course, "day02", "def inc(x):\n    return x + 1\n")
    run = run_graders(toy_course, toy_course.exercises)
    day01, day02 = toy_course.exercises
    assert run.day_status(day01) == "failing"
    assert run.day_status(day02) == "done"
    messages = {t["message"] for t in run.day_tests(day01)}
    assert messages == {
        "exercises/day01_double.py has a syntax error, so its exercise cannot be graded yet:"
    }
    assert "line 2" in run.day_tests(day01)[0]["details"]


def test_import_error_and_missing_function_are_explained(toy_course):
    _write(toy_course, "day01", "import no_such_module_anywhere\n")
    _write(toy_course, "day02", "def increment(x):\n    return x + 1\n")
    run = run_graders(toy_course, toy_course.exercises)
    day01, day02 = toy_course.exercises
    assert (
        "ModuleNotFoundError: No module named 'no_such_module_anywhere'"
        in run.day_tests(day01)[0]["details"]
    )
    assert run.day_tests(day02)[0]["message"].startswith(
        "exercises/day02_inc.py has no function `inc`"
    )


def test_endless_loop_times_out_with_a_clear_message(toy_course):
    _write(toy_course, "day01", "def double(x):\n    while True:\n        pass\n")
    started = time.monotonic()
    run = run_graders(toy_course, toy_course.exercises[:1], "learner", "--grader-timeout=1")
    assert time.monotonic() - started < 30
    assert run.day_status(toy_course.exercises[0]) == "failing"
    assert "Timeout" in run.output
    assert "Is there an endless loop in your day01 code?" in run.output
    assert "Is there an endless loop" in run.day_tests(toy_course.exercises[0])[0]["message"]


def test_half_done_work_fails_normally_and_untouched_work_is_skipped(toy_course):
    _write(toy_course, "day01", "def double(x):\n    return x + 2\n")  # right for 2, wrong for 0
    run = run_graders(toy_course, toy_course.exercises)
    day01, day02 = toy_course.exercises
    assert run.exitstatus == 1
    assert run.day_status(day01) == "failing"
    assert run.day_text(day01) == "failing 1 of 2"
    assert run.day_status(day02) == "not_started"
    assert run.day_tests(day02)[0]["message"] == "day02 not started — try: miniagent hint day02"


def test_grading_never_modifies_learner_files(toy_course):
    _write(toy_course, "day01", "def double(x):\n    return 2 * x\n")
    before = _snapshot(toy_course.root / "exercises")
    run_graders(toy_course, toy_course.exercises, "reference,learner")
    assert _snapshot(toy_course.root / "exercises") == before


def test_mutant_runs_only_its_own_exercise(toy_course):
    run = run_graders(
        toy_course, toy_course.exercises, "mutant:tests/course/mutants/day01_triple.py"
    )
    assert {t["exercise"] for t in run.tests} == {"day01"}
    assert [t["status"] for t in run.tests] == ["failed", "passed"]  # 3 * 0 == 2 * 0
    assert "mutants killed: 1 of 1 (100%)" in run.output
