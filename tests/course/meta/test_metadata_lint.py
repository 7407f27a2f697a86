"""Lint of course.toml and the files it names (like rustlings' ``dev check``)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from miniagent_course.grading.course import import_target, load_module, stub_problems

from .conftest import REPO, pristine_source

TARGET = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


def test_course_has_exercises_with_unique_ordered_ids(course):
    ids = [e.id for e in course.exercises]
    assert ids, "course.toml lists no exercises"
    assert all(re.fullmatch(r"day\d\d", i) for i in ids), ids
    assert ids == sorted(set(ids)), "ids must be unique and in course order"


def test_every_exercise_names_existing_files(course):
    for exercise in course.exercises:
        for field in ("lesson", "notebook", "file"):
            path = course.root / getattr(exercise, field)
            assert path.is_file(), f"{exercise.id}: {field} {path} does not exist"
        assert course.grader_files(exercise), (
            f"{exercise.id}: no tests/course/graders/test_{exercise.id}_*.py"
        )


def test_every_exercise_has_progressive_hints(course):
    for exercise in course.exercises:
        assert len(exercise.hints) >= 2, f"{exercise.id} needs at least two hints"
        assert all(h.strip() for h in exercise.hints), f"{exercise.id} has an empty hint"
        assert len(set(exercise.hints)) == len(exercise.hints), f"{exercise.id} repeats a hint"


def test_graded_functions_point_at_real_reference_code(course):
    for exercise in course.exercises:
        assert exercise.functions, f"{exercise.id} grades no function"
        for function in exercise.functions:
            assert TARGET.match(function.reference) and TARGET.match(function.upstream)
            assert callable(import_target(function.reference))


def test_graded_functions_point_at_real_upstream_code(course):
    pytest.importorskip("langgraph")
    for exercise in course.exercises:
        for function in exercise.functions:
            module, _, qualname = function.upstream.partition(":")
            outer = import_target(f"{module}:{qualname.split('.')[0]}")
            assert callable(outer), function.upstream
            if "." in qualname:  # a function defined inside another one, found in the source
                from miniagent_course.site.upstream import symbols

                source = Path(importlib.import_module(module).__file__)
                assert qualname in symbols(source), function.upstream


def test_every_exercise_has_at_least_three_mutants(course):
    for exercise in course.exercises:
        assert len(exercise.mutants) >= 3, f"{exercise.id} needs at least three mutants"
        names = {f.name for f in exercise.functions}
        for mutant in exercise.mutants:
            assert mutant.why.strip(), f"{mutant.file}: say what is wrong in `why`"
            module = load_module(course.root / mutant.file, mutant.file, f"_lint_{mutant.name}")
            assert names & set(vars(module)), f"{mutant.file} defines no graded function"


def test_stubs_have_a_todo_at_the_edit_point_and_no_solution_code(course):
    for exercise in course.exercises:
        problems = stub_problems(pristine_source(course, exercise), exercise)
        assert problems == [], f"{exercise.file}: {problems}"


def test_no_stray_files(course):
    """Every grader, mutant and exercise file belongs to an exercise in course.toml."""
    listed = {e.file for e in course.exercises} | {"exercises/README.md"}
    mutants = {m.file for e in course.exercises for m in e.mutants}
    for path in sorted((REPO / "exercises").glob("*")):
        if path.is_file():
            assert path.relative_to(REPO).as_posix() in listed, f"stray file {path}"
    for path in sorted((REPO / "tests" / "course" / "mutants").rglob("*.py")):
        assert path.relative_to(REPO).as_posix() in mutants, f"{path} is not in course.toml"
    for path in sorted((REPO / "tests" / "graders").glob("test_*.py")):
        assert course.exercise_for_grader(path), f"{path} matches no exercise id"


def test_cli_strings_are_all_used():
    """Every key of text/cli.en.toml is looked up somewhere (no dead strings to translate)."""
    from miniagent_course.text import catalog

    package = Path(import_target("miniagent_course.cli:main").__code__.co_filename).parent
    sources = "".join(p.read_text(encoding="utf-8") for p in package.rglob("*.py"))

    def keys(table, prefix=""):
        for key, value in table.items():
            if isinstance(value, dict):
                yield from keys(value, f"{prefix}{key}.")
            else:
                yield prefix + key

    dynamic = ("status.", "gradescope.")  # looked up as f"status.{status}" / f"gradescope.{...}"
    unused = [
        k
        for k in keys(catalog("cli", "en"))
        if not k.startswith(dynamic) and f'"{k}"' not in sources
    ]
    assert unused == []
