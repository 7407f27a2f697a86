"""Grading workers (Linux): one long-lived pytest process per core, forking a run per request.

A grading run that starts from nothing pays for a new interpreter, pytest, the graders' imports
and the collection of every day's graders before the submission's first test: two fifths of a
whole-course submission's time, and the same for every submission. A :class:`Pool` pays it once
per worker instead. Each :class:`Worker` is a pytest process started with the same command line
as a child of :mod:`.grade` (``-p miniagent_course.classroom.worker``), in a copy of the course
of its own (a :class:`Workspace`); it collects every graded day's graders once and then forks a
grading run for each request (:mod:`.worker` says what the fork does before its first test). The
parent side is the same as with a child process: a one-time secret in a settings file, a signed
report in a file, the run's output in a file, and the exit status (or the time running out).

Between two submissions the worker's copy of the course is checked: the exercise files and the
runs' own records (``.miniagent/``, ``.hypothesis/``) are laid out again, and anything else not
as it was laid out (a file written, changed, removed or replaced by a link) retires the worker:
a new one starts in a fresh copy. So no submission is graded in a copy another one touched, as
when each had a fresh copy. The runs of one submission share its copy, as they did.

Elsewhere than on Linux, or with ``MINIAGENT_GRADING=spawn``, :mod:`.grade` starts a new
``python -m pytest`` for each run, as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from miniagent_course.classroom.config import Classroom
from miniagent_course.classroom.parts import day_parts
from miniagent_course.classroom.submission import Found, copy_course
from miniagent_course.grading.course import Course
from miniagent_course.grading.run import PLUGINS, PROCESS_ENV, UNUSED_PLUGINS

CHILD_PLUGIN = "miniagent_course.classroom.child"
WORKER_PLUGIN = "miniagent_course.classroom.worker"
UNSET_ENV = ("PYTEST_ADDOPTS", "MINIAGENT_COURSE_ROOT", "MINIAGENT_NOTEBOOK_IMPL")
RECORDS = (".miniagent", ".hypothesis")  # what a run writes in the course: laid out again
GRACE = 30.0  # seconds the parent waits past a run's own time limit before ending the worker
STARTUP = 300.0  # seconds a new worker may take to collect before its first fork
LOG_TAIL = 4000


def forking() -> bool:
    """Can grading use workers that fork (Linux, unless ``MINIAGENT_GRADING=spawn``)?"""
    return (
        sys.platform.startswith("linux")
        and hasattr(os, "fork")
        and os.environ.get(PROCESS_ENV) != "spawn"
    )


def child_command(workspace: Course, days: Sequence[str], timeout: float, *extra: str) -> list[str]:
    """``python -m pytest`` grading ``days`` of ``workspace`` in strict mode with the classroom's
    reporter (:mod:`.child`); ``extra``: more arguments (a worker's plugin and option)."""
    files = [str(f) for d in days for f in workspace.grader_files(workspace.exercise(d))]
    return [
        sys.executable,
        "-m",
        "pytest",
        *files,
        "--impl=learner",
        f"--course-root={workspace.root}",
        "--strict-exercises",
        f"--grader-timeout={timeout:g}",
        *(arg for plugin in (*PLUGINS, CHILD_PLUGIN) for arg in ("-p", plugin)),
        *(arg for plugin in ("cacheprovider", *UNUSED_PLUGINS) for arg in ("-p", f"no:{plugin}")),
        "-q",
        "--no-header",
        "--tb=short",
        "--color=no",
        *extra,
    ]


def child_env() -> dict[str, str]:
    """A grading process's environment: this one's, without what would change the run."""
    env = {k: v for k, v in os.environ.items() if k not in UNSET_ENV}
    env.update(PYTEST_DISABLE_PLUGIN_AUTOLOAD="1", PYTHONDONTWRITEBYTECODE="1")
    return env


def _remove(path: Path) -> None:
    """``path``, whatever it is (a link is removed, not followed); nothing if it is absent."""
    try:
        if path.is_symlink() or not path.is_dir():
            path.unlink(missing_ok=True)
        else:
            shutil.rmtree(path)
    except OSError:
        shutil.rmtree(path, ignore_errors=True)


class Workspace:
    """A worker's copy of the course: :func:`.submission.copy_course`, a ``pytest.ini`` of its
    own, and each day's exercise file (its stub until a submission is laid out)."""

    def __init__(self, course: Course, days: Sequence[str], root: Path) -> None:
        root.mkdir(parents=True)
        self.root = root
        self.course = copy_course(course, list(days), root)
        (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # this folder's own
        self.days = list(days)
        self.files = {d: root / self.course.exercise(d).file for d in days}
        self.stubs = {
            d: (root / self.course.exercise(d).kit / "stub.py").read_bytes() for d in days
        }
        self.lay_out(Found())
        self.laid_out = self._entries()

    def lay_out(self, found: Found) -> None:
        """Each day's file of ``found`` (its stub when there is none) in place; no records."""
        for name in RECORDS:
            _remove(self.root / name)
        for day, target in self.files.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            _remove(target)  # a link in its place is not written through
            content = found.contents.get(day)
            target.write_bytes(self.stubs[day] if content is None else content)

    def _entries(self) -> dict[str, tuple[int, ...]]:
        """Every entry under the root but the runs' records: its kind and permissions, inode,
        and a file's size and times (a change of content or of its times moves its ctime)."""
        exercise_files = {str(p.relative_to(self.root)) for p in self.files.values()}
        entries: dict[str, tuple[int, ...]] = {}
        info = os.lstat(self.root)
        entries["."] = (info.st_mode, info.st_ino)
        for current, dirs, files in os.walk(self.root):
            here = os.path.relpath(current, self.root)
            if here == ".":
                dirs[:] = [d for d in dirs if d not in RECORDS]
                files = [f for f in files if f not in RECORDS]
            for name in (*dirs, *files):
                path = os.path.join(current, name)
                relative = os.path.normpath(os.path.join(here, name))
                info = os.lstat(path)
                if relative in exercise_files:
                    entries[relative] = (stat.S_IFMT(info.st_mode),)
                elif stat.S_ISDIR(info.st_mode):
                    entries[relative] = (info.st_mode, info.st_ino)
                else:
                    entries[relative] = (
                        info.st_mode,
                        info.st_ino,
                        info.st_size,
                        info.st_mtime_ns,
                        info.st_ctime_ns,
                    )
        return entries

    def intact(self) -> bool:
        """Is everything but the exercise files and the records as it was laid out?"""
        try:
            return self._entries() == self.laid_out
        except OSError:
            return False


class WorkerGone(Exception):
    """The worker process ended (or stopped answering)."""


class Worker:
    """One worker process and its workspace (see the module)."""

    def __init__(
        self, course: Course, days: Sequence[str], timeout: float, core: int | None = None
    ) -> None:
        self.source, self.days, self.timeout, self.core = course, list(days), timeout, core
        self.process: subprocess.Popen[bytes] | None = None
        self.found = Found()
        self.restarts = -1  # workers started after the first
        self.closed = False
        self.running: int | None = None  # the pid of the run it has forked, until it ends
        self._start()

    def _start(self) -> None:
        self.private = Path(tempfile.mkdtemp(prefix="miniagent-worker-"))
        self.workspace = Workspace(self.source, self.days, self.private / "course")
        self.buffer = b""
        requests_r, self.requests = os.pipe()
        self.replies, replies_w = os.pipe()
        command = child_command(
            self.workspace.course,
            self.days,
            self.timeout,
            "-p",
            WORKER_PLUGIN,
            f"--classroom-worker={requests_r},{replies_w}",
        )
        with open(self.private / "worker.log", "wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=self.workspace.root,
                env=child_env(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=(requests_r, replies_w),
                start_new_session=True,
            )
        os.close(requests_r)
        os.close(replies_w)
        if self.core is not None:  # its runs, and their threads, stay on it (see Pool)
            with contextlib.suppress(OSError):
                os.sched_setaffinity(self.process.pid, {self.core})
        self.restarts += 1

    @property
    def course(self) -> Course:
        """The workspace's course (where the submission's files are)."""
        return self.workspace.course

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def restart(self) -> None:
        if self.closed:
            raise WorkerGone("the pool is closed")
        self._stop()
        self._start()
        self.workspace.lay_out(self.found)

    def prepare(self, found: Found) -> Course:
        """Lay out a new submission: in a new worker if this one's copy was touched or it
        ended."""
        self.found = found
        if not self.alive() or not self.workspace.intact():
            self.restart()
        else:
            self.workspace.lay_out(found)
        return self.course

    def run(
        self, days: Sequence[str], timeout: float, run_timeout: float, settings: Path, output: Path
    ) -> tuple[int | None, bool]:
        """Fork a run of ``days``: its exit status (None if it ran out of time) and whether it
        did; ``settings`` holds its secret, ``output`` receives what it prints. A worker that
        ends before it has forked (no submission code has run) is started again, once."""
        request = {
            "days": list(days),
            "timeout": timeout,
            "run_timeout": run_timeout,
            "settings": str(settings),
            "output": str(output),
        }
        for attempt in (1, 2):
            if not self.alive():
                self.restart()
            pid = None
            try:
                self._send(request)
                deadline = time.monotonic() + STARTUP + run_timeout
                pid = self.running = int(self._reply(deadline)["pid"])
                reply = self._reply(time.monotonic() + run_timeout + GRACE)
                return reply["exit"], bool(reply["timed_out"])
            except (WorkerGone, OSError, ValueError, KeyError, TypeError) as gone:
                timed_out = isinstance(gone, TimeoutError)
                code = self._end(pid)
                if pid is None and not timed_out and attempt == 1:
                    continue
                if not output.exists() or not output.stat().st_size:
                    output.write_bytes(self.log_tail())  # why the worker ended, if it said
                return (None if timed_out else code), timed_out
            finally:
                self.running = None
        raise AssertionError("unreachable")

    def _send(self, data: dict[str, Any]) -> None:
        try:
            os.write(self.requests, (json.dumps(data) + "\n").encode("utf-8"))
        except OSError as error:
            raise WorkerGone from error

    def _reply(self, deadline: float) -> dict[str, Any]:
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([self.replies], [], [], left)
            if ready:
                chunk = os.read(self.replies, 65536)
                if not chunk:
                    raise WorkerGone
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return json.loads(line)

    def _end(self, pid: int | None) -> int | None:
        """End the worker and the run ``pid`` (and their groups); the worker's exit status."""
        if pid is not None:
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
        assert self.process is not None
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGKILL)
        return self.process.wait()

    def log_tail(self) -> bytes:
        try:
            return (self.private / "worker.log").read_bytes()[-LOG_TAIL:]
        except OSError:
            return b""

    def close(self) -> None:
        """Stop the worker and remove its workspace, for good."""
        self.closed = True
        self._stop()

    def _stop(self) -> None:
        if self.running is not None:  # stopped while it grades (an interrupt): the run ends too
            with contextlib.suppress(OSError):
                os.killpg(self.running, signal.SIGKILL)
        if self.process is not None:
            with contextlib.suppress(OSError):
                os.write(self.requests, b'{"kind": "stop"}\n')
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            with contextlib.suppress(OSError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            for fd in (self.requests, self.replies):
                with contextlib.suppress(OSError):
                    os.close(fd)
        shutil.rmtree(self.private, ignore_errors=True)


class Pool:
    """``size`` workers for the days of ``classroom``, each lent to one submission at a time.

    A pool of several workers keeps each on a core of its own (the cores this process may use,
    in turn). A run starts a thread per grader test (``grading/timeout.py``); left to the
    scheduler, the threads of two runs hop between the cores, away from their caches: on the
    2-core course box, 12 whole-course submissions took a fifth more wall time and a twelfth
    more CPU time (three rounds, taking turns). A pool of one worker, as for one submission, is
    not kept: several processes grading at once would all be kept on the first core.
    """

    def __init__(self, course: Course, classroom: Classroom, size: int = 1) -> None:
        self.days = [plan.day for plan in classroom.days]
        timeout = classroom.days[0].timeout  # each run says its own
        size = max(1, size)
        cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
        if size < 2 or len(cores) < 2:
            cores = []
        self.workers = [
            Worker(course, self.days, timeout, cores[n % len(cores)] if cores else None)
            for n in range(size)
        ]
        first = self.workers[0].course
        self.parts = {d: day_parts(first, first.exercise(d)) for d in self.days}
        self.idle: queue.Queue[Worker] = queue.Queue()
        for worker in self.workers:
            self.idle.put(worker)

    @contextlib.contextmanager
    def worker(self) -> Iterator[Worker]:
        worker = self.idle.get()
        try:
            yield worker
        finally:
            self.idle.put(worker)

    @property
    def restarts(self) -> int:
        """Workers started again (a submission ended one, or touched its copy of the course)."""
        return sum(w.restarts for w in self.workers)

    @property
    def closed(self) -> bool:
        return any(w.closed for w in self.workers)

    def close(self) -> None:
        for worker in self.workers:
            worker.close()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
