"""Sealed predictions: a learner's first answered table of a day, recorded before any outcome.

A predict day's table (:mod:`.judgments`) is graded only once it is answered (every case holds a
value of the day's form). The first grading run that sees it answered records how it did, here,
before anything shows a real outcome: that run says only which rows are wrong; from the next run
on, a wrong row shows what the real run gives. The record is the learner's first try ("first try
11/16" in the progress table); nothing replaces it, ``miniagent reset`` keeps it. Until it is
recorded, the learner's part 1 of the day is held (``plugin.py``): its tests do not run, so no
part 1 failure can tell a row's outcome first; the run that records it grades part 1 too.

One file per day, ``<course root>/.miniagent/first-try/<day>.json`` (git ignores ``.miniagent/``).
A file is created once and never rewritten, so two grading processes of one run (pytest-xdist's
workers) cannot record two different first tries. Standard library only: the progress table and
``miniagent list`` read it without importing pytest.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

FIRST_TRY = Path(".miniagent") / "first-try"  # under the course root: <day>.json
XDIST_RUN_ENV = "PYTEST_XDIST_TESTRUNUID"  # the run id pytest-xdist gives all its workers
_PROCESS_RUN = uuid.uuid4().hex


def new_run_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment of a grading process started by a command: a run of its own (it must not
    inherit the run id of a pytest-xdist worker that started the command)."""
    return {k: v for k, v in environ.items() if k != XDIST_RUN_ENV}


def start_new_run() -> None:
    """In a forked grading process: a run of its own, not its parent's."""
    global _PROCESS_RUN
    os.environ.pop(XDIST_RUN_ENV, None)
    _PROCESS_RUN = uuid.uuid4().hex


def this_run() -> str:
    """The grading run this process belongs to (a pytest-xdist worker: its whole run's)."""
    return os.environ.get(XDIST_RUN_ENV) or _PROCESS_RUN


@dataclass(frozen=True)
class FirstTry:
    """How the learner's first answered table of ``day`` did, when it was recorded."""

    day: str
    right: int
    total: int
    wrong: tuple[str, ...] = ()  # the wrong rows, by case (as str)
    run: str = ""  # the grading run that recorded it (see :func:`this_run`)

    @property
    def score(self) -> str:
        return f"{self.right}/{self.total}"


def _path(root: str | os.PathLike[str], day: str) -> Path:
    return Path(root) / FIRST_TRY / f"{day}.json"


def first_try(root: str | os.PathLike[str], day: str) -> FirstTry | None:
    """The recorded first try of ``day`` (None: no answered table was graded yet)."""
    try:
        data = json.loads(_path(root, day).read_text(encoding="utf-8"))
        return FirstTry(
            day=day,
            right=int(data["right"]),
            total=int(data["total"]),
            wrong=tuple(str(case) for case in data.get("wrong", ())),
            run=str(data.get("run", "")),
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def first_tries(root: str | os.PathLike[str], days: Iterable[str]) -> dict[str, FirstTry]:
    """The recorded first tries among ``days``."""
    found = {day: first_try(root, day) for day in days}
    return {day: attempt for day, attempt in found.items() if attempt is not None}


def record_first_try(root: str | os.PathLike[str], attempt: FirstTry) -> FirstTry:
    """Record ``attempt`` unless its day has a first try already: the recorded one is returned.

    The file is created exclusively, so of two runs that record at once the first stays. A file
    that cannot be read (cut short, edited by hand) is replaced.
    """
    path = _path(root, attempt.day)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "day": attempt.day,
        "right": attempt.right,
        "total": attempt.total,
        "wrong": list(attempt.wrong),
        "run": attempt.run,
        "recorded": datetime.now().isoformat(timespec="seconds"),
    }
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    try:
        with path.open("x", encoding="utf-8") as file:
            file.write(text)
    except FileExistsError:
        recorded = first_try(root, attempt.day)
        if recorded is not None:
            return recorded
        spare = path.with_name(f"{path.stem}.{uuid.uuid4().hex}.tmp")
        spare.write_text(text, encoding="utf-8")
        os.replace(spare, path)
    return attempt
