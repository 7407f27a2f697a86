"""The course model that grading runs on: the day kits and the implementations graders grade.

``course.toml`` (repository root) marks the course and names the folder of the day kits; each
kit (``<kits>/<id>/``) holds its day's ``kit.toml`` (title, files, graded functions, hints,
judgment), ``stub.py``, ``graders/``, and, for instructors, ``instructor/`` (mutants, alternative
solutions, the reference's tests, recordings). The days are the kits, in the order of their
folder names. Graders receive an :class:`Implementation` of their kit's exercise:

* ``reference`` -- the functions from ``src/miniagent`` (``module:function`` in kit.toml); the
  Think function's from its kit's ``instructor/answers.py``, which kit.toml does not name;
* ``learner``   -- the functions from the learner's ``exercises/<file>.py``;
* ``mutant:<key>`` -- the reference, with one function replaced by a known-wrong version: a patch
  of its source in ``instructor/mutants/<name>.patch`` (see :mod:`.mutants`);
* ``solution:<path>`` -- an alternative solution, ``instructor/solutions/<name>.py``.

Learner and mutant files are compiled from their text and executed in a fresh module: grading never
imports them through ``sys.path`` and never writes next to them (no ``__pycache__``).
"""

from __future__ import annotations

import ast
import functools
import importlib
import os
import re
import sys
import traceback
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from miniagent_course.grading.closures import written_function
from miniagent_course.grading.mutants import (
    Mutant,
    PatchError,
    maker_with_inner,
    patched_function,
    read_mutants,
    target_function,
)
from miniagent_course.handover import COURSE_FILE, ROOT_ENV
from miniagent_course.text import language, say
from miniagent_course.todo import NotStarted

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

KIT_FILE = "kit.toml"
NOTEBOOK_IMPL_ENV = "MINIAGENT_NOTEBOOK_IMPL"  # "reference": notebooks use the reference


@dataclass(frozen=True)
class GradedFunction:
    """One function the learner writes: its name in the exercise file and where it lives."""

    name: str
    # "miniagent.prebuilt.chat_agent_executor:_get_state_value"; the Think function's is the file
    # "<course>/<kit>/instructor/answers.py:predictions", which the engine finds (ANSWERS)
    reference: str
    upstream: str  # "langgraph.prebuilt.chat_agent_executor:_get_state_value"


@dataclass(frozen=True)
class Judgment:
    """The day's second part, the one that needs judgment (kit.toml's ``[judgment]``).

    ``kind`` is ``predict`` (a table of predictions graded against real runs), ``read`` (the
    same, about the upstream function ``read`` names, "module:qualname", which no page explains),
    ``spot`` (an input per changed copy of a function, on which it differs from upstream),
    ``repair`` (a misbehaving application fixed in application code), ``grader`` (the
    learner writes ``test_*`` functions that take ``function``; they must pass on the reference
    and together fail at least ``catch`` of the day's mutants of it) or ``extend`` (a variant or
    policy with its own contract). ``reference`` is the file of the reference's own tests, for a
    ``grader`` part. The kinds are written in :mod:`~miniagent_course.grading.judgments`.
    """

    kind: str
    title: str
    function: str = ""
    catch: int = 0
    # a predict/read part's real outcome in the learner's language ([zh.judgment]): templates of
    # ``str.format`` with ``actual``, in place of the graders' own ``gave`` and ``raised``
    gave: str = ""
    raised: str = ""
    reference: str = ""
    read: str = ""


@dataclass(frozen=True)
class Exercise:
    """One day, from its kit's ``kit.toml`` (title and hints in the learner's language)."""

    id: str
    title: str
    lesson: str
    notebook: str
    file: str
    functions: tuple[GradedFunction, ...]
    hints: tuple[str, ...]
    judgment: Judgment | None = None
    kit: str = ""  # the kit's folder, relative to the course root
    mine: tuple[str, ...] = ()  # the graded functions that join the learner's agent
    installers: tuple[tuple[str, str], ...] = ()  # (function, "module:install_function")
    data: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # kit.toml
    hint_checks: tuple[tuple[str, ...], ...] = ()  # per hint: the grader tests it helps with
    # per grader test (its function's name): what it checks, in the learner's language when the
    # kit translates it (``[zh.checks]``); empty in English, where the grader's own sentence says it
    checks: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    course_root: Path | None = field(default=None, compare=False, repr=False)

    @functools.cached_property
    def mutants(self) -> tuple[Mutant, ...]:
        """This day's mutants: its kit's ``instructor/mutants/``, read when first asked for (a
        learner's commands never need them)."""
        if self.course_root is None or not self.kit:
            return ()
        folder = self.course_root / self.kit / "instructor" / "mutants"
        return read_mutants(folder, self.id, self.course_root)

    @property
    def solutions(self) -> str:
        """The folder of the day's alternative solutions (``instructor/solutions``)."""
        return f"{self.kit}/instructor/solutions"


@dataclass(frozen=True)
class Course:
    """All exercises, in course order, and the folder they live in."""

    root: Path
    exercises: tuple[Exercise, ...]
    kits: str = ""  # the folder of the day kits, relative to root (course.toml)

    def exercise(self, exercise_id: str) -> Exercise:
        """The exercise a learner names: ``day05``, ``day5``, ``05`` and ``5`` are the same, and
        so is its file, ``exercises/day05_prompt.py`` (what a message about the file shows)."""
        number = re.fullmatch(r"(?:day)?0*(\d+)", exercise_id.strip().lower())
        wanted = f"day{int(number.group(1)):02d}" if number else exercise_id
        for exercise in self.exercises:
            if exercise.id == wanted or Path(exercise.file).as_posix() == Path(wanted).as_posix():
                return exercise
        known = ", ".join(e.id for e in self.exercises)
        raise KeyError(say("course.unknown_exercise", day=exercise_id, known=known))

    def grader_files(self, exercise: Exercise) -> list[Path]:
        """``<kit>/graders/test_*.py``: the graders of one exercise."""
        return sorted((self.root / exercise.kit / "graders").glob("test_*.py"))

    def exercise_for_grader(self, path: str | os.PathLike[str]) -> Exercise | None:
        """The exercise whose kit's ``graders/`` holds ``path`` (None for any other file)."""
        relative = self.relative(path)
        return next((e for e in self.exercises if relative.startswith(f"{e.kit}/graders/")), None)

    def exercise_at(self, path: str | os.PathLike[str]) -> Exercise | None:
        """The exercise whose kit folder holds ``path``."""
        relative = self.relative(path)
        return next((e for e in self.exercises if relative.startswith(f"{e.kit}/")), None)

    def solution_files(self, exercise: Exercise) -> list[Path]:
        """The day's alternative solutions: ``<kit>/instructor/solutions/*.py``."""
        return sorted((self.root / exercise.solutions).glob("*.py"))

    def mutant(self, wanted: str) -> tuple[Exercise, Mutant]:
        """A mutant by key (``day05_wrong_error``), by name if unique, or a whole file's path."""
        path = self.relative(wanted)
        found = [
            (exercise, mutant)
            for exercise in self.exercises
            for mutant in exercise.mutants
            if wanted in (mutant.key, mutant.name) or (mutant.file and mutant.file == path)
        ]
        if len(found) != 1:
            raise KeyError(say("course.unknown_mutant", file=wanted))
        return found[0]

    def relative(self, path: str | os.PathLike[str]) -> str:
        """``path`` relative to the course root, with forward slashes (as kit.toml writes it)."""
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
    """Read course.toml and every kit's kit.toml, in the order of the kits' folder names;
    ``title`` and ``hints`` come from a kit's ``[<lang>]`` table when present."""
    found = Path(root).resolve() if root else find_root()
    if found is None or not (found / COURSE_FILE).is_file():
        raise FileNotFoundError(say("course.no_course_file", cwd=Path.cwd()))
    data = tomllib.loads((found / COURSE_FILE).read_text(encoding="utf-8"))
    lang = lang or language()
    kits = data.get("kits", "")
    folders = sorted(p.parent for p in (found / kits).glob(f"*/{KIT_FILE}")) if kits else []
    exercises = tuple(_exercise(found, folder, lang) for folder in folders)
    return Course(root=found, exercises=exercises, kits=kits)


_SHARED: dict[Path, Course] = {}  # shared_course's copies, by root


def shared_course(root: str | os.PathLike[str]) -> Course:
    """The course at ``root``, loaded once per process: a grading run's plugin and its graders
    (``judgments``) read one copy instead of each its own."""
    found = Path(root).resolve()
    if found not in _SHARED:
        _SHARED[found] = load_course(found)
    return _SHARED[found]


def share_course(course: Course) -> None:
    """Make ``course`` the copy :func:`shared_course` gives for its root (a grading run forked
    from the ``miniagent`` command keeps the course the command loaded; see ``grading/run.py``)."""
    _SHARED[course.root.resolve()] = course


def _exercise(root: Path, folder: Path, lang: str) -> Exercise:
    entry = tomllib.loads((folder / KIT_FILE).read_text(encoding="utf-8"))
    translated = entry.get(lang, {}) if lang != "en" else {}
    kit = folder.relative_to(root).as_posix()
    judgment = _judgment(entry.get("judgment"), translated.get("judgment", {}), kit)
    functions = tuple(_graded(f, judgment, folder) for f in entry.get("functions", []))
    mine = entry.get("mine", {})
    return Exercise(
        id=folder.name,
        title=translated.get("title", entry["title"]),
        lesson=entry["lesson"],
        notebook=entry["notebook"],
        file=entry["file"],
        functions=functions,
        hints=_hint_texts(entry.get("hints", []), translated.get("hints")),
        judgment=judgment,
        kit=kit,
        mine=tuple(mine.get("functions", ())),
        installers=tuple(mine.get("install", {}).items()),
        data=entry,
        hint_checks=tuple(_hint_checks(h) for h in entry.get("hints", [])),
        checks=dict(translated.get("checks", {})),
        course_root=root,
    )


def _hint_texts(hints: list[Any], translated: list[Any] | None) -> tuple[str, ...]:
    """A kit's hints as text: each is a string or a table ``{ text = "...", checks = [...] }``;
    a translation (``[zh] hints``) gives the same hints in the same order, text only."""
    return tuple(h["text"] if isinstance(h, dict) else h for h in translated or hints)


def _hint_checks(hint: Any) -> tuple[str, ...]:
    """The grader tests a hint helps with: ``checks``, names of test functions (``*`` globs,
    matched without their parameters); none for a plain string, a hint for the whole day."""
    return tuple(hint.get("checks", ())) if isinstance(hint, dict) else ()


REFERENCE_TESTS = "instructor/reference_tests.py"  # a "be the grader" part's answer, in its kit
ANSWERS = "instructor/answers.py"  # the reference of any other kind's Think function, in its kit


def _graded(entry: dict[str, Any], judgment: Judgment | None, folder: Path) -> GradedFunction:
    """One ``[[functions]]`` entry. A Think function (the ``[judgment] function``, or an extend
    day's other functions) without a ``reference`` has its kit's ``instructor/answers.py``'s:
    kit.toml, stub, graders and ``cases.py`` are the learner's side, and none of them holds the
    answer. (A "grader" day's answer is its reference tests, :data:`REFERENCE_TESTS`.)"""
    fields = dict(entry)
    think = judgment is not None and judgment.kind != "grader"
    if "reference" not in fields and think:
        fields["reference"] = f"{(folder / ANSWERS).as_posix()}:{fields.get('name')}"
    return GradedFunction(**fields)


def _judgment(
    entry: dict[str, Any] | None, translated: dict[str, Any], kit: str
) -> Judgment | None:
    """The ``[judgment]`` table; a "grader" part's reference tests are its kit's
    ``instructor/reference_tests.py`` (kit.toml, which a learner opens, does not name them)."""
    if not entry:
        return None
    fields = {**entry, **translated}
    if fields.get("kind") == "grader":
        fields["reference"] = f"{kit}/{REFERENCE_TESTS}"
    return Judgment(**fields)


# --- implementations ------------------------------------------------------------------------


class ExerciseLoadError(Exception):
    """A learner or mutant file that cannot be loaded (missing, syntax error, import error...)."""


@dataclass
class Implementation:
    """The graded functions of one exercise, from one source; graders read ``impl.<name>``."""

    kind: str  # "reference" | "learner" | "mutant"
    label: str  # the test id: "reference", "learner", "mutant-day00_always_get"
    exercise: Exercise = field(repr=False)
    functions: dict[str, Callable[..., Any]] = field(repr=False)
    course: Course | None = field(default=None, repr=False)
    tests_module: types.ModuleType | None = field(default=None, repr=False)  # "be the grader"

    @property
    def tests(self) -> list[tuple[str, Callable[..., Any]]]:
        """The ``test_*`` functions of a "be the grader" part, in the order they are written."""
        module = self.tests_module
        if module is None:
            return []
        found = [
            (name, value)
            for name, value in vars(module).items()
            if name.startswith("test_") and callable(value)
        ]
        return sorted(
            found,
            key=lambda pair: (
                getattr(pair[1], "__code__", None) and pair[1].__code__.co_firstlineno or 0
            ),
        )

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
            owner, attr = reference_owner(function.reference)
            monkeypatch.setattr(owner, attr, self.functions[function.name])


def import_target(target: str) -> Any:
    """``"package.module:name"`` -> the object; ``"package.module:Class.method"`` -> the method;
    ``"<path>/answers.py:name"`` -> ``name`` of that file (a kit's ``instructor/answers.py``)."""
    owner, attr = reference_owner(target)
    return getattr(owner, attr)


def reference_owner(target: str) -> tuple[Any, str]:
    """Where ``target`` lives and its last name: ``(module, "name")``, or for a method
    (``"miniagent.runnables.base:RunnableBinding.bind"``, Day 04) ``(the class, "bind")``."""
    module, _, qualname = target.rpartition(":")  # a file's path may hold a drive's colon
    *path, attr = qualname.split(".")
    owner: Any = (
        _answers(Path(module)) if module.endswith(".py") else importlib.import_module(module)
    )
    for name in path:
        owner = getattr(owner, name)
    return owner, attr


_ANSWERS: dict[Path, types.ModuleType] = {}  # each kit's instructor/answers.py, loaded once


def _answers(path: Path) -> types.ModuleType:
    """A kit's ``instructor/answers.py``, run once per process; a missing one fails in one
    sentence (it is not a learner's file: ``miniagent reset`` cannot bring it back)."""
    if path not in _ANSWERS:
        if not path.is_file():
            raise ExerciseLoadError(say("load.no_answers", file=path.as_posix()))
        name = f"_miniagent_answers_{path.parent.parent.name}"
        _ANSWERS[path] = load_module(path, path.as_posix(), name)
    return _ANSWERS[path]


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
    """``--impl`` -> specs: ``reference``, ``learner``, ``mutant:<key>``; ``mutants`` = all.

    ``mutant:`` takes a mutant's key (``day00_or_default``), its name if unique, or the path of
    a whole-file mutant; the spec always carries the key.
    """
    specs: list[str] = []
    for part in (p.strip() for p in value.split(",")):
        if part == "mutants":
            specs += [f"mutant:{m.key}" for e in course.exercises for m in e.mutants]
        elif part.startswith("mutant:"):
            _, mutant = course.mutant(part.removeprefix("mutant:"))  # fails early if unknown
            specs.append(f"mutant:{mutant.key}")
        elif part == "solutions":
            files = [f for e in course.exercises for f in course.solution_files(e)]
            specs += [f"solution:{course.relative(f)}" for f in files]
        elif part.startswith("solution:"):
            path = course.relative(part.removeprefix("solution:"))
            if course.exercise_at(path) is None:  # fails early if no kit holds the file
                raise ValueError(say("plugin.bad_impl", value=part))
            specs.append(f"solution:{path}")
        elif part in ("reference", "learner"):
            specs.append(part)
        elif part:
            raise ValueError(say("plugin.bad_impl", value=part))
    return list(dict.fromkeys(specs))


def impl_label(spec: str) -> str:
    """The test id: ``mutant:day00_x`` -> ``mutant-day00_x``; ``solution:<kits>/day00/instructor/
    solutions/y.py`` -> ``solution-day00_y``."""
    if spec.startswith("mutant:"):
        return f"mutant-{spec.removeprefix('mutant:')}"
    if spec.startswith("solution:"):
        path = Path(spec.removeprefix("solution:"))
        return f"solution-{path.parents[2].name}_{path.stem}"
    return spec


def impl_kind(spec: str) -> str:
    return spec.partition(":")[0] if ":" in spec else spec


def spec_exercise(spec: str, course: Course) -> Exercise | None:
    """The exercise a mutant or solution spec belongs to (None for reference and learner)."""
    if spec.startswith("mutant:"):
        return course.mutant(spec.removeprefix("mutant:"))[0]
    if spec.startswith("solution:"):
        return course.exercise_at(spec.removeprefix("solution:"))
    return None


def load_implementation(course: Course, exercise: Exercise, spec: str) -> Implementation:
    """Build the implementation ``spec`` names for ``exercise``."""
    if spec == "learner" or spec.startswith("solution:"):  # a solution: a learner's file, solved
        display = exercise.file if spec == "learner" else spec.removeprefix("solution:")
        name = f"_miniagent_{impl_label(spec)}_{exercise.id}"
        module = load_module(course.root / display, display, name)
        functions = {f.name: _graded_function(module, f.name) for f in exercise.functions}
        missing = [name for name, value in functions.items() if not callable(value)]
        if len(missing) == len(functions):  # none of them: renamed or deleted, say which
            raise ExerciseLoadError(say("load.no_function", file=display, name=missing[0]))
        for function in exercise.functions:
            if function.name not in missing:
                continue
            if spec == "learner":  # a part your file predates (the course added it): not started
                functions[function.name] = _not_started(function.name, exercise.id)
            else:  # a solution proves the parts it writes; the others are the reference's
                functions[function.name] = import_target(function.reference)
        kind = impl_kind(spec)
        return Implementation(kind, impl_label(spec), exercise, functions, course, module)
    reference = {f.name: import_target(f.reference) for f in exercise.functions}
    tests = _reference_tests(course, exercise)
    if spec == "reference":
        return Implementation("reference", "reference", exercise, reference, course, tests)
    _, mutant = course.mutant(spec.removeprefix("mutant:"))
    if mutant.part == "judgment":  # a weak test suite: the reference functions, its own tests
        module = load_module(course.root / mutant.file, mutant.file, f"_miniagent_{mutant.key}")
        return Implementation("mutant", impl_label(spec), exercise, reference, course, module)
    mutated = load_mutant(course, exercise, mutant)
    label = impl_label(spec)
    return Implementation("mutant", label, exercise, {**reference, **mutated}, course, tests)


def _graded_function(module: types.ModuleType, name: str) -> Any:
    """``module.<name>``; a function written there but decorated (``@dynamic_prompt`` turns it
    into a middleware object) is graded as the function its author wrote."""
    value = getattr(module, name, None)
    if value is None or callable(value):
        return value
    return written_function(value, str(module.__file__)) or value


def _not_started(name: str, exercise_id: str) -> Callable[..., Any]:
    """Stands in for a graded function your file does not define yet."""

    def missing(*args: Any, **kwargs: Any) -> Any:
        raise NotStarted(exercise_id)

    missing.__name__ = missing.__qualname__ = name
    return missing


def _reference_tests(course: Course, exercise: Exercise) -> types.ModuleType | None:
    """The reference's tests for a "be the grader" part (None for other kinds)."""
    judgment = exercise.judgment
    if judgment is None or judgment.kind != "grader" or not judgment.reference:
        return None
    name = f"_miniagent_reference_tests_{exercise.id}"
    return load_module(course.root / judgment.reference, judgment.reference, name)


def load_mutant(
    course: Course, exercise: Exercise, mutant: Mutant
) -> dict[str, Callable[..., Any]]:
    """The functions ``mutant`` replaces: its patch of the reference, or what its file defines."""
    if not mutant.is_patch:
        module = load_module(course.root / mutant.file, mutant.file, f"_miniagent_{mutant.key}")
        names = [f.name for f in exercise.functions]
        return {name: getattr(module, name) for name in names if hasattr(module, name)}
    graded = next((f for f in exercise.functions if f.name == mutant.function), None)
    try:
        if graded is None:
            raise PatchError(f"{exercise.id} grades no function {mutant.function!r}")
        reference = import_target(graded.reference)
        if not mutant.target:
            return {graded.name: patched_function(reference, mutant.patches, mutant.key)}
        inner = target_function(mutant.target)
        patched = patched_function(inner, mutant.patches, mutant.key)
        return {graded.name: maker_with_inner(reference, inner.__name__, patched)}
    except PatchError as error:
        if error.anchor is None:
            detail = str(error)
            raise ExerciseLoadError(say("load.mutant", mutant=mutant.key, detail=detail)) from None
        anchor = error.anchor.rstrip("\n")
        raise ExerciseLoadError(
            say("load.mutant_anchor", mutant=mutant.key, target=error, n=error.count, anchor=anchor)
        ) from None


def load_learner(exercise_id: str, root: str | os.PathLike[str] | None = None) -> Implementation:
    """The learner's current code for one exercise, read fresh from disk (for notebooks).

    With ``MINIAGENT_NOTEBOOK_IMPL=reference`` (set by the package's notebook tests) it is the
    reference instead, so testing the notebooks never runs a learner's unfinished code.
    """
    course = load_course(root)
    exercise = course.exercise(exercise_id)
    if os.environ.get(NOTEBOOK_IMPL_ENV) == "reference":
        return load_implementation(course, exercise, "reference")
    ensure_workspace(course)
    return load_implementation(course, exercise, "learner")


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


def stubbed_functions(path: Path, exercise_id: str) -> list[tuple[str, int]]:
    """The functions in ``path`` whose body is still ``raise NotStarted("<id>")``: (name, line
    of that ``raise``), in file order ([] when the file cannot be read or parsed)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = _body_without_docstring(node)
            if len(body) == 1 and _is_todo_raise(body[0], exercise_id):
                found.append((node.name, body[0].lineno))
    return sorted(found, key=lambda pair: pair[1])


def untouched(course: Course, exercise: Exercise) -> bool:
    """Is every graded function of the learner's file still the stub's ``raise NotStarted``?
    (Then the day is "not started" without running a grader.)"""
    stubbed = {name for name, _ in stubbed_functions(course.root / exercise.file, exercise.id)}
    graded = {f.name for f in exercise.functions}
    return bool(graded) and graded <= stubbed


def todo_line(path: Path, exercise_id: str) -> int | None:
    """The line of the first ``# TODO(<id>)`` in ``path`` (1-based), if any."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    marker = f"TODO({exercise_id})"
    return next((n for n, line in enumerate(lines, 1) if marker in line), None)


class PristineStubError(Exception):
    """The original stub of an exercise cannot be found."""


def stub_path(course: Course, exercise: Exercise, lang: str | None = None) -> Path | None:
    """Where the pristine stub of ``exercise`` ships: its kit's ``stub.py``, or in the learner's
    language its translated twin ``stub.<lang>.py`` (the same code, the contract in that
    language) when the kit has one."""
    if not exercise.kit:
        return None
    english = course.root / exercise.kit / "stub.py"
    lang = language() if lang is None else lang
    translated = english.with_name(f"stub.{lang}.py")
    return translated if lang != "en" and translated.is_file() else english


def pristine_stub(course: Course, exercise: Exercise, lang: str | None = None) -> str:
    """The exercise file as the course ships it, read from the stubs beside the tooling.

    Needs no git: a course downloaded as a zip restores its stubs the same way.
    """
    path = stub_path(course, exercise, lang)
    if path is None or not path.is_file():
        stub = course.relative(path) if path else "(no kit)"
        raise PristineStubError(say("reset.no_stub", file=exercise.file, stub=stub))
    return path.read_text(encoding="utf-8")


def pristine_stubs(course: Course, exercise: Exercise) -> set[str]:
    """Every language's pristine stub of ``exercise`` (a file laid out in one language is still
    pristine after the learner switches to another)."""
    english = stub_path(course, exercise, "en")
    if english is None:
        return set()
    paths = [english, *sorted(english.parent.glob("stub.*.py"))]
    return {p.read_text(encoding="utf-8") for p in paths if p.is_file()}


def ensure_workspace(course: Course) -> list[str]:
    """Create each missing exercise file from its stub; never touch one that exists.

    ``exercises/`` is the learner's own (git ignores it), so the first course command of a fresh
    checkout lays it out. Returns the files created, as the kits name them.
    """
    created = []
    for exercise in course.exercises:
        target = course.root / exercise.file
        if target.exists():
            continue
        try:
            stub = pristine_stub(course, exercise)
        except PristineStubError:
            continue  # nothing to lay out; grading says the file is missing
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(stub, encoding="utf-8")
        created.append(exercise.file)
    return created
