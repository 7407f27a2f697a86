"""The README's plain ``pytest`` is the learner's loop: it grades ``exercises/`` only, says little
besides the progress table, spoils nothing, and survives any broken exercise file.

Each test runs pytest in a subprocess inside ``workspace`` (a copy of the course with pristine
stubs), exactly as a learner runs it from the course folder.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys

import pytest

pytestmark = pytest.mark.timeout(600)

UPSTREAM = {"langgraph", "langchain", "langchain_core", "langchain_openai", "openai"}
BROKEN = [  # three ways a learner's file can be broken, used in turn
    "raise RuntimeError('my code is not ready')\n",
    "def oops(:\n",
    "while True:\n    pass\n",
]


def _pytest(root, *args):
    return subprocess.run(
        [sys.executable, "-m", "pytest", *args],
        cwd=root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=540,
    )


def _without_table(output: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "course progress" in line)
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith(" "))
    return lines[:start] + lines[end:]


@contextlib.contextmanager
def _files(course, sources):
    """Write ``sources`` (one per exercise) into the workspace, then put the stubs back."""
    originals = {}
    for exercise, source in zip(course.exercises, sources, strict=True):
        path = course.root / exercise.file
        originals[path] = path.read_text(encoding="utf-8")
        path.write_text(source, encoding="utf-8")
    try:
        yield
    finally:
        for path, text in originals.items():
            path.write_text(text, encoding="utf-8")


def test_the_readme_pytest_grades_only_the_learner_and_spoils_nothing(workspace):
    done = _pytest(workspace.root)
    assert done.returncode == 0, done.stdout + done.stderr
    output = done.stdout + done.stderr
    assert "course progress" in output
    assert "reference (src/miniagent)" not in output  # the reference is the contributors' business
    assert len(_without_table(output)) < 40, output
    table = output[output.index("course progress") :].splitlines()
    assert max(len(line) for line in table) <= 80, table  # an 80-column terminal never wraps it
    assert "your agent: all miniagent's so far" in output  # nothing of it is the learner's yet
    assert "part 1 is graded once" not in output  # a day of stubs is not started, never held
    lowered = output.lower()
    assert "mutant" not in lowered and "instructor" not in lowered
    for exercise in workspace.exercises:
        assert f"{exercise.id}  " in output  # every day has its row
        for mutant in exercise.mutants:
            assert mutant.name.lower() not in lowered
            assert mutant.why.lower() not in lowered


def test_grading_never_imports_the_upstream_packages(workspace):
    # Every grader runs to the end on the reference; -X importtime lists every module imported.
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pytest", "--impl=reference"],
        cwd=workspace.root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=540,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    upstream = sorted(m for m in imported if m.split(".")[0] in UPSTREAM)
    assert upstream == [], f"grading imported the upstream packages: {upstream[:5]}"


def test_broken_exercises_fail_once_per_day_and_never_break_the_package_tests(workspace):
    sources = [BROKEN[n % len(BROKEN)] for n in range(len(workspace.exercises))]
    with _files(workspace, sources):
        learner = _pytest(workspace.root, "--grader-timeout=1")
        # the package's own tests of the days broken each way (every kit's run the same way; the
        # whole package is graded once by the contributors' suite itself)
        kits = [e.kit for e in workspace.exercises[: len(BROKEN)]]
        package = _pytest(workspace.root, *kits, "--impl=reference")
    output = learner.stdout + learner.stderr
    assert learner.returncode == 1
    for exercise in workspace.exercises:
        row = next(line for line in output.splitlines() if line.startswith(f"  {exercise.id}  "))
        assert "failing 1 of" in row and "not run" in row, row
    assert output.count("SyntaxError") == sources.count(BROKEN[1])
    assert "During handling of the above exception" not in output
    assert package.returncode == 0, package.stdout[-3000:]


def test_an_endless_loop_inside_a_function_costs_one_timeout(workspace):
    """The loop is in the learner's function, so it runs only when called: one grader times out,
    the day's others are not run, and the agent line at the end leaves that day out."""
    day00 = workspace.exercises[0]
    path = workspace.root / day00.file
    stub = path.read_text(encoding="utf-8")
    looping = stub.replace(
        f'    raise NotStarted("{day00.id}")', "    while True:\n        pass", 1
    )
    sources = [looping] + [
        (workspace.root / e.file).read_text("utf-8") for e in workspace.exercises[1:]
    ]
    with _files(workspace, sources):
        done = _pytest(workspace.root, "--grader-timeout=1")
    output = done.stdout + done.stderr
    row = next(line for line in output.splitlines() if line.startswith(f"  {day00.id}  "))
    assert "failing 1 of" in row and "not run" in row, row
    flowing = " ".join(output.split())  # the agent line wraps at 80 columns
    assert "your agent: all miniagent's so far" in flowing
    assert f"written but waiting until all their graders pass: {day00.id}" in flowing


def test_a_day_of_stubs_is_graded_as_ever_in_strict_mode_never_held(workspace):
    """Strict mode (instructors, the classroom) fails every check of a day of stubs as not
    started, part 1 of a sealed day too: only a written part 1 waits for its day's table."""
    done = _pytest(workspace.root, "--strict-exercises", "-m", "day01")
    output = done.stdout + done.stderr
    row = next(line for line in output.splitlines() if line.startswith("  day01  "))
    assert row.endswith("  not started"), row
    assert "skipped" not in output.splitlines()[-1]  # each check failed, none held
    assert "part 1 is graded once" not in output
