"""The pytest plugin of a classroom grading run's child process: a signed report, and a watch.

The parent (:mod:`.grade`) starts pytest with ``-p miniagent_course.classroom.child
--classroom-settings FILE``. The file holds a per-run secret (the nonce), where to write the
report and the paths a submission must not touch; it is read and deleted when pytest
configures, before any submission code can run (a learner's file is loaded by the first grader of
its day, long after that). Then:

* every line of the report is ``<HMAC-SHA256 of the line, keyed by the nonce> <JSON>``, numbered,
  so the parent can tell its own lines from a forged or reordered one;
* ``collected``: the graded tests, written when collection ends and before any submission code
  runs: what the parent expects to hear about;
* ``test``: each test's record, as the grading plugin made it (``grading/plugin.py``);
* after each day's last test, the **watch** compares the grading and reporting machinery with
  how it was when collection ended: every function and class of ``miniagent_course.grading``,
  ``.classroom`` and ``.text`` (and each global of theirs), of pytest and pluggy, of ``json``,
  ``hmac`` and ``os``; the hook implementations registered with pytest; the guarded files (a
  results file the submission must not write); and the report file itself. A change is written
  as ``tampered``, naming the day's last test: the parent gives that day no marks and trusts
  nothing after it. (Once per day, not per test: a check costs milliseconds, a day is the unit
  that is flagged, and only that day's code has run since the last check.)
* ``end``: written when the session ends. A run without it ended early.

This is a tripwire in the submission's own process, not a sandbox: it catches the obvious
attacks (a forged results file, a patched reporter or grader, an early exit), and the parent
checks what a tripwire cannot see from inside (the count of tests, the signatures, the end).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import os
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from miniagent_course.grading.plugin import SESSION

SETTINGS_OPTION = "--classroom-settings"
PLUGIN_NAME = "miniagent-classroom-reporter"
WATCHED_PACKAGES = (
    "miniagent_course.grading",
    "miniagent_course.classroom",
    "miniagent_course.text",
    "_pytest",
    "pluggy",
    "pytest",
)
WATCHED_MODULES = ("json", "json.encoder", "hmac", "os")
OWN_PACKAGES = WATCHED_PACKAGES[:3]  # every global is watched, not only functions and classes
DETAILS = 4000  # characters of a failure's details sent to the parent


def sign(key: bytes, payload: str) -> str:
    return hmac.new(key, payload.encode("utf-8"), hashlib.sha256).hexdigest()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(SETTINGS_OPTION, metavar="FILE", help=argparse.SUPPRESS)


@pytest.hookimpl(trylast=True)  # after the grading plugin has registered its session
def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("classroom_settings")
    if not path or hasattr(config, "workerinput"):
        return
    settings = json.loads(Path(path).read_text(encoding="utf-8"))
    Path(path).unlink()  # the nonce is gone from disk before any submission code runs
    config.pluginmanager.register(Reporter(config, settings), PLUGIN_NAME)


def _in_watch(name: str) -> bool:
    return name in WATCHED_MODULES or any(
        name == p or name.startswith(p + ".") for p in WATCHED_PACKAGES
    )


def _code(value: Any) -> Any:
    function = getattr(value, "__func__", value)  # staticmethod, classmethod, bound method
    if isinstance(value, property):
        function = value.fget
    return getattr(function, "__code__", None)


class Machinery:
    """What the watch compares: objects held with what they were when it started."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.entries: list[tuple[str, dict[str, Any], str, Any, Any]] = []
        for module_name, module in sorted(list(sys.modules.items()), key=lambda p: p[0]):
            if module is None or not _in_watch(module_name):
                continue
            own = any(module_name.startswith(p) for p in OWN_PACKAGES)
            namespace = vars(module)
            for name, value in list(namespace.items()):
                if name.startswith("__") or isinstance(value, types.ModuleType):
                    continue
                is_function = callable(value) or isinstance(value, property)
                if not (own or is_function):
                    continue
                self._add(f"{module_name}.{name}", namespace, name, value)
                if isinstance(value, type) and value.__module__ == module_name:
                    for attr, member in list(vars(value).items()):
                        if _code(member) is not None:
                            label = f"{module_name}.{name}.{attr}"
                            self._add(label, vars(value), attr, member)
        self.hooks = self._hooks()

    def _add(self, label: str, namespace: Any, name: str, value: Any) -> None:
        self.entries.append((label, namespace, name, value, _code(value)))

    def _hooks(self) -> dict[str, tuple[Any, ...]]:
        hook = self.config.pluginmanager.hook
        return {
            name: tuple(impl.function for impl in caller.get_hookimpls())
            for name, caller in vars(hook).items()
            if hasattr(caller, "get_hookimpls")
        }

    def changed(self) -> str | None:
        """The first thing that is not as it was (None: nothing)."""
        missing = object()
        for label, namespace, name, value, code in self.entries:
            now = namespace.get(name, missing)
            if now is not value:
                return label
            if code is not None and _code(now) is not code:
                return label
        hooks = self._hooks()
        if hooks != self.hooks:
            name = next(
                n for n in sorted(set(hooks) | set(self.hooks)) if hooks.get(n) != self.hooks.get(n)
            )
            return f"the hooks of {name}"
        return None


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size)


class Reporter:
    """Writes the signed report and keeps the watch (a plugin object of the child's session)."""

    def __init__(self, config: pytest.Config, settings: dict[str, Any]) -> None:
        self.config = config
        self.key = bytes.fromhex(settings["nonce"])
        self.stream = Path(settings["stream"])
        self.fd = os.open(self.stream, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self.sequence = 0
        self.written = 0
        self.guarded = [Path(p) for p in settings.get("guarded", [])]
        self.stamps: dict[Path, tuple[int, int] | None] = {}
        self.machinery: Machinery | None = None
        self.last_of_day: set[str] = set()  # the watch runs after these tests
        self.tampered = False
        self.send("start", pid=os.getpid())

    def send(self, kind: str, **data: Any) -> None:
        payload = json.dumps({"seq": self.sequence, "kind": kind, **data}, ensure_ascii=True)
        line = f"{sign(self.key, payload)} {payload}\n".encode("ascii")
        os.write(self.fd, line)
        self.sequence += 1
        self.written += len(line)

    def watch(self) -> str | None:
        """What changed since collection ended (None: nothing), for the parent to word:
        ``patched:<name>``, ``wrote:<file>`` or ``report``."""
        if self.machinery is None or self.tampered:
            return None
        changed = self.machinery.changed()
        if changed is not None:
            return f"patched:{changed}"
        for path, stamp in self.stamps.items():
            if _stamp(path) != stamp:
                return f"wrote:{path}"
        if _stamp(self.stream) is None or self.stream.stat().st_size != self.written:
            return "report"
        return None

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.collected(session)

    def collected(self, session: pytest.Session) -> None:
        """Collection has ended: say what will be graded, and take the watch's snapshot (a
        classroom worker's fork calls it itself: its collection ended in the worker)."""
        grading = self.config.pluginmanager.get_plugin(SESSION)
        course = getattr(grading, "course", None)
        tests = []
        for item in session.items:
            spec = getattr(getattr(item, "callspec", None), "params", {}).get("impl")
            exercise = course.exercise_for_grader(item.path) if course is not None else None
            if isinstance(spec, str) and exercise is not None:
                tests.append([item.nodeid, exercise.id])
        self.send("collected", tests=tests)
        self.last_of_day = {
            nodeid
            for (nodeid, day), following in zip(tests, [*tests[1:], ["", ""]], strict=False)
            if day != following[1]
        }
        self.stamps = {path: _stamp(path) for path in self.guarded}
        self.machinery = Machinery(self.config)

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "teardown":
            return
        problem = self.watch() if report.nodeid in self.last_of_day else None
        if problem is not None:
            self.tampered = True
            self.send("tampered", nodeid=report.nodeid, what=problem)
        grading = self.config.pluginmanager.get_plugin(SESSION)
        record = getattr(grading, "records", {}).get(report.nodeid)
        if record is None:
            return
        self.send(
            "test",
            nodeid=record.nodeid,
            exercise=record.exercise,
            status=record.status,
            message=record.message,
            details=record.details[:DETAILS],
        )

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, exitstatus: int) -> None:
        problem = self.watch()
        if problem is not None:
            self.tampered = True
            self.send("tampered", nodeid="", what=problem)
        self.send("end", exitstatus=int(exitstatus))
        os.close(self.fd)
