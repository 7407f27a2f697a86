"""Fixtures for the classroom kit's tests: the course, its plans, and submissions built from its
own files (alternative solutions, stubs) and from :mod:`.submissions`.

The graded days are three of different judgment kinds: day00 ("be the grader"), day05
("predict") and day13 ("extend"), chosen for their short graders.
"""

from __future__ import annotations

import ast
import shutil
import zipfile
from pathlib import Path

import pytest

from miniagent_course.classroom.config import Classroom, parse_config
from miniagent_course.grading.course import Course, load_course

from .submissions import WRONG_FUNCTION

REPO = Path(__file__).resolve().parents[3]
DAYS = ["day00", "day05", "day13"]
PLAN = """\
title = "miniagent test class"
days = ["day00", "day05", "day13"]
points = 10

[day.day05]
points = 20
split = [0.7, 0.3]
visibility = ["visible", "after_due_date"]

[day.day13]
timeout = 3
"""


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    """Nested pytest runs must not inherit options meant for this run."""
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)


@pytest.fixture(scope="session")
def course() -> Course:
    return load_course(REPO)


@pytest.fixture(scope="session")
def plan(course) -> Classroom:
    return parse_config(PLAN, course)


def file_name(course: Course, day: str) -> str:
    return Path(course.exercise(day).file).name


def solution(course: Course, day: str, index: int = 0) -> bytes:
    """The day's ``index``-th alternative solution (its kit's instructor/solutions/)."""
    return course.solution_files(course.exercise(day))[index].read_bytes()


def stub(course: Course, day: str) -> bytes:
    exercise = course.exercise(day)
    return (course.root / exercise.kit / "stub.py").read_bytes()


def wrong_day00(course: Course) -> bytes:
    """An alternative solution of day00 with its function replaced by the `or default` mistake
    (its own be-the-grader tests kept)."""
    source = solution(course, "day00", 0).decode()
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    function = next(
        n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "_get_state_value"
    )
    del lines[function.lineno - 1 : function.end_lineno]
    return ("".join(lines) + WRONG_FUNCTION).encode()


def write_upload(folder: Path, files: dict[str, bytes], layout: str = "exercises") -> Path:
    """An upload of ``files`` (name -> content): in ``exercises/``, loose, or as a repository zip
    as GitHub's "Download ZIP" makes it (one folder down; a name starting with ``/`` is a path
    from the repository's root, anything else goes in ``exercises/``)."""
    folder.mkdir(parents=True, exist_ok=True)
    if layout == "exercises":
        (folder / "exercises").mkdir(exist_ok=True)
        for name, data in files.items():
            (folder / "exercises" / name).write_bytes(data)
    elif layout == "loose":
        for name, data in files.items():
            (folder / name).write_bytes(data)
    elif layout == "repo_zip":
        with zipfile.ZipFile(folder / "miniagent-main.zip", "w") as zipped:
            for name, data in files.items():
                path = name.lstrip("/") if name.startswith("/") else f"exercises/{name}"
                zipped.writestr(f"miniagent-main/{path}", data)
    else:
        raise ValueError(layout)
    return folder


def copy_workspace(course: Course, into: Path) -> Path:
    """A copy of the course's files a learner's repository grades with (``course.toml``, the
    kits), its exercises laid out from the stubs."""
    into.mkdir(parents=True, exist_ok=True)
    shutil.copy2(course.root / "course.toml", into / "course.toml")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(course.root / course.kits, into / course.kits, ignore=ignore)
    (into / "exercises").mkdir()
    for exercise in course.exercises:
        (into / exercise.file).write_bytes(stub(course, exercise.id))
    return into
