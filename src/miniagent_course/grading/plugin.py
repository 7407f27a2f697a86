"""The pytest plugin that grades exercises. ``pyproject.toml`` (``-p``) and ``miniagent check`` load it.

A grader is a test in a day kit's ``graders/test_<id>_*.py`` that takes the ``impl`` fixture. The plugin
runs it once per implementation named by ``--impl`` (default ``reference,learner``), so the test
ids read ``test_x[reference]`` and ``test_x[learner]``:

* a learner function that still raises ``NotStarted`` turns its test into a "not started" skip
  (a failure under ``--strict-exercises``); anything else it raises is a normal failure, reported
  to the learner as the call that failed, what came back and what was expected (``explain``);
* on a day whose judgment part is *sealed* (a table answered first, ``Kind.sealed``), the
  learner's part 1 is held until the table's first try is recorded (``sealed.py``): its tests do
  not run the learner's code and skip as "held", one line for the day in the progress table.
  The day's judgment tests run first, and the plugin reads the table itself, so a first try this
  very run records opens part 1 in the same run;
* one problem, one message: a learner file that does not load fails the day's first grader with
  the reason (file, line, caret), and a grader that runs past ``--grader-timeout`` fails with the
  timeout; the day's remaining graders are then "not run", so an endless loop costs one timeout
  per day. The time limit works without POSIX signals (``timeout``), the same on every system;
* the run ends with a course progress table; ``--grade-report FILE.json`` writes a Gradescope
  ``results.json``.

The README's plain ``pytest`` is the learner's run (``testpaths``: the kits' graders and a few
checks that the checkout is sound): it grades ``exercises/`` and prints little besides the table.
The contributors' run names ``tests``, the kits and ``--impl=reference``.
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from miniagent_course.grading.course import (
    Course,
    Exercise,
    ExerciseLoadError,
    Implementation,
    ensure_workspace,
    find_root,
    impl_kind,
    impl_label,
    load_implementation,
    not_started_in,
    parse_impl_option,
    shared_course,
    spec_exercise,
    stubbed_functions,
    todo_line,
    untouched,
)
from miniagent_course.grading.explain import (
    STOP_AT_NOT_STARTED,
    LastCall,
    compared_lines,
    explain,
    recorded,
    summary,
)
from miniagent_course.grading.report import (
    SEVERITY,
    Record,
    course_results,
    gradescope,
    progress_lines,
    short_name,
)
from miniagent_course.grading.sealed import first_try
from miniagent_course.grading.timeout import GraderTimeout, call_with_timeout
from miniagent_course.text import say

NOTES = "miniagent-notes"  # a grader's record_property(NOTES, [lines]) shown once the day passes
PROPERTY = "miniagent"  # the key of our entry in report.user_properties (travels through xdist)
SESSION = "miniagent-grading-session"  # the name the GradingSession plugin object is registered as
JUDGMENTS = "miniagent_course.grading.judgments"  # the kinds of a day's judgment part (KINDS)
PROPERTY_MARGIN = 3  # a property-based grader's wall-clock limit, in units of --grader-timeout
OUTPUT_HEAD, OUTPUT_TAIL = 12, 6  # lines of a learner's printed output shown, once per day


class SummaryHooks:
    """The hook this plugin defines for others (``pytest_addhooks``)."""

    @pytest.hookspec
    def pytest_miniagent_summary(self, course: Course, records: list[Record]) -> list[str]:
        """Lines to print under the progress table of a learner's run (``miniagent_course.mine.
        plugin`` answers with the learner's own agent)."""


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(SummaryHooks)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("miniagent", say("plugin.group"))
    group.addoption("--impl", default="learner", help=say("plugin.help_impl"))
    group.addoption("--strict-exercises", action="store_true", help=say("plugin.help_strict"))
    group.addoption("--grade-report", metavar="FILE.json", help=say("plugin.help_grade_report"))
    group.addoption("--grader-timeout", type=float, default=10.0, help=say("plugin.help_timeout"))
    group.addoption("--first-kill", action="store_true", help=say("plugin.help_first_kill"))
    group.addoption("--course-root", metavar="DIR", help=say("plugin.help_root"))
    group.addoption("--course-results", metavar="FILE.json", help=argparse.SUPPRESS)


@pytest.hookimpl(tryfirst=True)  # before the terminal reporter reads the options set below
def pytest_configure(config: pytest.Config) -> None:
    root = config.getoption("course_root") or find_root(config.rootpath)
    try:
        course = shared_course(root) if root else None  # the graders' judgments read it too
    except FileNotFoundError:
        course = None
    try:
        specs = parse_impl_option(config.getoption("impl"), course) if course else []
    except (KeyError, ValueError) as error:
        raise pytest.UsageError(error.args[0]) from None
    if _learner_run(config) or specs == ["learner"]:
        # Only the learner is graded: the progress table says it all and each failure is
        # explained once, so pytest's short summary would only repeat it (in full, on CI).
        config.option.reportchars = ""
    session = GradingSession(config, course, specs)
    if course is not None and not hasattr(config, "workerinput") and "learner" in specs:
        session.created = ensure_workspace(course)
    config.pluginmanager.register(session, SESSION)
    for exercise in course.exercises if course else ():
        config.addinivalue_line("markers", f"{exercise.id}: {exercise.title}")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each grader once per implementation, with ids like ``[reference]``/``[learner]``."""
    if "impl" not in metafunc.fixturenames:
        return
    session = _session(metafunc.config)
    course = session.course
    exercise = session.exercise_for(metafunc.definition.path) if course else None
    if course is None or exercise is None:
        pytest.fail(say("plugin.not_a_grader", path=metafunc.definition.path), pytrace=False)
    marks = [getattr(pytest.mark, exercise.id)]  # so `pytest -m day00` selects one day
    params = [
        pytest.param(spec, id=impl_label(spec), marks=marks)
        for spec in session.specs
        if spec_exercise(spec, course) in (None, exercise)  # a mutant grades its own day only
    ]
    metafunc.parametrize("impl", params, indirect=True)


@pytest.hookimpl(tryfirst=True)  # before `-k`/`-m` deselect: every sealed table is seen
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Drop graders left without an implementation (e.g. another day's mutant was asked for);
    keep each sealed day's table (:meth:`GradingSession.keep_tables`)."""
    keep, drop = [], []
    for item in items:
        orphan = "impl" in getattr(item, "fixturenames", ()) and _spec(item) is None
        (drop if orphan else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep
    _session(config).keep_tables(items)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """What the run has built so far (modules, graders, tests) lives to its end: the garbage
    collector's full passes during the run (and pytest's at its end) skip it from now on."""
    gc.freeze()


@pytest.fixture
def impl(request: pytest.FixtureRequest) -> Implementation:
    """The graded functions of this grader's exercise, from the implementation under test."""
    session = _session(request.config)
    assert session.course is not None
    exercise = session.exercise_for(request.node.path)
    assert exercise is not None
    key = (exercise.id, request.param)
    if key in session.blocked:  # an earlier grader of this day timed out, or the file is broken
        session.not_run.add(request.node.nodeid)
        pytest.skip(session.blocked[key])
    if request.param == "learner" and not session.strict and session.untouched(exercise):
        # Every graded function is still the stub's `raise NotStarted`: no need to run a thing.
        # (Strict mode runs them, so each counts as a failed test, not a setup error.)
        session.not_started.add(request.node.nodeid)
        pytest.skip(say("grading.not_started", day=exercise.id))
    try:
        implementation = session.implementation(exercise, request.param)
    except ExerciseLoadError as error:
        message = str(error)  # its first line names the file (or the mutant) and the problem
        why = (message.strip().splitlines() or [type(error).__name__])[0].rstrip(":")
        session.blocked[key] = say("grading.not_run_load", day=exercise.id, why=why)
    else:
        if request.param == "learner" and not _judgment_test(request.node):
            held = session.held_part(exercise, implementation, request.node)
            if held is not None:  # part 1 of a sealed day, before the table's first try
                session.held.add(request.node.nodeid)
                pytest.skip(held)
        return implementation
    pytest.fail(message, pytrace=False)  # outside `except`: no "During handling of..." chain


class GradingSession:
    """One pytest session's view of the course and what it has recorded (a plugin object)."""

    def __init__(self, config: pytest.Config, course: Course | None, specs: list[str]) -> None:
        self.config = config
        self.course = course
        self.specs = specs
        self.strict: bool = config.getoption("strict_exercises")
        self.timeout: float = config.getoption("grader_timeout")
        self.first_kill: bool = config.getoption("first_kill")
        self.started = time.monotonic()
        self.loaded: dict[tuple[str, str], Implementation | ExerciseLoadError] = {}
        self.records: dict[str, Record] = {}
        self.blocked: dict[tuple[str, str], str] = {}  # (day, spec) -> why the rest is not run
        self.not_run: set[str] = set()  # node ids skipped because of ``blocked``
        self.not_started: set[str] = set()  # node ids whose learner function raised NotStarted
        self.comparing_for_learner = False  # a learner grader is running: explain its ==
        self.stubs_only: dict[str, bool] = {}  # day -> every graded function is still a stub
        self.output_shown: set[tuple[str, str]] = (
            set()
        )  # (day, spec) whose printed output was shown
        self.explained: set[tuple[str, str]] = set()  # (day, spec) whose first failure was shown
        self.last_calls: dict[tuple[str, str], LastCall] = {}
        self.created: list[str] = []  # exercise files laid out from their stubs at start
        self.graders: dict[Path, Exercise | None] = {}  # grader file -> its exercise
        self.sealed_days: dict[str, bool] = {}  # day -> its judgment kind is sealed
        self.tables: dict[str, Any] = {}  # sealed day -> its table's declaration (``Predictions``)
        self.holds: dict[str, str | None] = {}  # sealed day -> why its part 1 is held (None: not)
        self.held: set[str] = set()  # node ids of the learner's part 1 held this run
        self.table_lines: dict[str, int] = {}  # sealed day -> the line of its table's function

    def _in_learner_code(self, stopped: GraderTimeout, exercise: Exercise, spec: str) -> bool:
        """Was the grader inside the code under test when its time ran out? (Always presumed for
        implementations that are not the learner's file, and when the stack is unknown.)"""
        if impl_kind(spec) != "learner" or not stopped.files:
            return True
        assert self.course is not None
        mine = (self.course.root / exercise.file).resolve()
        return any(Path(f).resolve() == mine for f in stopped.files if f and not f.startswith("<"))

    def exercise_for(self, path: Path) -> Exercise | None:
        """The exercise whose graders include ``path``, found once per file (each test asks)."""
        if path not in self.graders:
            self.graders[path] = self.course.exercise_for_grader(path) if self.course else None
        return self.graders[path]

    def untouched(self, exercise: Exercise) -> bool:
        """Is every graded function of the learner's file still ``raise NotStarted``?"""
        if exercise.id not in self.stubs_only:
            assert self.course is not None
            self.stubs_only[exercise.id] = untouched(self.course, exercise)
        return self.stubs_only[exercise.id]

    def sealed(self, exercise: Exercise) -> bool:
        """Is the day's judgment part a table answered first (its kind's ``sealed``)?

        Asked once the graders are collected. A sealed table's tests are written by
        ``judgments.judgment_graders``, so a run whose graders never imported that module (an
        ``extend`` day's) has no sealed day, and does not import it here either.
        """
        if exercise.id not in self.sealed_days:
            judgments = sys.modules.get(JUDGMENTS)  # not imported here: it imports this module
            judgment, kind = exercise.judgment, None
            if judgment is not None and judgments is not None:
                kind = judgments.KINDS.get(judgment.kind)
            self.sealed_days[exercise.id] = kind is not None and kind.sealed
        return self.sealed_days[exercise.id]

    def _sealed_days(self, items: list[pytest.Item]) -> dict[str, list[int]]:
        """The learner's sealed days among ``items``: each day's places in the list."""
        places: dict[str, list[int]] = {}
        if self.course is None or "learner" not in self.specs:
            return places
        for index, item in enumerate(items):
            exercise = self.exercise_for(item.path) if _spec(item) is not None else None
            if exercise is not None and self.sealed(exercise):
                places.setdefault(exercise.id, []).append(index)
        return places

    def keep_tables(self, items: list[pytest.Item]) -> None:
        """Keep each sealed day's table declaration (``Predictions``) for :meth:`held_part`,
        from every test collected (before ``-k`` leaves the table out)."""
        for day, indexes in self._sealed_days(items).items():
            for index in indexes:
                if _judgment_test(items[index]):
                    self.tables.setdefault(day, _declaration(items[index].function))

    @pytest.hookimpl(trylast=True)  # after any other reordering (fixtures, -k)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        """On a sealed day, its judgment tests run before its other tests (each day's tests keep
        their places among the other days'): the table is graded, and its first try recorded,
        before part 1 (which :meth:`held_part` makes sure of in any order)."""
        for indexes in self._sealed_days(items).values():
            day = [items[i] for i in indexes]
            ordered = [i for i in day if _judgment_test(i)] + [
                i for i in day if not _judgment_test(i)
            ]
            for index, item in zip(indexes, ordered, strict=True):
                items[index] = item

    def held_part(
        self, exercise: Exercise, implementation: Implementation, item: pytest.Item
    ) -> str | None:
        """Why the learner's part 1 of ``exercise`` waits, in one line (None: it is graded).

        It waits on a sealed day until the table's first try is recorded, by an earlier run or
        by this one: the plugin reads the learner's table itself (:func:`~miniagent_course.
        grading.judgments.seal` records an answered one), so whatever order the tests run in,
        none of part 1 runs before the record. Decided once per day and run. A day of stubs
        only is graded as ever (not started; in strict mode, failing).
        """
        if not self.sealed(exercise) or self.untouched(exercise):
            return None
        if exercise.id not in self.holds:
            self.holds[exercise.id] = self._why_held(exercise, implementation, item)
        return self.holds[exercise.id]

    def _why_held(
        self, exercise: Exercise, implementation: Implementation, item: pytest.Item
    ) -> str | None:
        assert self.course is not None and exercise.judgment is not None
        if first_try(self.course.root, exercise.id) is not None:
            return None
        function = exercise.judgment.function or "predictions"
        declaration = self.tables.get(exercise.id)
        if declaration is None:  # its table is not among the tests collected: look in the file
            found = [v for v in vars(item.module).values() if inspect.isfunction(v)]
            declaration = next((d for v in found if (d := _declaration(v)) is not None), None)
        if declaration is None:
            return say("grading.held_unknown", function=function)
        seal = sys.modules[JUDGMENTS].seal  # imported by the day's graders (see `sealed`)
        try:
            table = call_with_timeout(getattr(implementation, function), {}, self.timeout)
        except (Exception, GraderTimeout):  # the table test tells why; here it is unanswered
            table = {}
        state = seal(declaration, table if isinstance(table, dict) else {}, implementation)
        if state.first is not None:  # answered: recorded now, before any of part 1 runs
            return None
        return say("grading.held", function=function, filled=state.filled, total=state.total)

    def implementation(self, exercise: Exercise, spec: str) -> Implementation:
        """Load each implementation once per session; a load error is remembered too."""
        key = (exercise.id, spec)
        if key not in self.loaded:
            assert self.course is not None
            try:  # the learner's module-level code runs here: it gets the time limit too
                self.loaded[key] = self._recorded(
                    call_with_timeout(
                        load_implementation,
                        {"course": self.course, "exercise": exercise, "spec": spec},
                        self.timeout,
                    )
                )
            except GraderTimeout:
                file = exercise.file if spec == "learner" else spec.removeprefix("mutant:")
                self.loaded[key] = ExerciseLoadError(
                    say("load.timeout", file=file, seconds=self.timeout)
                )
            except ExerciseLoadError as error:
                self.loaded[key] = error
        found = self.loaded[key]
        if isinstance(found, ExerciseLoadError):
            raise found
        return found

    def _recorded(self, implementation: Implementation) -> Implementation:
        """The learner's functions, wrapped so a failure can show their last call."""
        if implementation.kind != "learner":
            return implementation
        last = self.last_calls.setdefault((implementation.exercise.id, "learner"), LastCall())
        implementation.functions = {
            name: recorded(function, last) for name, function in implementation.functions.items()
        }
        return implementation

    @pytest.hookimpl(tryfirst=True)
    def pytest_pyfunc_call(self, pyfuncitem: pytest.Function) -> bool | None:
        """Run a grader under the time limit; after a timeout the day's other graders skip."""
        spec = _spec(pyfuncitem)
        if spec is None or inspect.iscoroutinefunction(pyfuncitem.obj):
            return None
        assert self.course is not None
        exercise = self.exercise_for(pyfuncitem.path)
        assert exercise is not None
        last = self.last_calls.get((exercise.id, spec))
        if last is not None:
            last.clear()
        names = pyfuncitem._fixtureinfo.argnames
        arguments = {name: pyfuncitem.funcargs[name] for name in names}
        property_based = hasattr(pyfuncitem.obj, "hypothesis")
        token = STOP_AT_NOT_STARTED.set(property_based and impl_kind(spec) == "learner")
        self.comparing_for_learner = impl_kind(spec) == "learner"
        # A property-based grader is bounded by its example count; its own search for examples
        # is not the learner's time, so it gets a wider wall-clock margin on a busy machine.
        learner = impl_kind(spec) == "learner"
        seconds = self.timeout * (PROPERTY_MARGIN if property_based and learner else 1)
        try:
            call_with_timeout(pyfuncitem.obj, arguments, seconds)
        except GraderTimeout as stopped:
            if self._in_learner_code(stopped, exercise, spec):  # a probable endless loop
                self.blocked[(exercise.id, spec)] = say("grading.not_run_timeout", day=exercise.id)
            raise
        except (Exception, pytest.skip.Exception) as error:
            if self.first_kill and impl_kind(spec) == "mutant" and isinstance(error, Exception):
                # one failing grader kills a mutant: the proof needs no more of its day
                self.blocked[(exercise.id, spec)] = say("grading.not_run_killed", day=exercise.id)
            if impl_kind(spec) != "learner" or not_started_in(error) is None:
                raise
            # Settled here, before pytest formats a traceback that would only be thrown away
            # (formatting them was most of a plain `pytest` run with no day started).
            self.not_started.add(pyfuncitem.nodeid)
        else:
            return True
        finally:
            STOP_AT_NOT_STARTED.reset(token)
            self.comparing_for_learner = False
        if self.strict:
            pytest.fail(say("grading.not_started_strict", day=exercise.id), pytrace=False)
        pytest.skip(say("grading.not_started", day=exercise.id))

    def pytest_assertrepr_compare(self, op: str, left: Any, right: Any) -> list[str] | None:
        """A learner grader's failed ``==``: both values, each shown where they differ."""
        if op != "==" or not self.comparing_for_learner:
            return None
        return ["(the two values below differ)", *compared_lines(left, right)]

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        """Turn NotStarted into a "not started" skip, explain timeouts, tag the report."""
        told_here = self._told_here(item, call)
        if told_here:  # pytest would format a traceback that the report below replaces
            item.repr_failure = _untold  # type: ignore[method-assign]
        try:
            report = yield
        finally:
            if told_here:
                del item.repr_failure
        spec = _spec(item)
        exercise = self.exercise_for(item.path) if self.course else None
        if spec is None or exercise is None:
            return report
        entry = {"exercise": exercise.id, "impl": impl_label(spec), "kind": impl_kind(spec)}
        entry["status"] = report.outcome
        if item.nodeid in self.not_run and report.skipped:
            entry["status"] = "not_run"
        if item.nodeid in self.held and report.skipped:
            entry["status"] = "held"
            self._held_report(report, exercise)
            entry["message"] = self.holds.get(exercise.id) or ""
        if item.nodeid in self.not_started and not report.passed:
            entry["status"] = "not_started"
            self._not_started(report, exercise)
        elif report.failed and call.excinfo is not None:
            entry["status"] = "failed" if call.when == "call" else "error"
            error = call.excinfo.value
            if call.when == "call" and impl_kind(spec) == "learner" and not_started_in(error):
                entry["status"] = "not_started"
                self._not_started(report, exercise)
            elif isinstance(error, GraderTimeout):
                mine = self._in_learner_code(error, exercise, spec)
                key = "grading.timeout" if mine else "grading.timeout_not_yours"
                text = say(
                    key, seconds=error.args[0] if error.args else self.timeout, day=exercise.id
                )
                report.longrepr = text
                entry["message"] = text.splitlines()[0]
            elif call.when == "call" and impl_kind(spec) == "learner":
                report.longrepr = self._explain(item, exercise, spec, error)
                last = self.last_calls.get((exercise.id, spec))
                entry["message"] = summary(error, last, Path(item.path))
        if impl_kind(spec) == "learner":
            self._cap_output(report, (exercise.id, spec))
        notes = [value for key, value in item.user_properties if key == NOTES]
        if notes and report.passed and call.when == "call":
            entry["notes"] = notes[-1]  # e.g. what a "be the grader" part caught and missed
        report.user_properties.append((PROPERTY, entry))
        return report

    def _told_here(self, item: pytest.Item, call: pytest.CallInfo[None]) -> bool:
        """Will ``pytest_runtest_makereport`` write this failure's report itself? (A grader's
        timeout; a failed call of the learner's code: explained, not started or timed out.)"""
        spec = _spec(item)
        if spec is None or call.when != "call" or call.excinfo is None:
            return False
        if self.exercise_for(item.path) is None or item.get_closest_marker("xfail"):
            return False
        error = call.excinfo.value
        if isinstance(error, GraderTimeout):
            return True
        skipped = (pytest.skip.Exception, pytest.xfail.Exception)
        return impl_kind(spec) == "learner" and not isinstance(error, skipped)

    def _cap_output(self, report: pytest.TestReport, day: tuple[str, str]) -> None:
        """What the learner's code printed: once per day, its head and tail, and how much was cut.

        pytest shows a failed test's captured output under it; a function that prints in a loop
        would otherwise fill the screen once for each of the day's failing graders.
        """
        kept = []
        for title, text in report.sections:
            if not title.startswith("Captured std"):
                kept.append((title, text))
            elif day not in self.output_shown:
                lines = text.splitlines()
                if len(lines) > OUTPUT_HEAD + OUTPUT_TAIL:
                    cut = say("grading.output_cut", n=len(lines) - OUTPUT_HEAD - OUTPUT_TAIL)
                    lines = [*lines[:OUTPUT_HEAD], cut, *lines[-OUTPUT_TAIL:]]
                kept.append((title, "\n".join(lines) + "\n"))
        if len(kept) < len(report.sections) or any(t.startswith("Captured std") for t, _ in kept):
            if report.failed:
                self.output_shown.add(day)
        report.sections = kept

    def _explain(self, item: pytest.Item, exercise: Exercise, spec: str, error: Any) -> str:
        """The learner's report: in full for the day's first failure, in one line after it."""
        assert self.course is not None
        last = self.last_calls.get((exercise.id, spec))
        if (exercise.id, spec) in self.explained:
            detail = summary(error, last, Path(item.path))
            return say("explain.again", test=short_name(item.nodeid), detail=detail)
        self.explained.add((exercise.id, spec))
        return explain(
            day=exercise.id,
            test=short_name(item.nodeid),
            grader=Path(item.path),
            root=self.course.root,
            learner_file=self.course.root / exercise.file,
            error=error,
            last=last,
            check=exercise.checks.get(getattr(item, "originalname", item.name), ""),
        )

    def _not_started(self, report: pytest.TestReport, exercise: Exercise) -> None:
        assert self.course is not None
        if self.strict:
            report.longrepr = say("grading.not_started_strict", day=exercise.id)
            return
        line = todo_line(self.course.root / exercise.file, exercise.id) or 1
        reason = say("grading.not_started", day=exercise.id)
        report.outcome = "skipped"
        report.longrepr = (exercise.file, line, f"Skipped: {reason}")

    def _held_report(self, report: pytest.TestReport, exercise: Exercise) -> None:
        """A held test's skip points at the learner's table, not at this plugin (``-rs`` then
        shows one line for the whole day: pytest groups equal skips)."""
        assert self.course is not None and exercise.judgment is not None
        if exercise.id not in self.table_lines:
            path = self.course.root / exercise.file
            function = exercise.judgment.function or "predictions"
            stubs = dict(stubbed_functions(path, exercise.id))
            self.table_lines[exercise.id] = stubs.get(function) or _def_line(path, function) or 1
        line = self.table_lines[exercise.id]
        report.longrepr = (exercise.file, line, f"Skipped: {self.holds.get(exercise.id) or ''}")

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Keep the worst outcome of each grader test's phases (runs on the xdist controller)."""
        entry = next((value for key, value in report.user_properties if key == PROPERTY), None)
        if entry is None or (report.when != "call" and report.passed):
            return
        record = self.records.setdefault(
            report.nodeid,
            Record(report.nodeid, entry["exercise"], entry["impl"], entry["kind"], "passed"),
        )
        record.duration += report.duration
        if SEVERITY[entry["status"]] >= SEVERITY[record.status]:
            record.status = entry["status"]
            if not report.passed:
                record.message = entry.get("message") or _one_line(report)
                record.details = report.longreprtext[:6000]
        if entry.get("notes"):
            record.notes = list(entry["notes"])

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.course is None or not self.records:
            return
        terminalreporter.write_sep("=", say("table.title"))
        if self.created:
            terminalreporter.write_line(
                say(
                    "workspace.created_one" if len(self.created) == 1 else "workspace.created",
                    count=len(self.created),
                    folder="exercises/",
                )
            )
        for line in progress_lines(self.course, list(self.records.values()), self.strict):
            terminalreporter.write_line(line)
        if "learner" in self.specs and _learner_run(self.config):  # e.g. `mine`'s line
            records = list(self.records.values())
            for lines in self.config.hook.pytest_miniagent_summary(
                course=self.course, records=records
            ):
                for line in lines:
                    terminalreporter.write_line(line)

    def pytest_sessionfinish(self, exitstatus: int) -> None:
        if self.course is None or hasattr(self.config, "workerinput"):
            return
        records = list(self.records.values())
        if self.config.getoption("course_results"):
            data = course_results(self.course, records, self.strict)
            _write_json(
                self.config.getoption("course_results"), {**data, "exitstatus": int(exitstatus)}
            )
        if self.config.getoption("grade_report"):
            duration = time.monotonic() - self.started
            _write_json(
                self.config.getoption("grade_report"), gradescope(self.course, records, duration)
            )


def _learner_run(config: pytest.Config) -> bool:
    """A plain ``pytest`` (arguments from ``testpaths``): the learner's run."""
    return getattr(config, "args_source", None) == pytest.Config.ArgsSource.TESTPATHS


def _session(config: pytest.Config) -> GradingSession:
    return config.pluginmanager.get_plugin(SESSION)


def _spec(item: pytest.Item) -> str | None:
    """The ``--impl`` spec this item grades (None: not a grader, or an empty parameter set)."""
    spec = getattr(item, "callspec", None) and item.callspec.params.get("impl")
    return spec if isinstance(spec, str) else None


def _declaration(test: Any) -> Any:
    """The declaration a judgment kind hangs on the tests it writes (``test.declaration``, e.g.
    a table's ``Predictions``), for a test function; None for any other function."""
    return getattr(test, "declaration", None)


def _judgment_test(item: pytest.Item) -> bool:
    """Is ``item`` one of the tests its day's judgment kind writes (part 2, not part 1)?"""
    return _declaration(getattr(item, "function", None)) is not None


def _def_line(path: Path, function: str) -> int | None:
    """The line of ``def <function>(`` in ``path`` (1-based), if any."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    start = f"def {function}("
    return next((n for n, line in enumerate(lines, 1) if line.lstrip().startswith(start)), None)


def _untold(excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
    """Stands in for ``Item.repr_failure`` where the plugin writes the report itself."""
    return ""


def _one_line(report: pytest.TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None and crash.message:
        return crash.message.removeprefix("Failed: ").splitlines()[0]
    if isinstance(report.longrepr, tuple):
        return str(report.longrepr[2]).removeprefix("Skipped: ")
    return report.longreprtext.strip().splitlines()[0] if report.longreprtext.strip() else ""


def _write_json(path: str, data: dict[str, Any]) -> None:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
