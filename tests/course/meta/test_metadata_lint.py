"""Lint of course.toml and the files it names (like rustlings' ``dev check``)."""

from __future__ import annotations

import ast
import fnmatch
import importlib
import inspect
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from miniagent_course.grading.course import (
    ANSWERS,
    import_target,
    load_module,
    load_mutant,
    stub_problems,
)
from miniagent_course.grading.judgments import KINDS
from miniagent_course.site.i18n import LANGS

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
        if judgment is None or not KINDS[judgment.kind].sealed:  # predict, read
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
            answers = f"{(REPO / exercise.kit / ANSWERS).as_posix()}:{function.name}"
            assert TARGET.match(function.reference) or function.reference == answers
            assert TARGET.match(function.upstream)
            assert callable(import_target(function.reference))


# --- a Think part's answer lives on the instructors' side (issue #22) -----------------------

# Kinds whose Think function has no answer of its own to hide: "grader" grades the learner's tests
# (the reference's are instructor/reference_tests.py), "extend" a policy by its contract.
NO_ANSWER_KINDS = {"grader", "extend"}
LEARNER_SIDE = ("kit.toml", "stub.py", "stub.*.py", "cases.py", "graders/*.py")


def _think_function(exercise):
    judgment = exercise.judgment
    if judgment is None or judgment.kind in NO_ANSWER_KINDS:
        return None
    return next(f for f in exercise.functions if f.name == judgment.function)


def answer_on_the_learner_side(kit: Path, name: str) -> list[str]:
    """Where the learner's side of ``kit`` (kit.toml, stub, cases.py, graders) holds or names the
    reference of its Think function ``name``: kit.toml giving it a ``reference``, cases.py
    defining ``name`` (where the references of the other functions live), an import of ``name``,
    ``<cases>.name``, or a mention of the answers' file or of ``cases.name``."""
    data = tomllib.loads((kit / "kit.toml").read_text(encoding="utf-8"))
    entries = [f for f in data.get("functions", []) if f.get("name") == name]
    problems = [f"kit.toml gives {name} a reference" for f in entries if "reference" in f]
    named = ("instructor/answers", "instructor.answers", f"cases.{name}", f"cases:{name}")
    for path in sorted(p for pattern in LEARNER_SIDE for p in kit.glob(pattern)):
        where = path.relative_to(kit).as_posix()
        text = path.read_text(encoding="utf-8")
        problems += [f"{where} names {word}" for word in named if word in text]
        if path.suffix != ".py":
            continue
        tree = ast.parse(text)
        cases = set()  # the names the kit's cases module is bound to here
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name == name:
                        problems.append(f"{where} imports {name} from {node.module}")
                    if alias.name == "cases":
                        cases.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                cases |= {a.asname for a in node.names if a.name.endswith(".cases") and a.asname}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == name
                and isinstance(node.value, ast.Name)
                and node.value.id in cases
            ):
                problems.append(f"{where} reads {node.value.id}.{name}")
        if where != "cases.py":  # the stub's is the learner's; a grader's helpers are its own
            continue
        for node in tree.body:
            targets = [node] if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined = {getattr(t, "name", None) or getattr(t, "id", None) for t in targets}
            if name in defined:
                problems.append(f"{where} defines {name}")
    return problems


def test_no_learner_side_holds_or_names_the_think_answer_and_the_engine_finds_it(course):
    """A Think part's reference answer is its kit's instructor/answers.py, found by the engine:
    kit.toml names no reference for it, and no learner file holds or points at it."""
    checked = []
    for exercise in course.exercises:
        function = _think_function(exercise)
        if function is None:
            continue
        kit = REPO / exercise.kit
        problems = answer_on_the_learner_side(kit, function.name)
        assert problems == [], f"{exercise.id}: {problems}"
        answers = kit / ANSWERS
        assert function.reference == f"{answers.as_posix()}:{function.name}", exercise.id
        reference = import_target(function.reference)
        assert Path(inspect.getsourcefile(reference)) == answers, exercise.id
        checked.append(exercise.id)
    assert len(checked) >= 8, checked  # every predict day at least


def test_the_learner_side_check_finds_an_answer_held_or_named(tmp_path):
    kit = tmp_path / "day08"
    shutil.copytree(REPO / "src/miniagent_course/kits/day08", kit)
    assert answer_on_the_learner_side(kit, "predictions") == []
    toml = kit / "kit.toml"
    entry = 'name = "predictions"\n'
    toml.write_text(
        toml.read_text().replace(entry, entry + 'reference = "x.y.cases:predictions"\n')
    )
    with (kit / "cases.py").open("a") as cases:
        cases.write("\n\ndef predictions():\n    return {}\n")
    grader = next((kit / "graders").glob("test_*.py"))
    with grader.open("a") as planted:
        planted.write(
            "\nfrom miniagent_course.kits.day08 import cases as truth\n"
            "from miniagent_course.kits.day08.instructor.answers import predictions\n"
            "TABLE = truth.predictions()\n"
        )
    stub = kit / "stub.py"
    stub.write_text(stub.read_text() + "\n# the answer: instructor/answers.py\n")
    assert sorted(answer_on_the_learner_side(kit, "predictions")) == sorted(
        [
            "kit.toml gives predictions a reference",
            "kit.toml names cases:predictions",
            "cases.py defines predictions",
            f"graders/{grader.name} names instructor.answers",
            f"graders/{grader.name} imports predictions from "
            "miniagent_course.kits.day08.instructor.answers",
            f"graders/{grader.name} reads truth.predictions",
            "stub.py names instructor/answers",
        ]
    )


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
    r"(__init__\.py|kit\.toml|stub(\.zh)?\.py|cases\.py|variants\.py|graders/test_\w+\.py"
    r"|instructor/(answers\.py|reference_tests\.py|recorded\.json|test_\w+\.py"
    r"|mutants/\w+\.(patch|py)|solutions/\w+\.py))"
)


def test_no_stray_files(course):
    """Every exercise file belongs to an exercise, and every file of a kit has a known role."""
    listed = {e.file for e in course.exercises} | {"exercises/README.md", "exercises/conftest.py"}
    listed.add("exercises/README.zh.md")  # its Chinese twin
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
        allowed |= {  # and their translated twins (course/days/day00-welcome.zh.md, ...)
            re.sub(r"(\.\w+)$", rf".{lang}\1", path) for path in tuple(allowed) for lang in LANGS
        }
        stray = [
            path
            for path in files
            if exercise.id in path
            and path not in allowed
            and not path.startswith(f"{exercise.kit}/")
        ]
        assert stray == [], f"{exercise.id} lives outside its page, notebook and kit: {stray}"
        assert {exercise.lesson, exercise.notebook, f"{exercise.kit}/kit.toml"} <= set(files)


def _parts(exercise) -> dict[str, set[str]]:
    """The names each part's answer defines: Rebuild (the graded functions that are not the
    Think part's) and Think (its functions, or ``test_*`` functions on a "be the grader" day)."""
    judgment = exercise.judgment
    graded = {f.name for f in exercise.functions}
    if judgment.kind == "grader":
        return {"rebuild": graded, "think": {"test_*"}}
    think = {judgment.function} if judgment.kind != "extend" else graded - set(exercise.mine)
    return {"rebuild": graded - think, "think": think}


def _covers(defined: set[str], names: set[str]) -> bool:
    return all(any(fnmatch.fnmatch(d, name) for d in defined) for name in names)


def test_every_part_has_two_alternative_solutions(course):
    """Issue #22: two alternative solutions per part, Rebuild and Think, each a file of its
    kit's ``instructor/solutions/`` that writes every function of the part."""
    short = []
    for exercise in course.exercises:
        defined = []
        for path in course.solution_files(exercise):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            defined.append({n.name for n in tree.body if isinstance(n, ast.FunctionDef)})
        for part, names in _parts(exercise).items():
            if names and sum(_covers(d, names) for d in defined) < 2:
                short.append(f"{exercise.id} {part} ({', '.join(sorted(names))})")
    assert not short, f"fewer than two alternative solutions write: {short}"
