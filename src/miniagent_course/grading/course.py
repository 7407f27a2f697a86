"""The course model that grading runs on: ``course.toml`` and the implementations graders grade.

``course.toml`` (repository root) lists every exercise in order; it is the single source of truth
for files, graded functions, hints and mutants. A grader file ``tests/course/graders/test_<id>_*.py``
belongs to exercise ``<id>``. Graders receive an :class:`Implementation` of that exercise:

* ``reference`` -- the functions from ``src/miniagent`` (``module:function`` in course.toml);
* ``learner``   -- the functions from the learner's ``exercises/<file>.py``;
* ``mutant:<path>`` -- the reference, with the functions a known-wrong file defines swapped in.

Learner and mutant files are compiled from their text and executed in a fresh module: grading never
imports them through ``sys.path`` and never writes next to them (no ``__pycache__``).
"""

from __future__ import annotations

import ast
import importlib
import os
import shutil
import subprocess
import sys
import traceback
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from miniagent_course.text import language, say
from miniagent_course.todo import NotStarted

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

COURSE_FILE = "course.toml"
ROOT_ENV = "MINIAGENT_COURSE_ROOT"


@dataclass(frozen=True)
class GradedFunction:
    """One function the learner writes: its name in the exercise file and where it lives."""

    name: str
    reference: str  # "miniagent.prebuilt.chat_agent_executor:_get_state_value"
    upstream: str  # "langgraph.prebuilt.chat_agent_executor:_get_state_value"


@dataclass(frozen=True)
class Mutant:
    """A known-wrong implementation that at least one grader must reject."""

    file: str
    why: str

    @property
    def name(self) -> str:
        return Path(self.file).stem


@dataclass(frozen=True)
class Exercise:
    """One ``[[exercises]]`` entry of course.toml (title and hints in the learner's language)."""

    id: str
    title: str
    lesson: str
    notebook: str
    file: str
    functions: tuple[GradedFunction, ...]
    hints: tuple[str, ...]
    mutants: tuple[Mutant, ...]


@dataclass(frozen=True)
class Course:
    """All exercises, in course order, and the folder they live in."""

    root: Path
    exercises: tuple[Exercise, ...]

    def exercise(self, exercise_id: str) -> Exercise:
        for exercise in self.exercises:
            if exercise.id == exercise_id:
                return exercise
        known = ", ".join(e.id for e in self.exercises)
        raise KeyError(say("course.unknown_exercise", day=exercise_id, known=known))

    def grader_files(self, exercise: Exercise) -> list[Path]:
        """``tests/course/graders/test_<id>_*.py``: the graders of one exercise."""
        return sorted((self.root / "tests" / "course" / "graders").glob(f"test_{exercise.id}_*.py"))

    def exercise_for_grader(self, path: str | os.PathLike[str]) -> Exercise | None:
        name = Path(path).name
        return next((e for e in self.exercises if name.startswith(f"test_{e.id}_")), None)

    def mutant(self, file: str) -> tuple[Exercise, Mutant]:
        wanted = self.relative(file)
        for exercise in self.exercises:
            for mutant in exercise.mutants:
                if mutant.file == wanted:
                    return exercise, mutant
        raise KeyError(say("course.unknown_mutant", file=file))

    def relative(self, path: str | os.PathLike[str]) -> str:
        """``path`` relative to the course root, with forward slashes (as course.toml writes it)."""
        full = (self.root / path).resolve()
        try:
            return full.relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return Path(path).as_posix()


def find_root(start: str | os.PathLike[str] | None = None) -> Path | None:
    """The course root: ``$MINIAGENT_COURSE_ROOT``, else the nearest folder up with course.toml."""
    if os.environ.get(ROOT_ENV):
        return Path(os.environ[ROOT_ENV]).resolve()
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / COURSE_FILE).is_file():
            return folder
    return None


def load_course(root: str | os.PathLike[str] | None = None, lang: str | None = None) -> Course:
    """Read course.toml; ``title`` and ``hints`` come from ``[exercises.<lang>]`` when present."""
    found = Path(root).resolve() if root else find_root()
    if found is None or not (found / COURSE_FILE).is_file():
        raise FileNotFoundError(say("course.no_course_file", cwd=Path.cwd()))
    data = tomllib.loads((found / COURSE_FILE).read_text(encoding="utf-8"))
    lang = lang or language()
    exercises = tuple(_exercise(entry, lang) for entry in data.get("exercises", []))
    return Course(root=found, exercises=exercises)


def _exercise(entry: dict[str, Any], lang: str) -> Exercise:
    translated = entry.get(lang, {}) if lang != "en" else {}
    return Exercise(
        id=entry["id"],
        title=translated.get("title", entry["title"]),
        lesson=entry["lesson"],
        notebook=entry["notebook"],
        file=entry["file"],
        functions=tuple(GradedFunction(**f) for f in entry.get("functions", [])),
        hints=tuple(translated.get("hints", entry.get("hints", []))),
        mutants=tuple(Mutant(**m) for m in entry.get("mutants", [])),
    )


# --- implementations ------------------------------------------------------------------------


class ExerciseLoadError(Exception):
    """A learner or mutant file that cannot be loaded (missing, syntax error, import error...)."""


@dataclass
class Implementation:
    """The graded functions of one exercise, from one source; graders read ``impl.<name>``."""

    kind: str  # "reference" | "learner" | "mutant"
    label: str  # the test id: "reference", "learner", "mutant-day00_always_get"
    exercise: Exercise
    functions: dict[str, Callable[..., Any]]

    def __getattr__(self, name: str) -> Callable[..., Any]:
        try:
            return self.__dict__["functions"][name]
        except KeyError:
            raise AttributeError(name) from None

    def swap_in(self, monkeypatch: Any) -> None:
        """Put these functions where the reference lives, so the real agent calls them.

        ``monkeypatch`` is pytest's fixture: everything is restored when the test ends.
        """
        for function in self.exercise.functions:
            module, _, attr = function.reference.partition(":")
            monkeypatch.setattr(
                importlib.import_module(module), attr, self.functions[function.name]
            )


def import_target(target: str) -> Any:
    """``"package.module:name"`` -> the object."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def load_module(path: Path, display: str, module_name: str) -> types.ModuleType:
    """Compile and run one Python file in a fresh module; problems become ExerciseLoadError."""
    try:
        source = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ExerciseLoadError(say("load.missing", file=display)) from None
    try:
        code = compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError as error:
        detail = "".join(traceback.format_exception_only(type(error), error)).rstrip()
        raise ExerciseLoadError(say("load.syntax_error", file=display, detail=detail)) from None
    module = types.ModuleType(module_name)
    module.__file__ = str(path)
    sys.modules[module_name] = module  # pydantic and dataclasses look their module up here
    try:
        exec(code, module.__dict__)
    except Exception as error:
        detail = _traceback_in(error, str(path))
        raise ExerciseLoadError(say("load.import_error", file=display, detail=detail)) from None
    return module


def _traceback_in(error: BaseException, filename: str) -> str:
    """The traceback of ``error``, from the first frame in ``filename`` on."""
    frames = traceback.extract_tb(error.__traceback__)
    start = next((i for i, f in enumerate(frames) if f.filename == filename), 0)
    lines = traceback.format_list(frames[start:])
    lines += traceback.format_exception_only(type(error), error)
    return "".join(lines).rstrip()


def parse_impl_option(value: str, course: Course) -> list[str]:
    """``--impl`` -> specs: ``reference``, ``learner``, ``mutant:<path>``; ``mutants`` = all."""
    specs: list[str] = []
    for part in (p.strip() for p in value.split(",")):
        if part == "mutants":
            specs += [f"mutant:{m.file}" for e in course.exercises for m in e.mutants]
        elif part.startswith("mutant:"):
            course.mutant(part.removeprefix("mutant:"))  # fail early on an unknown mutant
            specs.append("mutant:" + course.relative(part.removeprefix("mutant:")))
        elif part in ("reference", "learner"):
            specs.append(part)
        elif part:
            raise ValueError(say("plugin.bad_impl", value=part))
    return list(dict.fromkeys(specs))


def impl_label(spec: str) -> str:
    """The test id of a spec: ``mutant:tests/course/mutants/day00/day00_x.py`` -> ``mutant-day00_x``."""
    return (
        f"mutant-{Path(spec.removeprefix('mutant:')).stem}" if spec.startswith("mutant:") else spec
    )


def impl_kind(spec: str) -> str:
    return "mutant" if spec.startswith("mutant:") else spec


def spec_exercise(spec: str, course: Course) -> Exercise | None:
    """The exercise a mutant spec belongs to (None for ``reference`` and ``learner``)."""
    return course.mutant(spec.removeprefix("mutant:"))[0] if spec.startswith("mutant:") else None


def load_implementation(course: Course, exercise: Exercise, spec: str) -> Implementation:
    """Build the implementation ``spec`` names for ``exercise``."""
    if spec == "learner":
        display = exercise.file
        module = load_module(course.root / display, display, f"_miniagent_learner_{exercise.id}")
        functions = {}
        for function in exercise.functions:
            if not callable(getattr(module, function.name, None)):
                raise ExerciseLoadError(say("load.no_function", file=display, name=function.name))
            functions[function.name] = getattr(module, function.name)
        return Implementation("learner", "learner", exercise, functions)
    reference = {f.name: import_target(f.reference) for f in exercise.functions}
    if spec == "reference":
        return Implementation("reference", "reference", exercise, reference)
    display = spec.removeprefix("mutant:")
    module = load_module(course.root / display, display, f"_miniagent_{impl_label(spec)}")
    mutated = {name: getattr(module, name) for name in reference if hasattr(module, name)}
    return Implementation("mutant", impl_label(spec), exercise, {**reference, **mutated})


def load_learner(exercise_id: str, root: str | os.PathLike[str] | None = None) -> Implementation:
    """The learner's current code for one exercise, read fresh from disk (for notebooks)."""
    course = load_course(root)
    return load_implementation(course, course.exercise(exercise_id), "learner")


def not_started_in(error: BaseException | None) -> NotStarted | None:
    """The NotStarted behind ``error``, following causes, contexts and exception groups."""
    seen: set[int] = set()
    todo = [error]
    while todo:
        current = todo.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, NotStarted):
            return current
        context = None if current.__suppress_context__ else current.__context__  # `from None`
        todo += [current.__cause__, context, *getattr(current, "exceptions", ())]
    return None


# --- stubs ----------------------------------------------------------------------------------


def _is_todo_raise(node: ast.stmt, exercise_id: str) -> bool:
    """``raise NotStarted("<exercise_id>")``."""
    call = node.exc if isinstance(node, ast.Raise) else None
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id == "NotStarted"
        and [getattr(a, "value", None) for a in call.args] == [exercise_id]
    )


def _body_without_docstring(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    body = node.body
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant):
        return body[1:]
    return body


def stub_problems(source: str, exercise: Exercise) -> list[str]:
    """Why ``source`` is not a pristine stub of ``exercise`` ([] when it is one).

    A pristine stub holds no solution code: every function body is a docstring plus
    ``raise NotStarted("<id>")``, and each graded function marks that line with a
    ``# TODO(<id>)`` comment just above it.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return [say("lint.syntax_error", detail=str(error))]
    lines = source.splitlines()
    problems = []
    functions = {
        node.name: node
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    }
    for name, node in functions.items():
        body = _body_without_docstring(node)
        if len(body) != 1 or not _is_todo_raise(body[0], exercise.id):
            problems.append(say("lint.has_code", name=name, day=exercise.id))
    for function in exercise.functions:
        node = functions.get(function.name)
        if node is None:
            problems.append(say("lint.missing_function", name=function.name))
            continue
        raise_line = node.body[-1].lineno  # 1-based
        above = lines[raise_line - 2].strip() if raise_line >= 2 else ""
        if not above.startswith(f"# TODO({exercise.id})"):
            problems.append(say("lint.no_todo", name=function.name, day=exercise.id))
    return problems


def todo_line(path: Path, exercise_id: str) -> int | None:
    """The line of the first ``# TODO(<id>)`` in ``path`` (1-based), if any."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    marker = f"TODO({exercise_id})"
    return next((n for n, line in enumerate(lines, 1) if marker in line), None)


class PristineStubError(Exception):
    """The original stub of an exercise cannot be found (no git, no history...)."""


def pristine_stub(course: Course, exercise: Exercise) -> str:
    """The exercise file as the course shipped it: its newest committed version that is a stub.

    Walking back through ``git log`` skips commits where you saved your own work, and picks up
    course updates to the stub. Needs git and the repository's history.
    """
    git = shutil.which("git")
    if git is None:
        raise PristineStubError(say("reset.no_git", file=exercise.file))
    log = subprocess.run(
        [git, "-C", str(course.root), "log", "--format=%H", "--", exercise.file],
        capture_output=True,
        text=True,
    )
    if log.returncode != 0:
        raise PristineStubError(
            say("reset.no_history", file=exercise.file, detail=log.stderr.strip())
        )
    for commit in log.stdout.split():
        shown = subprocess.run(
            [git, "-C", str(course.root), "show", f"{commit}:./{exercise.file}"],
            capture_output=True,
            text=True,
            encoding="utf-8",
        )
        if shown.returncode == 0 and not stub_problems(shown.stdout, exercise):
            return shown.stdout
    raise PristineStubError(say("reset.no_stub_in_history", file=exercise.file))
