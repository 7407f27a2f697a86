"""Replay the learner's journey: the reference solution, written into the stub, passes
``miniagent check`` end to end, unlocks ``miniagent solution``, and grading leaves it untouched."""

from __future__ import annotations

import subprocess
import sys

import pytest

from miniagent_course.grading.course import stub_problems

from .conftest import solved_source


def _miniagent(root, *args, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "miniagent_course.cli", "--root", str(root), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def solved(workspace):
    """The workspace with every exercise solved by the reference (files restored afterwards)."""
    originals = {}
    for exercise in workspace.exercises:
        path = workspace.root / exercise.file
        originals[path] = path.read_text(encoding="utf-8")
        path.write_text(solved_source(exercise, originals[path]), encoding="utf-8")
    yield workspace
    for path, text in originals.items():
        path.write_text(text, encoding="utf-8")


def test_solved_files_are_no_longer_stubs(solved):
    for exercise in solved.exercises:
        source = (solved.root / exercise.file).read_text(encoding="utf-8")
        assert stub_problems(source, exercise), f"{exercise.file} still looks like a stub"


def test_check_passes_for_every_solved_day(solved):
    before = {e.file: (solved.root / e.file).stat() for e in solved.exercises}
    done = _miniagent(solved.root, "check")
    assert done.returncode == 0, done.stdout + done.stderr
    for exercise in solved.exercises:  # the title, cut with "…" where the 80 columns end
        row = next(line for line in done.stdout.splitlines() if f" {exercise.id}  " in line)
        shown = row.split(f"{exercise.id}  ", 1)[1].rsplit("  ", 1)[0].strip()
        assert exercise.title.startswith(shown.removesuffix("…")) and len(row) <= 80, row
    assert done.stdout.count("✓") == len(solved.exercises), done.stdout
    for exercise in solved.exercises:  # grading never touches the learner's files
        after = (solved.root / exercise.file).stat()
        assert (after.st_mtime_ns, after.st_size) == (
            before[exercise.file].st_mtime_ns,
            before[exercise.file].st_size,
        )
    assert not (solved.root / "exercises" / "__pycache__").exists()


def test_solution_opens_after_the_day_passes(solved):
    exercise = solved.exercises[0]
    shown = _miniagent(solved.root, "solution", exercise.id, "--stacked")
    assert shown.returncode == 0, shown.stdout + shown.stderr
    function = exercise.functions[0]
    assert f"def {function.name}(" in shown.stdout
    module = function.reference.split(":")[0].replace(".", "/")
    assert f"{module}.py:" in shown.stdout
