"""Run the graders in a process of their own and read back what they found.

The ``miniagent`` command grades through this: a process of its own keeps the learner's code (an
endless loop, a ``sys.exit``, a crash) out of the command's process, and every run sees the
files as saved. The run is pytest with the grading plugin, as ``python -m pytest`` would run it.

How the process starts is machinery, chosen for speed; what it prints and records is the same
every way (``tests/course/meta/test_grading_process.py`` proves it):

* **warm** (Linux, from the ``miniagent`` command in a terminal): a warm grader of the course, a
  process of ours that has pytest and the graders' libraries loaded already, forks the run
  (``grading/warm.py``); where none runs yet, the command grades forked and starts one.
* **forked** (Linux, from the ``miniagent`` command): the command forks itself and the child runs
  pytest. The child starts with what the command has already loaded -- the interpreter, the
  standard library, the course and its texts -- instead of loading them again (about a fifth of
  a small day's ``miniagent check``). The child's output goes to files the command reads after.
* **spawned** (elsewhere, and from a process that has imported pytest or runs other threads,
  such as a test session or a notebook's kernel, where a fork would copy a live pytest or a
  half-held lock): ``python -m pytest`` in a new interpreter. ``MINIAGENT_GRADING=spawn``
  forces it.

Either way the command waits ``RUN_TIMEOUT`` at most for the whole run, then ends the child; each
grader test has its own, much shorter limit inside the run (``grading/timeout.py``).
"""

from __future__ import annotations

import gc
import json
import os
import runpy
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from miniagent_course import handover
from miniagent_course.grading import sealed
from miniagent_course.grading.course import Course, Exercise, share_course

GRADING_PLUGIN = "miniagent_course.grading.plugin"
HYPOTHESIS_PLUGIN = "_hypothesis_pytestplugin"
# Every plugin a grading run may load (autoloading is off: the installed plugins cost more start-up
# time than grading a day). A grader that needs another plugin adds it here.
PLUGINS = (GRADING_PLUGIN, HYPOTHESIS_PLUGIN)
# pytest's own plugins that no grading run uses (doctests, pastebin, --setup-only/--setup-plan,
# --stepwise, the legacy ``tmpdir``/``testdir``, unittest classes, subtests): not loading them
# saves their imports and their hooks on every test.
UNUSED_PLUGINS = (
    "doctest",
    "pastebin",
    "setuponly",
    "setupplan",
    "stepwise",
    "legacypath",
    "unittest",
    "subtests",
)
RUN_TIMEOUT = 900  # seconds for a whole run; each grader test has its own, shorter timeout
PROCESS_ENV = handover.PROCESS_ENV  # "spawn": a new interpreter even where a fork would do;
# "fork": no warm grader; "warm": one even where the command's output is not a terminal
# A command run by a warm grader (grading/warm.py) has pytest loaded but no session running: it
# may fork its grading runs.
FORK_WITH_PYTEST_LOADED = False
AUTOLOAD_ENV = "PYTEST_DISABLE_PLUGIN_AUTOLOAD"


@dataclass
class GradingRun:
    """The outcome of one pytest run over some exercises' graders."""

    exitstatus: int
    output: str  # what pytest printed
    status: dict[str, dict[str, Any]] = field(default_factory=dict)  # {impl: {day: {...}}}
    tests: list[dict[str, Any]] = field(default_factory=list)

    def day_status(self, exercise: Exercise, impl: str = "learner") -> str:
        """``done``, ``failing``, ``not_started``, ``in_progress``, or ``broken`` (no results)."""
        return self.status.get(impl, {}).get(exercise.id, {}).get("status", "broken")

    def day_text(self, exercise: Exercise, impl: str = "learner") -> str:
        return self.status.get(impl, {}).get(exercise.id, {}).get("text", "")

    def day_tests(self, exercise: Exercise, impl: str = "learner") -> list[dict[str, Any]]:
        return [t for t in self.tests if t["exercise"] == exercise.id and t["impl"] == impl]


def uses_hypothesis(course: Course, exercises: Sequence[Exercise]) -> bool:
    """Do these days' graders, or their kits' own modules (``cases.py``), name hypothesis?

    Only then is hypothesis's pytest plugin loaded: it imports hypothesis at the end of every run
    that loads it, whether a test used it or not (a fifth of a small day's grading time).
    """
    for exercise in exercises:
        kit = course.root / exercise.kit
        for path in [*course.grader_files(exercise), *sorted(kit.glob("*.py"))]:
            try:
                if b"hypothesis" in path.read_bytes():
                    return True
            except OSError:
                continue
    return False


def pytest_args(
    course: Course, exercises: Sequence[Exercise], impl: str, results: Path, *extra: str
) -> list[str]:
    """pytest's arguments for grading ``exercises`` against ``impl`` (no interpreter, no ``-m``)."""
    files = [f for e in exercises for f in course.grader_files(e)]
    plugins = [GRADING_PLUGIN, *([HYPOTHESIS_PLUGIN] if uses_hypothesis(course, exercises) else [])]
    return [
        *map(str, files),
        f"--impl={impl}",
        f"--course-root={course.root}",
        f"--course-results={results}",
        *(arg for plugin in plugins for arg in ("-p", plugin)),
        *(arg for plugin in UNUSED_PLUGINS for arg in ("-p", f"no:{plugin}")),
        # -q comes from pyproject's addopts; twice would drop the summary
        "--no-header",
        "--tb=short",
        "--color=no",
        *extra,
    ]


def pytest_command(
    course: Course, exercises: Sequence[Exercise], impl: str, results: Path, *extra: str
) -> list[str]:
    """The command line that grades ``exercises`` against ``impl`` in a new interpreter."""
    return [sys.executable, "-m", "pytest", *pytest_args(course, exercises, impl, results, *extra)]


def run_graders(
    course: Course,
    exercises: Sequence[Exercise],
    impl: str = "learner",
    *extra: str,
    timeout: float = RUN_TIMEOUT,
) -> GradingRun:
    """Grade ``exercises`` in a process of their own; ``extra`` goes to pytest (e.g.
    ``--strict-exercises``). After ``timeout`` seconds the run is ended: ``exitstatus`` -1."""
    if not any(course.grader_files(e) for e in exercises):
        return GradingRun(exitstatus=5, output="")
    with tempfile.TemporaryDirectory(prefix="miniagent-") as tmp:
        results = Path(tmp) / "results.json"
        args = pytest_args(course, exercises, impl, results, *extra)
        if can_fork():
            got = _warm(course, args, Path(tmp), timeout)
            exitstatus, output = (
                got if got is not None else _forked(course, args, Path(tmp), timeout)
            )
        else:
            exitstatus, output = _spawned(course, args, timeout)
        run = GradingRun(exitstatus=exitstatus, output=output)
        if exitstatus != -1 and results.exists():
            data = json.loads(results.read_text(encoding="utf-8"))
            run.status, run.tests = data["status"], data["tests"]
        return run


def _warm(course: Course, args: list[str], folder: Path, timeout: float) -> tuple[int, str] | None:
    """Grade through the course's warm grader (``grading/warm.py``); None if there is none (one
    is then started for the next run, where the command may use one)."""
    from miniagent_course.grading import warm
    from miniagent_course.text import language

    if not handover.wanted():
        return None
    got = warm.grade(course, language(), args, folder, timeout)
    if got is None:
        warm.start(course)
    return got


def can_fork() -> bool:
    """May this process grade in a fork of itself? (See the module docstring.)"""
    if os.environ.get(PROCESS_ENV) == "spawn" or sys.platform != "linux":
        return False
    if ("pytest" in sys.modules or "_pytest" in sys.modules) and not FORK_WITH_PYTEST_LOADED:
        return False  # a test session: its child would inherit a live pytest
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def _spawned(course: Course, args: list[str], timeout: float) -> tuple[int, str]:
    """``python -m pytest`` in a new interpreter: (exit status, stdout + stderr)."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", *args],
            cwd=course.root,
            env={**sealed.new_run_env(os.environ), AUTOLOAD_ENV: "1"},
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as expired:
        return -1, expired.stdout if isinstance(expired.stdout, str) else ""
    return done.returncode, done.stdout + done.stderr


def _forked(course: Course, args: list[str], folder: Path, timeout: float) -> tuple[int, str]:
    """pytest in a fork of this process: (exit status, stdout + stderr), as ``_spawned`` gives
    them (a negative status: ended by that signal)."""
    streams = (folder / "stdout", folder / "stderr")
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()  # or the child would write out what this process has not yet
    gc.freeze()  # the child's collections then skip what this process holds (and copy none of it)
    try:
        pid = os.fork()
    except OSError:  # no room to copy this process: a new interpreter may still fit
        gc.unfreeze()
        return _spawned(course, args, timeout)
    if pid == 0:
        _grade_in_child(course, args, streams)
    gc.unfreeze()
    status = _wait(pid, timeout)
    if status is None:
        return -1, ""
    return status, _read_streams(streams)


def _read_streams(streams: Sequence[Path]) -> str:
    """What a grading child wrote to its output files, one after the other."""
    return "".join(
        path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
        for path in streams
    )


def _grade_in_child(course: Course, args: list[str], streams: tuple[Path, Path]) -> NoReturn:
    """The forked child: ``python -m pytest <args>`` from the course root, then exit."""
    code = 1
    try:
        for fd, path in zip((1, 2), streams, strict=True):
            opened = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(opened, fd)
            os.close(opened)
        os.chdir(course.root)
        os.environ[AUTOLOAD_ENV] = "1"
        sealed.start_new_run()  # a grading run of its own, even inside someone's pytest-xdist worker
        if sys.path:
            sys.path[0] = os.getcwd()  # as `python -m` puts it
        share_course(course)  # the plugin and the graders use the course already loaded
        sys.argv = ["pytest", *args]
        runpy.run_module("pytest", run_name="__main__", alter_sys=True)  # python -m pytest
    except SystemExit as stop:  # how pytest's __main__ ends
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except BaseException:
                pass
        os._exit(int(code))


def _wait(pid: int, timeout: float, gone: int | None = None) -> int | None:
    """The child's exit status, or None if it ran past ``timeout`` seconds (it is then killed);
    an interrupt (Ctrl-C) ends the child too, and so does the file descriptor ``gone`` turning
    readable (a warm grader's command that stopped waiting: ``grading/warm.py``)."""
    import select

    deadline = time.monotonic() + timeout
    try:
        watch: int | None = os.pidfd_open(pid)  # readable once the child has exited
    except (AttributeError, OSError):
        watch = None
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return os.waitstatus_to_exitcode(status)
            left = deadline - time.monotonic()
            if left <= 0 or (gone is not None and select.select([gone], [], [], 0)[0]):
                _kill(pid)
                return None
            if watch is not None:
                select.select([watch, *([] if gone is None else [gone])], [], [], left)
            else:
                time.sleep(min(left, 0.01))
    except BaseException:
        _kill(pid)
        raise
    finally:
        if watch is not None:
            os.close(watch)


def _kill(pid: int) -> None:
    """End the child ``pid`` and reap it (nothing if it is gone already)."""
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
