"""The pytest plugin of a classroom grading worker: collect once, fork once per run (Linux).

Grading a class spends most of a submission's time before its first test: a new interpreter,
pytest and the libraries the graders import, and the collection of every day's graders (their
modules imported, their asserts rewritten, their cases parametrized). None of it depends on the
submission: a submission's code is loaded by the first grader of its day, long after collection.
So :mod:`.pool` starts one long-lived pytest process per core, a **worker**, with the usual
command line of a grading run (``pool.child_command``) plus ``--classroom-worker=R,W``, two
pipe ends. The worker collects the graders of every day of the plan, in its own copy of the
course, and then, where its tests would start, waits for requests instead. For each one it forks:

* the **fork** is the grading run. Before anything of the submission runs, it leaves the worker's
  session (``setsid``) and its pipes, sends its output to the request's file (pytest's capture is
  started again on it), starts a grading run of its own (``sealed.start_new_run``), takes the
  request's time limit, keeps only the requested days' tests (the others are deselected) and
  registers the signed reporter of :mod:`.child` with the request's one-time settings file, which
  says ``start`` and ``collected`` and takes the watch's snapshot as a fresh child does after its
  collection. Then it returns into pytest, which runs the tests and ends the process as any
  pytest run ends.
* the **worker** tells the parent the fork's pid (the fork waits for that before it starts, so
  no run goes on that the parent cannot end), waits for it (ending it, and whatever it started,
  after the request's ``run_timeout``) and answers with its exit status.

The worker never reads a run's secret (the fork reads and deletes the settings file) and holds
nothing of one submission when the next is forked: each fork starts from the worker's state as
collection left it. The parent (:mod:`.pool`) checks the worker's copy of the course before each
submission and starts a new worker when anything in it is not as it was laid out.
"""

from __future__ import annotations

import argparse
import faulthandler
import gc
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from miniagent_course.classroom.child import PLUGIN_NAME, Reporter
from miniagent_course.grading import sealed
from miniagent_course.grading.plugin import SESSION
from miniagent_course.grading.run import _kill, _wait

WORKER_OPTION = "--classroom-worker"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(WORKER_OPTION, metavar="R,W", help=argparse.SUPPRESS)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> Any:
    channel = session.config.getoption("classroom_worker")
    if channel:
        read_fd, write_fd = (int(fd) for fd in channel.split(","))
        _serve(session, read_fd, write_fd)  # returns only in a fork, ready to run its tests
    return (yield)


def _receive(fd: int, buffer: bytearray) -> dict[str, Any] | None:
    """The next request (a JSON line); None when the parent has closed the pipe."""
    while b"\n" not in buffer:
        chunk = os.read(fd, 65536)
        if not chunk:
            return None
        buffer += chunk
    line, _, rest = bytes(buffer).partition(b"\n")
    buffer[:] = rest
    return json.loads(line)


def _send(fd: int, data: dict[str, Any]) -> None:
    os.write(fd, (json.dumps(data) + "\n").encode("ascii"))


def _serve(session: pytest.Session, read_fd: int, write_fd: int) -> None:
    """Fork a grading run per request; return in each fork, never in the worker."""
    buffer = bytearray()
    while True:
        try:
            request = _receive(read_fd, buffer)
        except (OSError, ValueError):
            request = None
        if request is None or request.get("kind") == "stop":
            os._exit(0)
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()  # or the fork would write out what the worker has not yet
        gc.freeze()  # the fork's collections skip what the worker holds (and copy none of it)
        go_read, go_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            os.close(write_fd)
            os.close(go_write)
            if not os.read(go_read, 1):  # the parent never learnt this run's pid: no run
                os._exit(1)
            os.close(go_read)
            _become_run(session, request)
            return
        os.close(go_read)
        try:
            _send(write_fd, {"pid": pid})
            os.write(go_write, b"1")  # only now may the run start
        except OSError:  # the parent is gone: so are this worker and the run
            _end(pid, wait=True)
            os._exit(0)
        finally:
            os.close(go_write)
        status = _wait(pid, float(request["run_timeout"]))  # None: it ran out of time
        _end(pid, wait=False)  # whatever the run started goes with it
        try:
            _send(write_fd, {"exit": status, "timed_out": status is None})
        except OSError:
            os._exit(0)


def _end(pid: int, wait: bool) -> None:
    """End the fork ``pid``'s process group (when ``wait``: the fork itself first, and reap it)."""
    if wait:
        _kill(pid)
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def _become_run(session: pytest.Session, request: dict[str, Any]) -> None:
    """In the fork: become the grading run ``request`` asks for (see the module)."""
    os.setsid()
    config = session.config
    _output_to(config, Path(request["output"]))
    sealed.start_new_run()
    timeout = float(request["timeout"])
    config.option.grader_timeout = timeout
    grading = config.pluginmanager.get_plugin(SESSION)
    if grading is not None:
        grading.timeout = timeout
        grading.started = time.monotonic()
    _keep_days(session, set(request["days"]))
    settings = Path(request["settings"])
    reporter = Reporter(config, json.loads(settings.read_text(encoding="utf-8")))
    settings.unlink()  # the secret is gone from disk before any submission code runs
    config.pluginmanager.register(reporter, PLUGIN_NAME)
    reporter.collected(session)
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    start = getattr(terminal, "_session_start", None)
    if start is not None and not isinstance(start, (int, float)):
        terminal._session_start = type(start)()  # pytest's "in N s": this run's, not the worker's


def _output_to(config: pytest.Config, output: Path) -> None:
    """Standard output and error, and pytest's capture of them, into ``output`` (a fresh
    capture: nothing of the worker's is shared with the run)."""
    fd = os.open(output, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    capture = config.pluginmanager.get_plugin("capturemanager")
    if capture is not None:
        capture.stop_global_capturing()
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    try:
        from _pytest.faulthandler import fault_handler_stderr_fd_key

        os.dup2(fd, config.stash[fault_handler_stderr_fd_key])
    except (ImportError, KeyError, OSError):
        faulthandler.enable(file=sys.stderr)
    os.close(fd)
    if capture is not None:
        capture.start_global_capturing()
        capture.suspend_global_capture()


def _keep_days(session: pytest.Session, days: set[str]) -> None:
    """Only the requested days' tests run; the others are deselected."""
    grading = session.config.pluginmanager.get_plugin(SESSION)
    keep, drop = [], []
    for item in session.items:
        exercise = grading.exercise_for(item.path) if grading is not None else None
        (keep if exercise is not None and exercise.id in days else drop).append(item)
    if drop:
        session.config.hook.pytest_deselected(items=drop)
        session.items[:] = keep
