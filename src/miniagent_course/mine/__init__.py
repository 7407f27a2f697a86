"""Your agent: ``create_react_agent`` with every function you have written in place of miniagent's.

Each day's exercise is a piece of the same agent. :func:`your_functions` reads your exercise files
and keeps each graded function whose body is no longer the stub's ``raise NotStarted(...)``;
:func:`your_agent` puts them where the agent calls them (module functions such as
``_get_state_value`` by name; the functions ``create_react_agent`` defines inside itself through
the installer its kit names in ``[mine] install``), and :func:`check` runs the scenarios of
``scenarios.py``, and those the kits add (``[[mine.scenarios]]``), against ``react.json``,
upstream's recorded results (:data:`RECORDING`): "your agent: K of N scenarios behave exactly as
upstream's". A failing scenario names the day to revisit, found by putting miniagent's function
back one day at a time. Nothing here imports the upstream packages, nor a day: the kits declare
what joins (their ``kit.toml``), and :mod:`.loop` checks a kit's loop apart.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from miniagent_course.grading.course import (
    Course,
    Exercise,
    ExerciseLoadError,
    _body_without_docstring,
    _is_todo_raise,
    import_target,
    load_course,
    load_implementation,
    reference_owner,
)
from miniagent_course.grading.recording import Recording, as_recorded
from miniagent_course.grading.timeout import GraderTimeout, call_with_timeout

# `miniagent_course.mine.scenarios` (it imports miniagent) is imported where it is used, so that
# loading this package (pytest's `-p miniagent_course.mine.plugin`) costs next to nothing.

SCENARIO_TIMEOUT = 10.0  # seconds for one scenario: your code may loop

# One scenario: (a function of a side that returns plain data, the days whose functions it uses)
Scenario = tuple[Callable[[Any], Any], tuple[str, ...]]


# (its reference, your function, the kit's installer or None): see :func:`_installer`
Piece = tuple[str, Callable[..., Any], Any]


@dataclass
class Yours:
    """The functions of yours that go into the agent, day by day, and why others do not."""

    # day -> {graded name: (its reference, your function)}
    functions: dict[str, dict[str, Piece]] = field(default_factory=dict)
    not_started: list[str] = field(default_factory=list)  # days whose agent pieces are stubs
    broken: dict[str, str] = field(default_factory=dict)  # day -> why the file does not load


def _written(source: str, name: str, day: str) -> bool:
    """Is ``name`` in ``source`` more than the stub's ``raise NotStarted("<day>")``?"""
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            body = _body_without_docstring(node)
            return not (len(body) == 1 and _is_todo_raise(body[0], day))
    return False


def _installer(exercise: Exercise, name: str) -> Callable[[Any, Callable[..., Any]], None] | None:
    """How ``name`` goes into a built agent: the function its kit names in ``[mine] install`` (a
    function ``create_react_agent`` defines inside itself, or a reducer the graph holds); None
    when the agent simply looks the function up by name in its module."""
    target = dict(exercise.installers).get(name)
    return import_target(target) if target else None


def your_functions(course: Course) -> Yours:
    """Your written functions that are pieces of the agent (predictions and policies are not)."""
    yours = Yours()
    for exercise in course.exercises:
        pieces = [f for f in exercise.functions if f.name in exercise.mine]
        if not pieces:
            continue
        try:
            source = (course.root / exercise.file).read_text(encoding="utf-8")
            written = [f for f in pieces if _written(source, f.name, exercise.id)]
            if written:
                impl = load_implementation(course, exercise, "learner")
        except (OSError, SyntaxError, ExerciseLoadError) as error:
            yours.broken[exercise.id] = str(error).splitlines()[0]
            continue
        if not written:
            yours.not_started.append(exercise.id)
            continue
        yours.functions[exercise.id] = {
            f.name: (f.reference, impl.functions[f.name], _installer(exercise, f.name))
            for f in written
        }
    return yours


@contextlib.contextmanager
def your_agent(
    functions: dict[str, dict[str, Piece]],
) -> Iterator[Callable[..., Any]]:
    """Inside: ``create_react_agent`` (also as ``miniagent.prebuilt.create_react_agent``) builds
    agents made of ``functions`` (see :class:`Yours`); outside: miniagent's."""
    import miniagent.prebuilt as prebuilt
    from miniagent.prebuilt import chat_agent_executor

    real = chat_agent_executor.create_react_agent
    saved: list[tuple[Any, str, Any]] = []
    installs = []
    for day in sorted(functions, reverse=True):  # call_model (Day 08) reads what later days put in
        for _name, (reference, function, installer) in functions[day].items():
            if installer is not None:
                installs.append((installer, function))
            else:  # a module function (or a method, Day 04) the agent looks up when it runs
                owner, attr = reference_owner(reference)
                saved.append((owner, attr, getattr(owner, attr)))
                setattr(owner, attr, function)

    def create_react_agent(*args: Any, **kwargs: Any) -> Any:
        agent = real(*args, **kwargs)
        for install, function in installs:
            install(agent, function)
        return agent

    saved.append((prebuilt, "create_react_agent", prebuilt.create_react_agent))
    prebuilt.create_react_agent = create_react_agent
    try:
        yield create_react_agent
    finally:
        for module, attr, value in reversed(saved):
            setattr(module, attr, value)


def kit_scenarios(course: Course) -> dict[str, Scenario]:
    """The scenarios the kits add, in course order: each ``[[mine.scenarios]]`` of a kit.toml is
    ``name``, ``run`` (``module:function`` of a side and ``args``), ``args`` and ``days``."""
    found: dict[str, Scenario] = {}
    for exercise in course.exercises:
        for entry in exercise.data.get("mine", {}).get("scenarios", []):
            run = _declared(import_target(entry["run"]), tuple(entry.get("args", ())))
            found[entry["name"]] = (run, tuple(entry["days"]))
    return found


def _declared(run: Callable[..., Any], args: tuple[Any, ...]) -> Callable[[Any], Any]:
    def scenario(lib: Any) -> Any:
        return run(lib, *args)

    scenario.__qualname__ = f"{getattr(run, '__qualname__', run)}{args!r}"
    return scenario


def scenarios_of(course: Course) -> dict[str, Scenario]:
    """The ``create_react_agent`` scenarios: ``scenarios.SCENARIOS``, then the kits'."""
    from miniagent_course.mine.scenarios import SCENARIOS

    added = kit_scenarios(course)
    clash = sorted(set(added) & set(SCENARIOS))
    if clash:
        raise ValueError(f"a kit's [[mine.scenarios]] reuses a scenario's name: {clash}")
    return {**SCENARIOS, **added}


def all_scenarios(course: Course) -> dict[str, Scenario]:
    """Every scenario ``react.json`` records: :func:`scenarios_of`, then ``AGENT_SCENARIOS``."""
    from miniagent_course.mine.scenarios import AGENT_SCENARIOS

    return {**scenarios_of(course), **AGENT_SCENARIOS}


def upstream_results(side: Any) -> dict[str, Any]:
    """Upstream's result of every scenario of this checkout's course (the recording)."""
    course = load_course(Path(__file__).resolve().parents[3])  # src/miniagent_course/mine/
    return {name: run(side) for name, (run, _) in all_scenarios(course).items()}


RECORDING = Recording(Path(__file__).with_name("react.json"), upstream_results)
record = RECORDING.record  # upstream's results afresh (contributors: needs the pinned packages)
recorded = RECORDING.recorded  # upstream's results as react.json holds them


def _passes(
    scenario: Callable[[Any], Any], expected: Any, functions: dict[str, dict[str, Piece]]
) -> bool:
    from miniagent_course.sides import mini

    with your_agent(functions) as create_react_agent:
        side = SimpleNamespace(**{**vars(mini()), "create_react_agent": create_react_agent})
        try:
            result = call_with_timeout(scenario, {"lib": side}, SCENARIO_TIMEOUT)
        except GraderTimeout:
            return False
        except Exception:  # your code raised where upstream did not: a different outcome
            return False
    return as_recorded(result) == expected


@dataclass
class Report:
    """What ``check`` found: the scenarios that pass, and for each failure the days to revisit."""

    yours: Yours
    passed: list[str]
    failed: dict[str, list[str]]  # scenario -> days

    @property
    def total(self) -> int:
        return len(self.passed) + len(self.failed)


def check(
    course: Course,
    scenarios: dict[str, Scenario] | None = None,
    days: set[str] | None = None,
) -> Report:
    """Run ``scenarios`` (default: :func:`scenarios_of` the course; ``AGENT_SCENARIOS``: on your
    ``create_agent``) on your agent; name the days behind each failure. ``days``: use only these
    days' functions (the rest are miniagent's), e.g. the days whose graders all passed."""
    if scenarios is None:
        scenarios = scenarios_of(course)
    yours = your_functions(course)
    if days is not None:
        yours.functions = {d: f for d, f in yours.functions.items() if d in days}
    expected = recorded()
    passed, failed = [], {}
    for name, (scenario, suspects) in scenarios.items():
        if _passes(scenario, expected[name], yours.functions):
            passed.append(name)
            continue
        mine = [d for d in suspects if d in yours.functions] or sorted(yours.functions)
        culprits = [
            d
            for d in mine
            if _passes(
                scenario, expected[name], {k: v for k, v in yours.functions.items() if k != d}
            )
        ]
        failed[name] = culprits or mine
    return Report(yours, passed, failed)
