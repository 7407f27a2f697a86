"""Grading workers (``classroom/pool.py``, ``classroom/worker.py``): a worker collects once and
forks a run per request, and that changes nothing a class can see.

* a fork and a new ``python -m pytest`` grade a submission alike (scores and every message);
* a submission that writes into its worker's copy of the course (a first try of its own, a
  changed stub) changes nothing for the next submission that worker grades;
* a submission that ends its worker loses the day it did it on, and the grading goes on in a new
  worker; a run past the whole limit (``run_timeout``) is stopped, and the days after it are
  graded in a fresh run, as with a child process.
"""

from __future__ import annotations

import re
import sys

import pytest

from miniagent_course.classroom.config import parse_config
from miniagent_course.classroom.grade import grade_submission
from miniagent_course.classroom.pool import Pool
from miniagent_course.grading.run import PROCESS_ENV

from .conftest import file_name, solution, stub, write_upload, wrong_day00
from .submissions import ENDLESS_LOOP

# Graded in child processes: slower than pytest's default limit on a busy machine.
pytestmark = [
    pytest.mark.timeout(300),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only"),
]

TOUCHES_THE_COURSE = '''"""Day 00: leaves things in its worker's copy of the course for the next."""

import json
from pathlib import Path

_records = Path.cwd() / ".miniagent" / "first-try"
_records.mkdir(parents=True, exist_ok=True)
(_records / "day05.json").write_text(json.dumps({"day": "day05", "right": 0, "total": 16}))
{more}

def _get_state_value(state, key, default=None):
    return default
'''
CHANGES_A_STUB = """
for _stub in Path.cwd().glob("src/miniagent_course/kits/day05/stub.py"):
    _stub.write_text(_stub.read_text() + "\\n# changed\\n")
"""
ENDS_ITS_WORKER = '''"""Day 00: kills the process it was forked from, then waits."""

import os
import signal
import time


def _get_state_value(state, key, default=None):
    os.kill(os.getppid(), signal.SIGKILL)
    time.sleep(60)
'''


def _scores(result):
    """Each part's score and message (a path in the grading's own copy of the course, which a
    skipped check's details show, read from the copy's root)."""
    return [
        (p.day, p.part, p.score, re.sub(r"/[^\s'\"]*/course/(?=src/)", "", p.output), p.flagged)
        for p in result.parts()
    ]


@pytest.fixture(scope="module")
def three_days(course):
    return parse_config('days = ["day00", "day05", "day13"]\n[day.day13]\ntimeout = 3\n', course)


@pytest.fixture(scope="module")
def honest(course, tmp_path_factory):
    """A solved day00, day05 with one row of its table wrong (its first try is recorded by the
    run, so the row does not tell the real outcome yet), and day13's stub."""
    table = solution(course, "day05")
    wrong_row = table.replace(b'"int": "ValueError"', b'"int": "TypeError"')
    assert wrong_row != table
    files = {
        file_name(course, "day00"): solution(course, "day00"),
        file_name(course, "day05"): wrong_row,
        file_name(course, "day13"): stub(course, "day13"),
    }
    return write_upload(tmp_path_factory.mktemp("honest"), files)


@pytest.fixture(scope="module")
def honest_alone(course, three_days, honest):
    """The honest submission, graded alone by a worker of its own."""
    return grade_submission(course, three_days, honest)


def test_a_fork_and_a_new_process_grade_alike(course, three_days, tmp_path, monkeypatch):
    files = {
        file_name(course, "day00"): wrong_day00(course),
        file_name(course, "day05"): solution(course, "day05", 1),
        file_name(course, "day13"): ENDLESS_LOOP.encode(),
    }
    upload = write_upload(tmp_path / "upload", files)
    forked = grade_submission(course, three_days, upload)
    monkeypatch.setenv(PROCESS_ENV, "spawn")
    spawned = grade_submission(course, three_days, upload)
    assert _scores(forked) == _scores(spawned)
    assert [t.status for t in forked.days["day13"].tests] == [
        t.status for t in spawned.days["day13"].tests
    ]
    assert 0 < forked.score < three_days.total


@pytest.mark.parametrize("more, restarted", [("", 0), (CHANGES_A_STUB, 1)])
def test_a_submission_leaves_nothing_for_the_next(
    more, restarted, course, three_days, honest, honest_alone, tmp_path
):
    files = {file_name(course, "day00"): TOUCHES_THE_COURSE.replace("{more}", more).encode()}
    toucher = write_upload(tmp_path / "toucher", files)
    with Pool(course, three_days, 1) as pool:
        first = grade_submission(course, three_days, toucher, pool=pool)
        assert first.days["day00"].tests  # it was graded (its function is wrong)
        after = grade_submission(course, three_days, honest, pool=pool)
        assert pool.restarts == restarted  # records are laid out again; a changed kit is not
    assert _scores(after) == _scores(honest_alone)


def test_a_submission_that_ends_its_worker_loses_that_day(course, three_days, honest, tmp_path):
    files = {
        file_name(course, "day00"): ENDS_ITS_WORKER.encode(),
        file_name(course, "day05"): solution(course, "day05"),
    }
    upload = write_upload(tmp_path / "upload", files)
    with Pool(course, three_days, 1) as pool:
        result = grade_submission(course, three_days, upload, pool=pool)
        assert [day for day, _ in result.flags] == ["day00"]
        assert "ended before every check had run" in result.flags[0][1]
        scores = {(p.day, p.part): p for p in result.parts()}
        assert scores[("day05", 1)].score == scores[("day05", 1)].max_score
        assert scores[("day05", 2)].score == scores[("day05", 2)].max_score
        assert pool.restarts >= 1
        after = grade_submission(course, three_days, honest, pool=pool)  # the pool goes on
    assert not after.flags and after.score > 0


@pytest.mark.parametrize("how", ["fork", "spawn"])
def test_a_run_past_the_whole_limit_is_stopped(how, course, tmp_path, monkeypatch):
    if how == "spawn":
        monkeypatch.setenv(PROCESS_ENV, how)
    plan = parse_config('days = ["day00", "day13"]\ntimeout = 60\nrun_timeout = 12\n', course)
    looping = "import time\n\nwhile True:\n    time.sleep(0.01)\n"
    files = {
        file_name(course, "day00"): looping.encode(),
        file_name(course, "day13"): solution(course, "day13"),
    }
    result = grade_submission(course, plan, write_upload(tmp_path / "upload", files))
    assert not result.flags
    assert "ran past its limit of 12 s" in (result.days["day00"].note or "")
    scores = {(p.day, p.part): p for p in result.parts()}
    assert scores[("day00", 1)].score == 0
    assert scores[("day13", 1)].score == scores[("day13", 1)].max_score
    assert scores[("day13", 2)].score == scores[("day13", 2)].max_score
