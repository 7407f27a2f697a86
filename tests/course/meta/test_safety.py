"""Grading is safe: a broken file fails only its own day, endless loops time out, half-done work
fails normally, and learner files are never modified. Runs on the toy course (tests/course/meta/conftest)."""

from __future__ import annotations

from miniagent_course.grading.run import run_graders


def _write(course, day, body):
    exercise = course.exercise(day)
    (course.root / exercise.file).write_text(body, encoding="utf-8")


def _snapshot(folder):
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.rglob("*"))}


def test_syntax_error_fails_only_its_own_day_and_is_said_once(toy_course):
    _write(toy_course, "day01", "def double(x):\n    return 2 *\n")
    _write(toy_course, "day02", "def inc(x):\n    return x + 1\n")
    run = run_graders(toy_course, toy_course.exercises)
    day01, day02 = toy_course.exercises
    assert run.day_status(day01) == "failing"
    assert run.day_status(day02) == "done"
    first, *rest = run.day_tests(day01)
    assert first["message"] == (
        "exercises/day01_double.py has a syntax error, so its exercise cannot be graded yet:"
    )
    assert "line 2" in first["details"] and "^" in first["details"]  # the file, line and caret
    assert rest and {t["status"] for t in rest} == {"not_run"}
    assert run.output.count("SyntaxError") == 1
    assert "During handling of the above exception" not in run.output


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


def test_an_endless_loop_costs_one_timeout_per_day(toy_course):
    _write(toy_course, "day01", "def double(x):\n    while True:\n        pass\n")
    _write(toy_course, "day02", "def inc(x):\n    return x + 1\n")
    run = run_graders(toy_course, toy_course.exercises, "learner", "--grader-timeout=1")
    day01, day02 = toy_course.exercises
    first, *rest = run.day_tests(day01)
    assert first["status"] == "failed"
    assert "Is there an endless loop in your day01 code" in first["message"]
    assert rest and {t["status"] for t in rest} == {"not_run"}  # the day stops at its first timeout
    assert run.day_text(day01) == "failing 1 of 2, 1 not run"
    assert run.day_status(day02) == "done"  # the loop does not leak into the next day
    assert "Stopped after 1 s" in run.output and "traceback above" not in run.output


def test_a_grader_slow_on_its_own_is_never_called_the_learners_endless_loop(toy_course):
    # The grader, not the learner's function, is busy when time runs out (a property-based
    # search on a loaded machine, say): no accusation, and the day's other graders still run.
    grader = toy_course.root / "kits/day01/graders/test_day01_double.py"
    grader.write_text(
        "import time\n\n\ndef test_slow_grader(impl):\n    assert impl.double(2) == 4\n"
        "    time.sleep(30)\n\n\ndef test_double_zero(impl):\n    assert impl.double(0) == 0\n"
    )
    _write(toy_course, "day01", "def double(x):\n    return 2 * x\n")
    run = run_graders(toy_course, toy_course.exercises[:1], "learner", "--grader-timeout=1")
    slow, zero = run.day_tests(toy_course.exercises[0])
    assert slow["status"] == "failed"
    assert "not your code" in slow["message"] and "endless loop" not in slow["message"]
    assert zero["status"] == "passed"


def test_a_loop_at_the_top_of_the_file_is_stopped_too(toy_course):
    _write(toy_course, "day01", "while True:\n    pass\n")
    run = run_graders(toy_course, toy_course.exercises[:1], "learner", "--grader-timeout=1")
    first, *rest = run.day_tests(toy_course.exercises[0])
    assert "while loading, before any test" in first["details"]
    assert {t["status"] for t in rest} == {"not_run"}


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
        toy_course, toy_course.exercises, "mutant:kits/day01/instructor/mutants/triple.py"
    )
    assert {t["exercise"] for t in run.tests} == {"day01"}
    assert [t["status"] for t in run.tests] == ["failed", "passed"]  # 3 * 0 == 2 * 0
    assert "mutants killed: 1 of 1 (100%)" in run.output
