"""Grade one submission: pytest in a child process on a copy of the course, results from the parent.

:func:`grade_submission` takes only the exercise files of an upload (:mod:`.submission`), lays
them out in a copy of the course and grades the chosen days in strict mode, in a child process
per time limit (days with the same limit share one). On Linux the child is a fork of a grading
worker (:mod:`.pool`) that has collected the graders already, and the copy is the worker's, laid
out again for each submission; elsewhere it is a new ``python -m pytest`` in a temporary copy.
Learner code runs only in the child. The parent

* gives the child a per-run secret in a file the child deletes before any submission code runs,
  and accepts only report lines signed with it, numbered in order (:mod:`.child`);
* expects every test the child collected (before any submission code ran) to be reported, and
  the report's end;
* watches the files a submission must not write (the results file it is graded into);
* and writes every result itself, after the child has ended.

When the child reports tampering, writes an unsigned or out-of-order line, ends early (with
success or not), or runs out of time, the day being graded at that point gets no marks and is
flagged (a timeout is reported as such, not as tampering); the days after it are graded again
in a fresh child without it, so a submission loses only the day it tampered with. What the
child reported before that point stands: the submission's code had not yet touched the report.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from miniagent_course.classroom.child import SETTINGS_OPTION, _stamp, sign
from miniagent_course.classroom.config import Classroom, DayPlan
from miniagent_course.classroom.parts import day_parts, function_name
from miniagent_course.classroom.pool import Pool, Worker, child_command, child_env, forking
from miniagent_course.classroom.submission import Found, find_exercises, lay_out
from miniagent_course.grading.course import Course
from miniagent_course.grading.report import short_name
from miniagent_course.text import say

LOG_TAIL = 4000  # characters of a child's output kept for the instructors' log
MAX_LISTED = 8  # failing checks listed in a part's message
DETAILS_SHOWN = 2500  # characters of the first failure's details in a part's message


@dataclass
class CheckResult:
    """One grader test of one day part, as the parent accepted it."""

    nodeid: str
    day: str
    part: int
    status: str = "not_run"  # passed, failed, error, skipped, not_started, not_run
    message: str = ""
    details: str = ""


@dataclass
class DayResult:
    """A day's tests and what happened to the day as a whole."""

    day: str
    tests: list[CheckResult] = field(default_factory=list)
    file: str | None = None  # where the submission's file was, relative to the upload
    expected: str = ""  # the file's name in the course (day00_warmup.py)
    flagged: str | None = None  # why the day gets no marks (tampering, an early end)
    note: str | None = None  # what else the learner must know (a timeout of the whole run)

    def part(self, number: int) -> list[CheckResult]:
        return [t for t in self.tests if t.part == number]


@dataclass
class PartScore:
    day: str
    part: int
    score: float
    max_score: float
    passed: int
    total: int
    output: str
    visibility: str
    flagged: bool


@dataclass
class SubmissionResult:
    """Everything graded for one submission; :meth:`parts` scores it."""

    classroom: Classroom
    days: dict[str, DayResult]
    found: Found
    duration: float = 0.0
    log: list[str] = field(default_factory=list)  # for instructors (Gradescope's stdout)
    raw: list[dict[str, Any]] = field(default_factory=list)  # every signed test line, as sent
    broken: str | None = None  # grading itself could not run

    @property
    def flags(self) -> list[tuple[str, str]]:
        return [(d.day, d.flagged) for d in self.days.values() if d.flagged]

    def parts(self) -> list[PartScore]:
        scores = []
        for plan in self.classroom.days:
            day = self.days[plan.day]
            for number, points in enumerate(plan.part_points(), 1):
                scores.append(_score(self.classroom, plan, day, number, points, self.found))
        return scores

    @property
    def score(self) -> float:
        return round(sum(p.score for p in self.parts()), 4)


# --- running the child ---------------------------------------------------------------------


@dataclass
class ChildRun:
    """What one child process reported, checked."""

    collected: list[tuple[str, str]] = field(default_factory=list)  # (nodeid, day)
    records: dict[str, dict[str, Any]] = field(default_factory=dict)  # trusted, by nodeid
    raw: list[dict[str, Any]] = field(default_factory=list)
    cut: str | None = None  # why the report stops being trusted
    cut_at: str | None = None  # the nodeid at which it does ("" : after the last test)
    timed_out: bool = False
    ended: bool = False
    exit_code: int | None = None
    output: str = ""


def _read_report(stream: Path, key: bytes, run: ChildRun) -> None:
    """Accept the report's lines in order while each is signed and numbered; the first that is
    not stops the trust (``run.cut``)."""
    try:
        lines = stream.read_bytes().decode("ascii", errors="replace").splitlines()
    except OSError:
        lines = []
    expected_seq = 0
    for line in lines:
        mac, _, payload = line.partition(" ")
        try:
            data = json.loads(payload)
        except ValueError:
            data = None
        valid = (
            isinstance(data, dict)
            and secrets.compare_digest(mac, sign(key, payload))
            and data.get("seq") == expected_seq
        )
        if not valid:  # trust ends here; the first test not reported is blamed
            run.cut, run.cut_at = say("classroom.why_forged"), ""
            return
        expected_seq += 1
        kind = data["kind"]
        if kind == "collected":
            run.collected = [(t[0], t[1]) for t in data["tests"]]
        elif kind == "test":
            run.raw.append(data)
            if run.cut is None:
                run.records[data["nodeid"]] = data
        elif kind == "tampered" and run.cut is None:
            run.cut, run.cut_at = _tampered(str(data["what"])), data["nodeid"]
        elif kind == "end":
            run.ended = True


def _tampered(what: str) -> str:
    """The child's ``patched:<name>``, ``wrote:<file>`` or ``report``, in the learner's words."""
    kind, _, detail = what.partition(":")
    if kind == "patched":
        return say("classroom.why_patched", name=detail)
    if kind == "wrote":
        return say("classroom.why_wrote", file=detail)
    return say("classroom.why_forged")


def run_child(
    workspace: Course,
    days: Sequence[str],
    timeout: float,
    run_timeout: float,
    guarded: Sequence[Path] = (),
    worker: Worker | None = None,
) -> ChildRun:
    """Grade ``days`` of ``workspace`` in one child process (a fork of ``worker``, else a new
    ``python -m pytest``); its checked report."""
    run = ChildRun()
    with tempfile.TemporaryDirectory(prefix="miniagent-channel-") as private:
        nonce = secrets.token_hex(32)
        stream = Path(private) / f"report-{secrets.token_hex(8)}.log"
        settings = Path(private) / f"settings-{secrets.token_hex(8)}.json"
        settings.write_text(
            json.dumps(
                {"nonce": nonce, "stream": str(stream), "guarded": [str(p) for p in guarded]}
            ),
            encoding="utf-8",
        )
        os.chmod(settings, 0o600)
        output = Path(private) / "output.txt"
        if worker is not None:
            run.exit_code, run.timed_out = worker.run(days, timeout, run_timeout, settings, output)
        else:
            _spawned(workspace, days, timeout, run_timeout, settings, output, run)
        run.output = output.read_text(encoding="utf-8", errors="replace")[-LOG_TAIL:]
        _read_report(stream, bytes.fromhex(nonce), run)
    return run


def _spawned(
    workspace: Course,
    days: Sequence[str],
    timeout: float,
    run_timeout: float,
    settings: Path,
    output: Path,
    run: ChildRun,
) -> None:
    """The child as a new ``python -m pytest`` (where workers do not fork)."""
    command = child_command(workspace, days, timeout, f"{SETTINGS_OPTION}={settings}")
    with open(output, "wb") as out:
        process = subprocess.Popen(
            command,
            cwd=workspace.root,
            env=child_env(),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=(os.name == "posix"),
        )
        try:
            run.exit_code = process.wait(timeout=run_timeout)
        except subprocess.TimeoutExpired:
            run.timed_out = True
            process.kill()
            process.wait()
        finally:
            _end_group(process)


def _end_group(process: subprocess.Popen[bytes]) -> None:
    """Whatever the submission started from the child goes with it (POSIX)."""
    if os.name == "posix":
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass


# --- one submission --------------------------------------------------------------------------


def grade_submission(
    course: Course,
    classroom: Classroom,
    upload: Path,
    guarded: Sequence[Path] = (),
    pool: Pool | None = None,
) -> SubmissionResult:
    """Grade the exercise files in ``upload`` on ``classroom``'s days (see the module), in a
    worker of ``pool`` (None: a pool of one, where workers fork; else new processes)."""
    started = time.monotonic()
    days = [plan.day for plan in classroom.days]
    found = find_exercises(upload, [course.exercise(d) for d in days])
    expected = {d: Path(course.exercise(d).file).name for d in days}
    result = SubmissionResult(
        classroom,
        {d: DayResult(d, file=found.files.get(d), expected=expected[d]) for d in days},
        found,
    )
    if pool is None and not forking():
        with tempfile.TemporaryDirectory(prefix="miniagent-submission-") as scratch:
            root = Path(scratch) / "course"
            root.mkdir()
            workspace = lay_out(course, days, found, root)
            (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # this folder's own
            parts = {d: day_parts(workspace, workspace.exercise(d)) for d in days}
            _grade_days(result, workspace, parts, guarded, None)
    else:
        with contextlib.ExitStack() as stack:
            if pool is None:
                pool = stack.enter_context(Pool(course, classroom))
            if not set(days) <= set(pool.days):
                raise ValueError(f"the pool grades {pool.days}, not {days}")
            worker = stack.enter_context(pool.worker())
            workspace = worker.prepare(found)
            _grade_days(result, workspace, pool.parts, guarded, worker)
    result.duration = time.monotonic() - started
    return result


def _grade_days(
    result: SubmissionResult,
    workspace: Course,
    parts: dict[str, dict[str, int]],
    guarded: Sequence[Path],
    worker: Worker | None,
) -> None:
    """Grade every day of ``result``'s plan, in as few runs as the time limits and any
    tampering allow (see the module)."""
    classroom = result.classroom
    pending = [plan.day for plan in classroom.days]
    while pending:
        timeout = classroom.plan(pending[0]).timeout
        group = [d for d in pending if classroom.plan(d).timeout == timeout]
        before = {p: _stamp(p) for p in guarded}
        run = run_child(workspace, group, timeout, classroom.run_timeout, guarded, worker)
        result.raw += run.raw
        result.log.append(f"--- {', '.join(group)} (exit {run.exit_code}) ---\n{run.output}")
        if not run.collected and run.cut is not None:  # the report itself was rewritten
            result.days[group[0]].flagged = run.cut
            pending = [d for d in pending if d != group[0]]
            continue
        if not run.collected:  # no learner code ran: the grading itself is broken
            result.broken = say("classroom.broken", days=", ".join(pending))
            for day in pending:
                result.days[day].note = result.broken
            break
        if run.cut is None and any(_stamp(p) != before[p] for p in guarded):
            run.cut, run.cut_at = say("classroom.why_wrote_results"), ""  # seen from outside
        regrade = _settle(result, run, group, parts)
        pending = [d for d in pending if d not in group] + regrade


def _settle(
    result: SubmissionResult, run: ChildRun, group: list[str], parts: dict[str, dict[str, int]]
) -> list[str]:
    """Take the trusted records of ``run`` into ``result``; flag the day at the point where
    trust ends; return the days to grade again in a fresh child."""
    order = [nodeid for nodeid, _ in run.collected]
    day_of = dict(run.collected)
    for nodeid in order:
        day = day_of[nodeid]
        part = parts[day].get(function_name(nodeid), 1)
        record = run.records.get(nodeid)
        test = CheckResult(nodeid, day, part)
        if record is not None:
            test.status, test.message = record["status"], record["message"]
            test.details = record["details"]
        result.days[day].tests.append(test)
    missing = [n for n in order if n not in run.records]
    why = run.cut
    if why is None and missing:
        if run.timed_out:
            why = say("classroom.why_timeout", seconds=f"{result.classroom.run_timeout:g}")
        else:
            why = say("classroom.why_ended", code=run.exit_code)
    if why is None:
        return []
    if run.cut_at == "" and run.cut is not None and not missing:  # seen only after the run
        blamed = list(group)
    else:
        at = run.cut_at if run.cut_at else (missing[0] if missing else order[-1])
        blamed = [day_of.get(at, group[0])]
    for day in blamed:
        day_result = result.days[day]
        if run.timed_out and run.cut is None:
            day_result.note = why
        else:
            day_result.flagged = why
        for test in day_result.tests:
            test.status, test.message, test.details = "not_run", "", ""
    done = {day_of[n] for n in order if n in run.records} - set(blamed)
    later = [d for d in group if d not in blamed and d not in done]
    for day in later:  # graded again from the start in a fresh child
        result.days[day].tests = []
    return later


# --- scores and what the learner reads --------------------------------------------------------


def _score(
    classroom: Classroom, plan: DayPlan, day: DayResult, part: int, points: float, found: Found
) -> PartScore:
    tests = day.part(part)
    passed = sum(1 for t in tests if t.status == "passed")
    total = len(tests)
    if day.flagged or not total:
        score = 0.0
    elif classroom.partial_credit:
        score = round(points * passed / total, 2)
    else:
        score = points if passed == total else 0.0
    return PartScore(
        day=plan.day,
        part=part,
        score=score,
        max_score=points,
        passed=0 if day.flagged else passed,
        total=total,
        output=part_message(day, part, found),
        visibility=plan.visibility[part - 1],
        flagged=bool(day.flagged),
    )


def part_message(day: DayResult, part: int, found: Found) -> str:
    """What the learner reads about one day part: the learner-facing words of the grading."""
    tests = day.part(part)
    lines = []
    if day.flagged:
        lines.append(say("classroom.flagged", day=day.day, why=day.flagged))
    if day.note:
        lines.append(day.note)
    if day.day in found.too_big:
        lines.append(say("classroom.too_big", day=day.day))
    elif day.file is None:
        lines.append(say("classroom.no_file", day=day.day, file=day.expected))
    if day.flagged or not tests:
        return "\n".join(lines)
    passed = sum(1 for t in tests if t.status == "passed")
    lines.append(say("classroom.part_passed", passed=passed, total=len(tests)))
    failing = [t for t in tests if t.status != "passed"]
    said = [t.message or say(f"gradescope.{t.status}", day=day.day) for t in failing]
    if len(failing) > 1 and len(set(said)) == 1:  # one reason for all (not started, not loaded)
        lines.append(say("classroom.all_failing", n=len(failing), message=said[0]))
    else:
        for test, message in list(zip(failing, said, strict=True))[:MAX_LISTED]:
            lines.append(say("cli.failing_test", name=short_name(test.nodeid), message=message))
        if len(failing) > MAX_LISTED:
            lines.append(say("classroom.more_failing", n=len(failing) - MAX_LISTED))
    first = next((t for t in failing if t.details.strip() not in ("", t.message.strip())), None)
    if first is not None:
        lines.append("\n" + say("cli.first_failure", name=short_name(first.nodeid)))
        lines.append(first.details.rstrip()[:DETAILS_SHOWN])
    return "\n".join(lines)
