"""Handing a ``miniagent`` command to the course's warm grader (``grading/warm.py``).

``miniagent check`` and ``miniagent list`` are the commands a learner runs again and again. Where
the course's warm grader runs, the command's entry point (``launch.py``) hands the whole command
to it: the arguments, the folder, the environment and the terminal itself (its file descriptors).
The warm grader's fork runs the command there, with pytest and the course already loaded, and
writes to the same terminal; the command's own process only waits for its exit status. This
module is what both sides share (the socket's name, the request, when a terminal wants one) and
imports nothing of the course: the fast path needs a socket and nothing more.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import zlib
from collections.abc import Sequence
from typing import Any

PROCESS_ENV = "MINIAGENT_GRADING"  # "warm", "fork" or "spawn": how grading runs (grading/run.py)
ROOT_ENV = "MINIAGENT_COURSE_ROOT"
COURSE_FILE = "course.toml"
HANDED = ("check", "list")  # the commands a warm grader runs


def wanted() -> bool:
    """Should the command use (and start) a warm grader? In a terminal, unless told otherwise
    (a script or a test that reads the command's output never leaves one behind)."""
    how = os.environ.get(PROCESS_ENV, "")
    if how:
        return how == "warm"
    return all(stream is not None and stream.isatty() for stream in (sys.stdin, sys.stdout))


def course_root() -> str | None:
    """The course root as ``grading.course.find_root`` finds it: ``$MINIAGENT_COURSE_ROOT``,
    else the nearest folder up from here with course.toml."""
    if os.environ.get(ROOT_ENV):
        return os.path.realpath(os.environ[ROOT_ENV])
    here = os.path.realpath(os.getcwd())
    while True:
        if os.path.isfile(os.path.join(here, COURSE_FILE)):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def address(root: str) -> str | None:
    """The socket of the warm grader of the course at ``root`` for this Python environment
    (None when the folder for it cannot be made private). A warm grader checks that a request
    names its own course and environment, so two names that collide are never mixed up."""
    if not hasattr(os, "getuid") or not hasattr(socket, "AF_UNIX"):
        return None  # Windows: no warm grader (grading/run.py spawns there)
    folder = os.path.join(tempfile.gettempdir(), f"miniagent-{os.getuid()}")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    if not os.path.isdir(folder) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None  # somebody else's, or open to others: no socket of ours goes there
    key = f"{os.path.realpath(root)}\0{sys.prefix}\0{sys.version}".encode()
    return os.path.join(folder, f"{zlib.crc32(key):08x}{zlib.adler32(key):08x}.sock")


def request_of(kind: str, root: str, **fields: Any) -> dict[str, Any]:
    """A request to the warm grader: what it is, for which course and environment, and the
    command's environment (its runs see exactly this one)."""
    return {"kind": kind, "root": root, "prefix": sys.prefix, "env": dict(os.environ), **fields}


def receive(channel: socket.socket, data: bytes = b"") -> dict[str, Any] | None:
    """One JSON line from ``channel``, after the ``data`` already read of it (None if it closed
    first)."""
    while not data.endswith(b"\n"):
        chunk = channel.recv(65536)
        if not chunk:
            return None
        data += chunk
    return json.loads(data)


def ask(where: str, request: dict[str, Any], fds: Sequence[int] = ()) -> dict[str, Any] | None:
    """Send ``request`` (and the file descriptors ``fds``) to the warm grader at ``where`` and
    wait for its answer (None if it closed first); OSError if it cannot be reached."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()  # nothing of ours is printed after what the warm grader prints
    data = (json.dumps(request) + "\n").encode("utf-8")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as channel:
        channel.connect(where)
        sent = socket.send_fds(channel, [data], list(fds)) if fds else 0
        channel.sendall(data[sent:])
        return receive(channel)


def hand_over(args: list[str]) -> int | None:
    """Run the command ``args`` in the warm grader: its exit status, or None when there is none
    that can take it (not running, stale, another course's) and nothing of it has run."""
    root = course_root()
    where = address(root) if root else None
    if where is None or not os.path.exists(where):
        return None
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    request = request_of(
        "command", root, argv=args, program=sys.argv[0], cwd=os.getcwd(), encoding=encoding
    )
    try:
        reply = ask(where, request, fds=(0, 1, 2))  # the terminal itself
    except OSError:
        return None
    except KeyboardInterrupt:  # Ctrl-C: the warm grader ends the command's run when we go
        return 130
    if reply is None or reply.get("exit", "") == "":
        return None
    return 1 if reply["exit"] is None else int(reply["exit"])
