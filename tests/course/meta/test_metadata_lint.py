"""Lint of course.toml and the files it names (like rustlings' ``dev check``)."""

from __future__ import annotations

import ast
import fnmatch
import importlib
import re
import subprocess
from pathlib import Path

import pytest

from miniagent_course.grading.course import import_target, load_module, load_mutant, stub_problems

from .conftest import REPO, pristine_source

TARGET = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")


def test_course_has_exercises_with_unique_ordered_ids(course):
    ids = [e.id for e in course.exercises]
    assert ids, "no day kit"
    assert all(re.fullmatch(r"day\d\d", i) for i in ids), ids
    assert ids == sorted(set(ids)), "ids must be unique and in course order"


def test_every_exercise_names_existing_files(course):
    for exercise in course.exercises:
        for field in ("lesson", "notebook", "file"):
            path = course.root / getattr(exercise, field)
            assert path.is_file(), f"{exercise.id}: {field} {path} does not exist"
        assert course.grader_files(exercise), (
            f"{exercise.id}: no {exercise.kit}/graders/test_{exercise.id}_*.py"
        )


def test_every_exercise_has_progressive_hints(course):
    for exercise in course.exercises:
        assert len(exercise.hints) >= 2, f"{exercise.id} needs at least two hints"
        assert all(h.strip() for h in exercise.hints), f"{exercise.id} has an empty hint"
        assert len(set(exercise.hints)) == len(exercise.hints), f"{exercise.id} repeats a hint"


def grader_test_names(course, exercise) -> set[str]:
    """The names of a day's grader tests, as pytest names them (without their parameters): its
    ``def test_*`` functions and the ``test_*`` names a grader file assigns
    (``test_predictions_are_..., test_prediction = judgment_graders(...)``)."""
    names = set()
    for path in course.grader_files(exercise):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names |= {
                    n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)
                }
    return {name for name in names if name.startswith("test_")}


def test_every_hint_is_tied_to_real_checks_of_its_day(course):
    """`miniagent hint` follows the failing checks: each hint names the grader tests it helps
    with, and each name (a glob) matches a test of its day, so renaming a grader cannot leave a
    hint tied to nothing."""
    for exercise in course.exercises:
        tests = grader_test_names(course, exercise)
        assert len(exercise.hint_checks) == len(exercise.hints), exercise.id
        for number, (hint, globs) in enumerate(
            zip(exercise.data["hints"], exercise.hint_checks, strict=True), 1
        ):
            where = f"{exercise.id} hint {number}"
            assert isinstance(hint, dict) and set(hint) == {"text", "checks"}, (
                f'{where}: write it as {{ checks = [...], text = "..." }}'
            )
            assert globs and all(isinstance(g, str) for g in globs), f"{where}: no checks"
            for glob in globs:
                matched = fnmatch.filter(sorted(tests), glob)
                assert matched, f"{where}: {glob!r} names no grader test of {exercise.id}"


def test_a_hint_about_predictions_is_tied_to_the_whole_table(course):
    """Which hint comes must never tell which prediction is wrong: a hint tied to the prediction
    tests is tied to all of them (the table's test and every case), never to one case."""
    for exercise in course.exercises:
        judgment = exercise.judgment
        if judgment is None or judgment.kind != "predict":
            continue
        tests = grader_test_names(course, exercise)
        table = {name for name in tests if name.startswith("test_prediction")}
        assert table, f"{exercise.id}: no test_prediction* grader"  # the table and its cases
        for number, globs in enumerate(exercise.hint_checks, 1):
            tied = {name for glob in globs for name in fnmatch.filter(sorted(tests), glob)}
            assert not tied & table or table <= tied, f"{exercise.id} hint {number}: {tied}"


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


def test_every_exercise_has_at_least_three_mutants_that_load(course):
    for exercise in course.exercises:
        assert len(exercise.mutants) >= 3, f"{exercise.id} needs at least three mutants"
        references = {f.name: import_target(f.reference) for f in exercise.functions}
        for mutant in exercise.mutants:
            assert mutant.why.strip(), f"{mutant.key}: say what is wrong in `why`"
            assert mutant.function in references, f"{mutant.key}: no graded {mutant.function!r}"
            if mutant.part == "judgment":  # a weak test suite for a "be the grader" part
                assert exercise.judgment and exercise.judgment.kind == "grader", mutant.key
                tests = load_module(REPO / mutant.file, mutant.file, f"_lint_{mutant.key}")
                assert any(n.startswith("test_") for n in vars(tests)), f"{mutant.key}: no tests"
                continue
            mutated = load_mutant(course, exercise, mutant)  # ExerciseLoadError names it
            assert mutant.function in mutated, f"{mutant.key} does not define {mutant.function}"
            assert mutated[mutant.function] is not references[mutant.function]


def test_mutants_have_a_why_a_graded_function_and_unique_keys(course):
    mutants = [m for e in course.exercises for m in e.mutants]
    keys = [m.key for m in mutants]
    assert len(set(keys)) == len(keys), "two mutants share a day and a name"
    for exercise in course.exercises:
        graded = {f.name for f in exercise.functions}
        for mutant in exercise.mutants:
            assert mutant.why.strip(), f"{mutant.file}: start it with a `why:` line"
            assert mutant.function in graded, f"{mutant.file}: `function:` names no graded function"


def test_every_mutant_is_a_patch_unless_its_entry_says_why(course):
    """A mutant is the reference plus one edit; a whole file must say why no patch can do."""
    for mutant in (m for e in course.exercises for m in e.mutants):
        if not mutant.is_patch:
            assert mutant.whole_file_because.strip(), f"{mutant.key}: say `whole_file_because`"
            assert not mutant.patches, f"{mutant.key}: a whole-file mutant has no patch"
            continue
        assert mutant.patches, f"{mutant.key}: give the patch at least one hunk"
        assert not mutant.whole_file_because, f"{mutant.key} is a patch, not a whole file"
        for patch in mutant.patches:
            assert patch.replace != patch.with_, f"{mutant.key}: a patch that changes nothing"


def test_stubs_have_a_todo_at_the_edit_point_and_no_solution_code(course):
    for exercise in course.exercises:
        problems = stub_problems(pristine_source(course, exercise), exercise)
        assert problems == [], f"{exercise.file}: {problems}"


KIT_FILES = re.compile(
    r"(__init__\.py|kit\.toml|stub\.py|cases\.py|graders/test_\w+\.py"
    r"|instructor/(reference_tests\.py|recorded\.json|test_\w+\.py"
    r"|mutants/\w+\.(patch|py)|solutions/\w+\.py))"
)


def test_no_stray_files(course):
    """Every exercise file belongs to an exercise, and every file of a kit has a known role."""
    listed = {e.file for e in course.exercises} | {"exercises/README.md", "exercises/conftest.py"}
    for path in sorted((REPO / "exercises").glob("*")):
        if path.is_file():
            assert path.relative_to(REPO).as_posix() in listed, f"stray file {path}"
    for exercise in course.exercises:
        kit = REPO / exercise.kit
        for path in sorted(kit.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                role = path.relative_to(kit).as_posix()
                assert KIT_FILES.fullmatch(role), f"{exercise.kit}/{role}: no role in a day kit"
        graders = course.grader_files(exercise)
        assert all(g.name.startswith(f"test_{exercise.id}_") for g in graders), graders


def test_cli_strings_are_all_used():
    """Every key of text/cli.en.toml is looked up somewhere (no dead strings to translate)."""
    from miniagent_course.text import catalog

    package = Path(import_target("miniagent_course.cli:main").__code__.co_filename).parent
    sources = "".join(p.read_text(encoding="utf-8") for p in package.rglob("*.py"))
    sources += (REPO / "exercises" / "conftest.py").read_text(encoding="utf-8")  # pytest in there

    def keys(table, prefix=""):
        for key, value in table.items():
            if isinstance(value, dict):
                yield from keys(value, f"{prefix}{key}.")
            else:
                yield prefix + key

    # looked up as f"status.{status}", f"gradescope.{...}", f"model.{key}" (models.py's _say)
    dynamic = ("status.", "gradescope.", "model.")
    unused = [
        k
        for k in keys(catalog("cli", "en"))
        if not k.startswith(dynamic) and f'"{k}"' not in sources and f"'{k}'" not in sources
    ]
    assert unused == []


def _tracked(root: Path) -> list[str]:
    """The course's files: git's list in a checkout, else every file outside the usual caches."""
    done = subprocess.run(
        ["git", "ls-files"], cwd=root, capture_output=True, text=True, check=False
    )
    if done.returncode == 0 and done.stdout:
        return done.stdout.splitlines()
    skip = {".git", ".venv", "node_modules", "site", "exercises", "__pycache__", ".miniagent"}
    return [
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and not skip & set(p.relative_to(root).parts)
    ]


def test_a_day_lives_in_its_page_its_notebook_and_its_kit(course):
    """The files whose path names a day are its page, its notebook and its kit folder."""
    files = _tracked(REPO)
    for exercise in course.exercises:
        allowed = {exercise.lesson, exercise.notebook}
        stray = [
            path
            for path in files
            if exercise.id in path
            and path not in allowed
            and not path.startswith(f"{exercise.kit}/")
        ]
        assert stray == [], f"{exercise.id} lives outside its page, notebook and kit: {stray}"
        assert {exercise.lesson, exercise.notebook, f"{exercise.kit}/kit.toml"} <= set(files)
