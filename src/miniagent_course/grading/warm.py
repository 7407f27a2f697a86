"""A warm grader (Linux): a process that has loaded pytest and the graders' libraries once.

A grading run forked from the ``miniagent`` command (:mod:`.run`) still imports pytest, pydantic,
miniagent (and hypothesis, for a kit that names it) before its first grader: about half of a day's
``miniagent check``. A warm grader imports them once, for one course, and then forks per request:

* a **command** handed over whole (``miniagent check`` or ``list``, ``handover.py``): the fork
  takes the command's terminal, folder and environment and runs ``cli.main`` there, which grades
  in a fork of its own;
* a **grading run** (from a command that runs in its own process): the fork is the forked run of
  :mod:`.run` (``_grade_in_child``, with the command's environment).

Either way it is the same code started from a process that has more loaded: what it prints and
records is the same (``tests/course/meta/test_grading_process.py``).

* **Who starts one**: the ``miniagent`` command, in the background, after grading without one, when
  it runs in a terminal (or with ``MINIAGENT_GRADING=warm``). ``MINIAGENT_GRADING=fork`` or
  ``spawn`` never use one; neither do test sessions and notebooks (they never fork: :mod:`.run`).
* **How it is found**: a socket in a folder only its user can open, named after the course folder
  and the Python environment. One request at a time; the command waits for the answer.
* **Never stale**: before each run it compares every file it has loaded (its modules, the course's
  kits) and the environment variables read at import with what they were at its start; anything
  changed and it answers "stale" and ends, and the command grades without it, then starts a new
  one. The learner's files are read by each run as saved, never by the warm grader.
* **Gone when not used**: after ``MINIAGENT_WARM_IDLE`` seconds without a request (600 unless
  set), or when its course folder or its socket is gone. A command that is interrupted (Ctrl-C)
  ends its run too.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import importlib.metadata
import importlib.util
import json
import os
import pkgutil
import re
import select
import signal
import socket
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from miniagent_course import handover
from miniagent_course.grading import run
from miniagent_course.grading.course import Course, load_course
from miniagent_course.grading.run import (
    PLUGINS,
    PROCESS_ENV,
    _grade_in_child,
    _read_streams,
    _wait,
    uses_hypothesis,
)

IDLE_ENV = "MINIAGENT_WARM_IDLE"
IDLE_SECONDS = 600.0
POLL_SECONDS = 2.0  # how often an idle warm grader looks for its course folder and socket
# Environment variables that modules read when they are imported: a request that sets them
# otherwise than the warm grader's start did is answered "stale".
IMPORT_TIME_ENV = ("PYTHON", "LANGGRAPH_", "HYPOTHESIS_")
WARMED = ("miniagent", "miniagent_course.grading")  # every module of these packages is imported


def address(root: Path) -> Path | None:
    """The socket of the warm grader of the course at ``root`` (``handover.address``)."""
    where = handover.address(str(root))
    return Path(where) if where else None


# --- the command's side ----------------------------------------------------------------------


def grade(
    course: Course, lang: str, args: list[str], folder: Path, timeout: float
) -> tuple[int, str] | None:
    """Grade through the course's warm grader: (exit status, output) as ``run._forked`` gives
    them, or None when there is none or it is stale (grade without it then)."""
    where = address(course.root)
    if where is None or not where.exists():
        return None
    streams = (folder / "stdout", folder / "stderr")
    request = handover.request_of(
        "grade",
        str(course.root.resolve()),
        args=args,
        streams=[str(path) for path in streams],
        lang=lang,
        timeout=timeout,
    )
    try:
        reply = handover.ask(str(where), request)
    except OSError:
        return None
    if reply is None or "exit" not in reply:
        return None  # stale, or it ended before answering
    if reply["exit"] is None:
        return -1, ""  # ran past ``timeout``
    return int(reply["exit"]), _read_streams(streams)


def start(course: Course) -> None:
    """Start the course's warm grader in the background (it ends at once if one is running)."""
    with contextlib.suppress(OSError):
        subprocess.Popen(
            [sys.executable, "-m", __name__, str(course.root)],
            cwd=course.root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # not ended with the command, nor by the terminal's Ctrl-C
        )


def running(root: Path) -> bool:
    """Does a warm grader of the course at ``root`` take requests (for this environment)?"""
    where = address(root)
    if where is None:
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(where))
        except OSError:
            return False
    return True


def stop(root: Path) -> None:
    """End the warm grader of the course at ``root``: its socket goes now, the process at its
    next look (``POLL_SECONDS``), after the run it may be doing."""
    where = address(root)
    if where is not None:
        with contextlib.suppress(OSError):
            where.unlink()


# --- the warm grader's side ------------------------------------------------------------------


def serve(root: Path, command: Callable[[list[str]], int] | None = None) -> None:
    """Be the warm grader of the course at ``root`` until it is idle, stale or gone; ``command``
    runs the commands handed over (``cli.main``: given by the program, the layer that has it)."""
    where = address(root)
    listener = _listen(where) if where is not None else None
    if listener is None:
        return  # one is already serving, or no private place for a socket
    try:
        mine = _identity(where)
    except OSError:
        listener.close()
        return
    try:
        courses: dict[str, Course] = {}
        try:
            kits = _warm_up(root)
        except OSError:  # its course went away (or cannot be read) while it warmed up
            return
        files = _watched(root, kits)
        marks = _marks(files, root, kits)
        env = _import_time_env(os.environ)
        idle = float(os.environ.get(IDLE_ENV) or IDLE_SECONDS)
        last = time.monotonic()
        while True:
            ready, _, _ = select.select([listener], [], [], POLL_SECONDS)
            if not ready:
                if time.monotonic() - last > idle or not _still_mine(root, where, mine):
                    return
                if _marks(files, root, kits) != marks:
                    return  # the course was updated: the next command starts a new one
                continue
            channel, _ = listener.accept()
            fds: list[int] = []
            with channel:
                try:
                    request, fds = _receive_with_fds(channel)
                except (OSError, ValueError):
                    continue
                try:
                    if request is None or not _ours(request, root):
                        _reply(channel, {"refused": True})  # the command runs without us
                        continue
                    if (
                        _marks(files, root, kits) != marks
                        or _import_time_env(request["env"]) != env
                    ):
                        _leave(listener, where, mine)  # first: the command starts a new one
                        _reply(channel, {"stale": True})
                        return
                    if request["kind"] == "command" and len(fds) == 3 and command is not None:
                        status = _command(command, listener, channel, fds, request)
                    elif request["kind"] == "grade":
                        lang = request["lang"]
                        if lang not in courses:
                            courses[lang] = load_course(root, lang)
                        status = _run(listener, channel, courses[lang], request)
                    else:
                        _reply(channel, {"refused": True})
                        continue
                    _reply(channel, {"exit": status})
                finally:
                    for fd in fds:
                        os.close(fd)
            last = time.monotonic()
    finally:
        _leave(listener, where, mine)


def _leave(listener: socket.socket, where: Path, mine: tuple[int, int, int]) -> None:
    """Take no more requests: the socket is closed, and its file removed if it is still ours."""
    listener.close()
    with contextlib.suppress(OSError):
        if _identity(where) == mine:
            where.unlink()


def _listen(where: Path) -> socket.socket | None:
    """A listening socket at ``where``, or None if a warm grader answers there already."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    for _ in range(2):
        try:
            listener.bind(str(where))
            listener.listen(8)
            return listener
        except OSError:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                try:
                    probe.connect(str(where))
                    break  # somebody answers: one is serving
                except OSError:
                    with contextlib.suppress(OSError):
                        where.unlink()  # left by one that ended without cleaning up
    listener.close()
    return None


def _warm_up(root: Path) -> str:
    """Import what grading runs import: pytest, what the grading plugin imports, miniagent (and
    hypothesis when a kit names it). A module that cannot be imported is left to the runs."""
    import _pytest.config

    # pytest's own plugins (imported before its assert rewriting starts, so no warning) and what
    # they import when a run starts (pdb, xml for junitxml), and what the graders' pydantic uses
    names = ["pytest", "_pytest.assertion.rewrite", "pdb", "xml.etree.ElementTree"]
    names += [f"_pytest.{name}" for name in _pytest.config.default_plugins]
    names += ["pydantic.dataclasses", "pydantic.plugin._loader", "concurrent.futures.thread"]
    for package in WARMED:
        module = importlib.import_module(package)
        found = [
            info.name
            for info in pkgutil.walk_packages(module.__path__, f"{package}.")
            if not info.name.endswith("__main__")
        ]
        names += _not_importing_plugins(found)
    course = load_course(root)
    if uses_hypothesis(course, course.exercises):
        names.append("hypothesis")
    for name in names:
        with contextlib.suppress(Exception):
            importlib.import_module(name)
    with contextlib.suppress(Exception):  # the installed packages' entry points, read once here
        importlib.import_module("pydantic.plugin._loader").get_plugins()
        for distribution in importlib.metadata.distributions():
            distribution.entry_points  # noqa: B018  (fills importlib.metadata's caches)
    gc.collect()
    gc.freeze()  # each run's collections then skip what was loaded here (and copy none of it)
    return course.kits


def _not_importing_plugins(names: list[str]) -> list[str]:
    """``names`` but the modules that import a grading plugin, directly or through another: pytest
    rewrites the asserts of a plugin it loads (``-p``), which it cannot once it is imported."""
    sources = {}
    for name in names:
        spec = importlib.util.find_spec(name)
        try:
            sources[name] = Path(spec.origin).read_text(encoding="utf-8") if spec else ""
        except (OSError, TypeError, ValueError):
            sources[name] = ""
    left = set(PLUGINS)
    while True:
        more = {n for n, text in sources.items() if n not in left and _imports(text, left)}
        if not more:
            return [name for name in names if name not in left]
        left |= more


def _imports(source: str, modules: set[str]) -> bool:
    """Does ``source`` import one of ``modules`` (``import a.b``, ``from a.b import x`` or
    ``from a import b``)?"""
    for module in modules:
        parent, _, leaf = module.rpartition(".")
        patterns = [rf"^\s*(from|import)\s+{re.escape(module)}\b(?!\.)"]
        if parent:
            patterns.append(rf"^\s*from\s+{re.escape(parent)}\s+import\s+[^\n]*\b{leaf}\b")
        if any(re.search(pattern, source, re.MULTILINE) for pattern in patterns):
            return True
    return False


def _watched(root: Path, kits: str) -> list[str]:
    """Every file a run could see through this process: its modules, course.toml, the kits'
    kit.toml and the course's texts (``*.toml`` of the course package)."""
    files = {getattr(module, "__file__", None) for module in list(sys.modules.values())}
    files.add(str(root / "course.toml"))
    package = Path(importlib.import_module("miniagent_course").__file__ or ".").parent
    files.update(str(p) for p in package.rglob("*.toml"))
    if kits:
        files.update(str(p) for p in (root / kits).glob("*/kit.toml"))
    return sorted(name for name in files if name)


def _marks(files: list[str], root: Path, kits: str) -> list[tuple[int, int]]:
    """Size and modification time of each of ``files`` now, and which kits there are."""
    marks = []
    for name in files:
        try:
            info = os.stat(name)
        except OSError:
            marks.append((-1, -1))
        else:
            marks.append((info.st_size, info.st_mtime_ns))
    if kits:
        marks.append((len(list((root / kits).glob("*/kit.toml"))), 0))  # a day added or removed
    return marks


def _import_time_env(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith(IMPORT_TIME_ENV)}


def _identity(where: Path) -> tuple[int, int, int]:
    """Which file ``where`` is: a socket made later at the same place is another (an inode
    number alone may be given again at once)."""
    info = where.stat()
    return info.st_dev, info.st_ino, info.st_ctime_ns


def _still_mine(root: Path, where: Path, mine: tuple[int, int, int]) -> bool:
    try:
        return root.is_dir() and _identity(where) == mine
    except OSError:
        return False


def _run(
    listener: socket.socket, channel: socket.socket, course: Course, request: dict[str, Any]
) -> int | None:
    """Fork the grading run ``request`` asks for and wait for it: its exit status, or None when
    it ran past its time or the command stopped waiting (the run is ended then)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    pid = os.fork()
    if pid == 0:
        listener.close()
        channel.close()
        os.environ.clear()
        os.environ.update(request["env"])
        _grade_in_child(course, request["args"], tuple(Path(p) for p in request["streams"]))
    return _wait(pid, float(request["timeout"]), gone=channel.fileno())


def _receive_with_fds(channel: socket.socket) -> tuple[dict[str, Any] | None, list[int]]:
    """A request and the file descriptors sent with it (a command's terminal: 0, 1, 2)."""
    data, fds, _, _ = socket.recv_fds(channel, 1 << 20, 3)
    try:
        return (handover.receive(channel, data) if data else None), list(fds)
    except (OSError, ValueError):
        for fd in fds:
            os.close(fd)
        raise


def _ours(request: dict[str, Any], root: Path) -> bool:
    """Is ``request`` for this course and this Python environment (two socket names may
    collide)?"""
    try:
        same = Path(request["root"]).resolve() == root.resolve()
    except (KeyError, TypeError, OSError):
        return False
    return same and request.get("prefix") == sys.prefix and isinstance(request.get("env"), dict)


def _command(
    command: Callable[[list[str]], int],
    listener: socket.socket,
    channel: socket.socket,
    fds: list[int],
    request: dict[str, Any],
) -> int | None:
    """Fork and run the ``miniagent`` command ``request`` hands over, on its terminal (``fds``),
    in its folder and environment; its exit status, or None when the command stopped waiting
    (the fork and whatever it started are ended then)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setpgid(0, 0)  # its own group: ended whole, with the grading run it forks
            listener.close()
            channel.close()
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            os.environ[PROCESS_ENV] = "fork"  # its grading forks from here, never asks us
            run.FORK_WITH_PYTEST_LOADED = True  # loaded, but no pytest session is running
            sys.argv = [request.get("program") or "miniagent", *request["argv"]]
            encoding = request.get("encoding") or "utf-8"
            sys.stdin = open(0, encoding=encoding, closefd=False)  # noqa: SIM115
            for fd, name in ((1, "stdout"), (2, "stderr")):
                tty = os.isatty(fd)
                stream = open(fd, "w", encoding=encoding, closefd=False, buffering=1 if tty else -1)  # noqa: SIM115
                setattr(sys, name, stream)
            code = command(request["argv"])
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(BaseException):
                    stream.flush()
            os._exit(int(code))
    status = _wait(pid, run.RUN_TIMEOUT + 60, gone=channel.fileno())
    if status is None:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)  # the grading run it forked goes with it
    return status


def _reply(channel: socket.socket, data: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        channel.sendall((json.dumps(data) + "\n").encode("utf-8"))


if __name__ == "__main__":
    from miniagent_course.cli import main as cli_main  # a program may run the command

    serve(Path(sys.argv[1]).resolve(), cli_main)
