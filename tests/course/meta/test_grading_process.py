"""How a grading run starts is machinery (``grading/run.py``): the ``miniagent`` command forks
itself where it can (Linux), else pytest runs in a new interpreter. Either way the learner reads the
same words, and nothing the learner's code does (loop, exit, crash) hangs or ends the command.

A pytest process never forks a grading run (its child would copy a live pytest), so each case
grades in a Python child of its own (``_grade_both``), once forked and once spawned.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import pytest

from miniagent_course.grading import run as grading
from miniagent_course.text import say

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="forking is the Linux path")

GRADE_BOTH = textwrap.dedent(
    """
    import json, os, sys
    from miniagent_course.grading import run as grading
    from miniagent_course.grading.course import load_course

    course = load_course(sys.argv[1])
    found = {}
    for way in ("forked", "spawned"):
        if way == "spawned":
            os.environ[grading.PROCESS_ENV] = "spawn"
        assert grading.can_fork() == (way == "forked"), way
        run = grading.run_graders(course, course.exercises, "learner", *sys.argv[2:])
        tests = [{k: v for k, v in t.items() if k != "duration"} for t in run.tests]
        found[way] = {"exitstatus": run.exitstatus, "status": run.status, "tests": tests,
                      "output": run.output}
    print(json.dumps(found))
    """
)

LEARNER_FILES = {  # day01's file; day02 stays a stub (not started, never graded)
    "solved": "def double(x):\n    return 2 * x\n",
    "failing": "def double(x):\n    return x + 2\n",
    "endless loop": "def double(x):\n    while True:\n        pass\n",
    "sys.exit in the function": "import sys\n\n\ndef double(x):\n    sys.exit(3)\n",
    "sys.exit while loading": "import sys\n\nsys.exit(0)\n",
    "syntax error": "def double(x):\n    return 2 *\n",
    "prints a lot": "def double(x):\n    for n in range(500):\n        print(n)\n    return 3\n",
}


def _same(output: str) -> str:
    """pytest's output without what changes from run to run (durations, addresses)."""
    output = re.sub(r"in \d+\.\d+s", "in <time>", output)
    return re.sub(r"0x[0-9a-f]+", "0x<address>", output)


def _grade_both(course, *extra: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", GRADE_BOTH, str(course.root), *extra],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("case", LEARNER_FILES)
def test_a_forked_run_says_exactly_what_a_new_interpreter_says(toy_course, case):
    (toy_course.root / toy_course.exercise("day01").file).write_text(LEARNER_FILES[case])
    both = _grade_both(toy_course, "--grader-timeout=1")
    forked, spawned = both["forked"], both["spawned"]
    assert forked["status"]["learner"]["day01"], forked  # graded, not broken
    assert forked["exitstatus"] == spawned["exitstatus"]
    assert forked["status"] == spawned["status"]
    assert forked["tests"] == spawned["tests"]
    assert _same(forked["output"]) == _same(spawned["output"])


def test_a_hard_exit_in_the_learners_code_ends_only_the_grading_child(toy_course):
    (toy_course.root / toy_course.exercise("day01").file).write_text(
        "import os\n\n\ndef double(x):\n    os._exit(7)\n"
    )
    both = _grade_both(toy_course)
    for way in ("forked", "spawned"):
        assert both[way]["exitstatus"] == 7, way
        assert both[way]["status"] == {}, way  # no results: the command says it was not graded
    done = _miniagent(toy_course, "check", "day01")
    assert done.returncode == 1
    assert say("cli.broken", day="day01") in done.stdout


def test_the_command_stops_an_endless_loop_and_says_so(toy_course):
    (toy_course.root / toy_course.exercise("day01").file).write_text(
        "def double(x):\n    while True:\n        pass\n"
    )
    done = _miniagent(toy_course, "check", "day01")  # the command's limit: 10 s per grader
    assert done.returncode == 1
    assert "Is there an endless loop in your day01 code" in done.stdout
    assert done.stdout.count("Stopped after 10 s") == 1


def test_a_run_past_its_whole_time_limit_is_ended(toy_course):
    # A grader stuck where no per-test limit can reach it (its own sleep, a timeout of 100 s)
    # meets the run's limit: the forked child is killed and the run says so (status -1).
    grader = toy_course.root / "kits/day01/graders/test_day01_double.py"
    grader.write_text("import time\n\n\ndef test_waits(impl):\n    time.sleep(60)\n")
    (toy_course.root / toy_course.exercise("day01").file).write_text(LEARNER_FILES["solved"])
    script = textwrap.dedent(
        """
        import sys, time
        from miniagent_course.grading import run as grading
        from miniagent_course.grading.course import load_course

        course = load_course(sys.argv[1])
        assert grading.can_fork()
        start = time.monotonic()
        run = grading.run_graders(
            course, course.exercises[:1], "learner", "--grader-timeout=100", timeout=3
        )
        print(run.exitstatus, run.status, round(time.monotonic() - start))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(toy_course.root)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("-1 {} "), done.stdout
    assert int(done.stdout.split()[-1]) < 30


def _miniagent(course, *args: str) -> subprocess.CompletedProcess[str]:
    """The command as a learner runs it (a process of its own: it forks to grade)."""
    command = [sys.executable, "-c", "import sys; from miniagent_course.cli import main; "
               "sys.exit(main())", *args]  # fmt: skip
    return subprocess.run(
        command, cwd=course.root, capture_output=True, text=True, encoding="utf-8", timeout=120
    )


def test_the_command_grades_in_a_fork_only_where_that_is_safe():
    assert not grading.can_fork()  # this is a pytest process: its runs start a new interpreter
