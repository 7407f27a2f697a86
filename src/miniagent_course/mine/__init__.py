"""Your agent: ``create_react_agent`` with every function you have written in place of miniagent's.

Each day's exercise is a piece of the same agent. :func:`your_functions` reads your exercise files
and keeps each graded function whose body is no longer the stub's ``raise NotStarted(...)``;
:func:`your_agent` puts them where the agent calls them (module functions such as
``_get_state_value`` by name; the functions ``create_react_agent`` defines inside itself through
the ``install_*`` helpers of ``grading/inner/``), and :func:`check` runs the scenarios of
``scenarios.py`` against ``react.json``, upstream's recorded results: "your agent: K of N
scenarios behave exactly as upstream's". A failing scenario names the day to revisit, found by
putting miniagent's function back one day at a time. Nothing here imports the upstream packages.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from miniagent_course.grading.course import (
    Course,
    ExerciseLoadError,
    _body_without_docstring,
    _is_todo_raise,
    load_implementation,
    reference_owner,
)
from miniagent_course.grading.timeout import GraderTimeout, call_with_timeout
from miniagent_course.mine.scenarios import AGENT_SCENARIOS, SCENARIOS

ALL_SCENARIOS = {**SCENARIOS, **AGENT_SCENARIOS}

RECORDED = Path(__file__).with_name("react.json")
SCENARIO_TIMEOUT = 10.0  # seconds for one scenario: your code may loop


@dataclass
class Yours:
    """The functions of yours that go into the agent, day by day, and why others do not."""

    # day -> {graded name: (its reference, your function)}
    functions: dict[str, dict[str, tuple[str, Callable[..., Any]]]] = field(default_factory=dict)
    not_started: list[str] = field(default_factory=list)  # days whose agent pieces are stubs
    broken: dict[str, str] = field(default_factory=dict)  # day -> why the file does not load


def _written(source: str, name: str, day: str) -> bool:
    """Is ``name`` in ``source`` more than the stub's ``raise NotStarted("<day>")``?"""
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            body = _body_without_docstring(node)
            return not (len(body) == 1 and _is_todo_raise(body[0], day))
    return False


def _installer(day: str, name: str) -> Callable[[Any, Callable[..., Any]], None] | None:
    """How ``name`` of ``day`` goes into a built agent: ``install_<name>`` of the day's module in
    ``grading/inner/`` (a function ``create_react_agent`` defines inside itself, or a reducer the
    graph holds); None when the agent simply looks the function up by name in its module."""
    try:
        module = importlib.import_module(f"miniagent_course.grading.inner.{day}")
    except ModuleNotFoundError:
        return None
    return getattr(module, f"install_{name}", None)


def your_functions(course: Course) -> Yours:
    """Your written functions that are pieces of the agent (predictions and policies are not)."""
    yours = Yours()
    for exercise in course.exercises:
        pieces = [
            f
            for f in exercise.functions
            if _installer(exercise.id, f.name) or f.reference.startswith("miniagent.")
        ]
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
            f.name: (f.reference, impl.functions[f.name]) for f in written
        }
    return yours


@contextlib.contextmanager
def your_agent(
    functions: dict[str, dict[str, tuple[str, Callable[..., Any]]]],
) -> Iterator[Callable[..., Any]]:
    """Inside: ``create_react_agent`` (also as ``miniagent.prebuilt.create_react_agent``) builds
    agents made of ``functions`` (see :class:`Yours`); outside: miniagent's."""
    import miniagent.prebuilt as prebuilt
    from miniagent.prebuilt import chat_agent_executor

    real = chat_agent_executor.create_react_agent
    saved: list[tuple[Any, str, Any]] = []
    installs = []
    for day in sorted(functions, reverse=True):  # call_model (Day 08) reads what later days put in
        for name, (reference, function) in functions[day].items():
            installer = _installer(day, name)
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


def recorded() -> dict[str, Any]:
    """Upstream's results, as ``react.json`` holds them (JSON round trip of each result)."""
    return json.loads(RECORDED.read_text(encoding="utf-8"))


def _as_recorded(result: Any) -> Any:
    return json.loads(json.dumps(result))


def _passes(name: str, functions: dict[str, dict[str, tuple[str, Callable[..., Any]]]]) -> bool:
    from miniagent_course.sides import mini

    scenario, _ = ALL_SCENARIOS[name]
    with your_agent(functions) as create_react_agent:
        side = SimpleNamespace(**{**vars(mini()), "create_react_agent": create_react_agent})
        try:
            result = call_with_timeout(scenario, {"lib": side}, SCENARIO_TIMEOUT)
        except GraderTimeout:
            return False
        except Exception:  # your code raised where upstream did not: a different outcome
            return False
    return _as_recorded(result) == recorded()[name]


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
    course: Course, scenarios: dict[str, Any] = SCENARIOS, days: set[str] | None = None
) -> Report:
    """Run ``scenarios`` on your agent (``AGENT_SCENARIOS``: on your ``create_agent``); name the
    days behind each failure. ``days``: use only these days' functions (the rest are
    miniagent's), e.g. the days whose graders all passed."""
    yours = your_functions(course)
    if days is not None:
        yours.functions = {d: f for d, f in yours.functions.items() if d in days}
    passed, failed = [], {}
    for name, (_, days) in scenarios.items():
        if _passes(name, yours.functions):
            passed.append(name)
            continue
        mine = [d for d in days if d in yours.functions] or sorted(yours.functions)
        culprits = [
            d for d in mine if _passes(name, {k: v for k, v in yours.functions.items() if k != d})
        ]
        failed[name] = culprits or mine
    return Report(yours, passed, failed)


def record() -> dict[str, Any]:
    """Upstream's result of every scenario (contributors: needs the pinned upstream packages)."""
    import warnings

    from miniagent_course.sides import upstream

    side = upstream()
    if side is None:
        raise RuntimeError('recording needs the upstream packages: pip install -e ".[upstream]"')
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: _as_recorded(run(side)) for name, (run, _) in ALL_SCENARIOS.items()}
