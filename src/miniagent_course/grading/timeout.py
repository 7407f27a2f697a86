"""Run one grader with a time limit, the same way on Linux, macOS and Windows.

POSIX signals (what pytest-timeout uses on Linux) do not exist on Windows, and pytest-timeout's
fallback there ends the whole process. Instead the grader runs in a worker thread (one, kept from
call to call until a timeout retires it) while the test's own thread waits. When time is up, the worker is asked to stop: CPython can raise an exception in
another thread at its next bytecode (``PyThreadState_SetAsyncExc``), which ends a Python-level
endless loop such as ``while True: pass``. A thread stuck inside C code cannot be stopped that way;
it is a daemon, so it never keeps the run from ending, and the plugin runs nothing more of that
day (one timeout per day, not one per grader).
"""

from __future__ import annotations

import contextvars
import ctypes
import os
import sys
import threading
import traceback
from collections.abc import Callable
from queue import SimpleQueue
from typing import Any


class GraderTimeout(Exception):
    """A grader ran longer than its time limit; ``files`` are those of the code it was running
    when it was stopped (innermost last), so a loop can be placed in the learner's file or not."""

    def __init__(self, seconds: float = 0.0, files: tuple[str, ...] = ()) -> None:
        super().__init__(seconds)
        self.files = files


def _raise_in(thread: threading.Thread, error: type[BaseException]) -> None:
    """Ask ``thread`` to raise ``error`` at its next bytecode (CPython; elsewhere a no-op)."""
    set_async_exc = getattr(getattr(ctypes, "pythonapi", None), "PyThreadState_SetAsyncExc", None)
    if set_async_exc is not None and thread.ident is not None:
        set_async_exc(ctypes.c_ulong(thread.ident), ctypes.py_object(error))


class _Grader:
    """The thread graders run in, kept from one call to the next: starting and joining a thread
    per call was a tenth of a day with many graders. Retired after any timeout (a stop asked for
    too late must never reach the next grader), and so replaced by a new one."""

    def __init__(self) -> None:
        self.inbox: SimpleQueue[Callable[[], None]] = SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="miniagent-grader", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        try:
            while True:
                self.inbox.get()()
        except GraderTimeout:  # a stop that came after its grader had ended: retired anyway
            return


# The current grader thread, in a list that stays the same object (the classroom's watch holds
# this module's globals to what they were: a rebound global would read as tampering).
_GRADER: list[_Grader] = []


def _forget_grader() -> None:  # a forked child has none of its parent's threads
    _GRADER.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_grader)


def call_with_timeout(function: Callable[..., Any], kwargs: dict[str, Any], seconds: float) -> Any:
    """``function(**kwargs)``, or :class:`GraderTimeout` after ``seconds``.

    What ``function`` raises is raised here, with its traceback. The call sees a copy of the
    caller's context variables, as it would if it ran in this thread.
    """
    outcome: dict[str, Any] = {}
    context = contextvars.copy_context()
    done = threading.Event()

    def work() -> None:
        try:
            outcome["value"] = context.run(function, **kwargs)
        except GraderTimeout:
            outcome["stopped"] = True
        except BaseException as error:  # handed to the waiting thread, raised there
            outcome["error"] = error
        finally:
            done.set()

    if not _GRADER:
        _GRADER.append(_Grader())
    worker = _GRADER[0]
    worker.inbox.put(work)
    if not done.wait(seconds):
        _GRADER.clear()  # retired: the next grader gets a new thread
        thread = worker.thread
        frame = sys._current_frames().get(thread.ident or -1)  # where it was when time ran out
        files = tuple(f.filename for f in traceback.extract_stack(frame)) if frame else ()
        _raise_in(thread, GraderTimeout)
        done.wait(1.0)  # a Python loop stops at once; a thread stuck in C code stays behind
        raise GraderTimeout(seconds, files)
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")
