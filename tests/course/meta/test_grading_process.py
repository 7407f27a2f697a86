"""How a grading run starts is machinery (``grading/run.py``, ``grading/warm.py``): the
``miniagent`` command grades through a warm grader where one runs, else forks itself where it can
(Linux), else pytest runs in a new interpreter. Every way the learner reads the same words, and
nothing the learner's code does (loop, exit, crash) hangs or ends the command.

A pytest process never forks a grading run (its child would copy a live pytest), so each case
grades in a Python child of its own (``_grade_both``): forked, through a warm grader, spawned.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import time

import pytest

from miniagent_course import handover
from miniagent_course.grading import run as grading
from miniagent_course.grading import warm
from miniagent_course.text import say

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="forking is the Linux path")

GRADE_BOTH = textwrap.dedent(
    """
    import json, os, sys, time
    from miniagent_course.grading import run as grading, warm
    from miniagent_course.grading.course import load_course

    course = load_course(sys.argv[1])
    found = {}
    for way in ("forked", "warm", "spawned"):
        if way == "warm":
            os.environ[grading.PROCESS_ENV] = "warm"
            warm.start(course)
            while not warm.running(course.root):
                time.sleep(0.05)

            def cold(*args):
                raise AssertionError("graded without the warm grader")

            grading._forked = cold
        if way == "spawned":
            os.environ[grading.PROCESS_ENV] = "spawn"
        assert grading.can_fork() == (way != "spawned"), way
        run = grading.run_graders(course, course.exercises, "learner", *sys.argv[2:])
        tests = [{k: v for k, v in t.items() if k != "duration"} for t in run.tests]
        found[way] = {"exitstatus": run.exitstatus, "status": run.status, "tests": tests,
                      "output": run.output}
    warm.stop(course.root)
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
    forked = both["forked"]
    assert forked["status"]["learner"]["day01"], forked  # graded, not broken
    for way in ("warm", "spawned"):
        assert forked["exitstatus"] == both[way]["exitstatus"], way
        assert forked["status"] == both[way]["status"], way
        assert forked["tests"] == both[way]["tests"], way
        assert _same(forked["output"]) == _same(both[way]["output"]), way


def test_a_hard_exit_in_the_learners_code_ends_only_the_grading_child(toy_course):
    (toy_course.root / toy_course.exercise("day01").file).write_text(
        "import os\n\n\ndef double(x):\n    os._exit(7)\n"
    )
    both = _grade_both(toy_course)
    for way in ("forked", "warm", "spawned"):
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


@pytest.mark.parametrize("way", ["fork", "warm"])
def test_a_run_past_its_whole_time_limit_is_ended(toy_course, way):
    # A grader stuck where no per-test limit can reach it (its own sleep, a timeout of 100 s)
    # meets the run's limit: the forked child is killed and the run says so (status -1).
    grader = toy_course.root / "kits/day01/graders/test_day01_double.py"
    grader.write_text("import time\n\n\ndef test_waits(impl):\n    time.sleep(60)\n")
    (toy_course.root / toy_course.exercise("day01").file).write_text(LEARNER_FILES["solved"])
    script = textwrap.dedent(
        """
        import os, sys, time
        from miniagent_course.grading import run as grading, warm
        from miniagent_course.grading.course import load_course

        course = load_course(sys.argv[1])
        os.environ[grading.PROCESS_ENV] = sys.argv[2]
        if sys.argv[2] == "warm":
            warm.start(course)
            while not warm.running(course.root):
                time.sleep(0.05)
        assert grading.can_fork()
        start = time.monotonic()
        run = grading.run_graders(
            course, course.exercises[:1], "learner", "--grader-timeout=100", timeout=3
        )
        print(run.exitstatus, run.status, round(time.monotonic() - start))
        warm.stop(course.root)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(toy_course.root), way],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("-1 {} "), done.stdout
    assert int(done.stdout.split()[-1]) < 30


def _warm_check(course, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``miniagent check`` as in a terminal (``MINIAGENT_GRADING=warm``)."""
    command = [sys.executable, "-c", "import sys; from miniagent_course.cli import main; "
               "sys.exit(main())", "check", *args]  # fmt: skip
    return subprocess.run(
        command,
        cwd=course.root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env={**os.environ, grading.PROCESS_ENV: "warm", **env},
    )


def _until(condition, seconds: float = 30.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_the_command_starts_a_warm_grader_and_a_stale_one_is_replaced(toy_course):
    learner = toy_course.root / toy_course.exercise("day01").file
    learner.write_text(LEARNER_FILES["failing"])
    first = _warm_check(toy_course, "day01")  # graded by a fork; a warm grader starts
    assert first.returncode == 1, first.stdout + first.stderr
    try:
        assert _until(lambda: warm.running(toy_course.root))
        learner.write_text(LEARNER_FILES["solved"])  # the learner's file: read as saved
        assert say("cli.done", day="day01") in _warm_check(toy_course, "day01").stdout
        learner.write_text(LEARNER_FILES["failing"])
        assert _warm_check(toy_course, "day01").stdout == first.stdout
        # a kit changed under the warm grader: it answers "stale" and ends; the command grades
        # without it (the same words) and starts a new one
        socket = warm.address(toy_course.root)
        serving = socket.stat().st_ctime_ns
        kit = toy_course.root / "kits/day01/kit.toml"
        kit.write_text(kit.read_text() + "\n# changed\n")
        stale = _warm_check(toy_course, "day01")
        assert stale.stdout == first.stdout, stale.stdout
        assert _until(
            lambda: warm.running(toy_course.root) and socket.stat().st_ctime_ns != serving
        )
    finally:
        warm.stop(toy_course.root)


def test_a_warm_grader_ends_when_idle_and_when_its_course_is_gone(toy_course, tmp_path):
    env = {**os.environ, warm.IDLE_ENV: "0.5"}
    server = subprocess.Popen([sys.executable, "-m", warm.__name__, str(toy_course.root)], env=env)
    try:
        assert _until(lambda: warm.running(toy_course.root))
        assert server.wait(timeout=60) == 0  # idle for half a second
        assert not warm.running(toy_course.root)
        assert not warm.address(toy_course.root).exists()  # its socket goes with it
    finally:
        server.kill()
    moved = tmp_path / "moved"
    server = subprocess.Popen([sys.executable, "-m", warm.__name__, str(toy_course.root)])
    try:
        assert _until(lambda: warm.running(toy_course.root))
        toy_course.root.rename(moved)  # its course folder is gone
        assert server.wait(timeout=60) == 0
    finally:
        server.kill()


def test_a_warm_grader_ends_the_run_of_a_command_that_stopped_waiting(toy_course, tmp_path):
    learner = toy_course.root / toy_course.exercise("day01").file
    marker = tmp_path / "still running"
    learner.write_text(
        "import time\n\n\ndef double(x):\n"
        f"    while True:\n        open({str(marker)!r}, 'w').close()\n        time.sleep(0.05)\n"
    )
    warm.start(toy_course)
    try:
        assert _until(lambda: warm.running(toy_course.root))
        command = [sys.executable, "-c", HANDED, "check", "day01"]  # handed to the warm grader
        env = {**os.environ, grading.PROCESS_ENV: "warm"}
        waiting = subprocess.Popen(command, cwd=toy_course.root, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        assert _until(marker.exists)  # the learner's loop runs in the warm grader's fork
        waiting.kill()  # as Ctrl-C ends the command
        waiting.wait()
        time.sleep(0.5)
        marker.unlink()
        time.sleep(1.0)
        assert not marker.exists()  # the fork was ended with the command
    finally:
        warm.stop(toy_course.root)


HANDED = (
    "import sys; from miniagent_course.launch import main; code = main(); "
    "sys.stderr.write(f'\\ncli loaded here: {\"miniagent_course.cli\" in sys.modules}\\n'); "
    "sys.exit(code)"
)


def _launched(course, *args: str, how: str, **run) -> subprocess.CompletedProcess[str]:
    """The ``miniagent`` console script's entry point (``launch.main``), ``MINIAGENT_GRADING=how``;
    its stderr ends by saying whether the command ran in this process."""
    return subprocess.run(
        [sys.executable, "-c", HANDED, *args],
        cwd=course.root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env={**os.environ, grading.PROCESS_ENV: how},
        **run,
    )


def test_a_warm_grader_runs_check_and_list_as_the_command_would(toy_course):
    learner = toy_course.root / toy_course.exercise("day01").file
    warm.start(toy_course)
    try:
        assert _until(lambda: warm.running(toy_course.root))
        for text in (
            LEARNER_FILES["failing"],
            LEARNER_FILES["solved"],
            LEARNER_FILES["prints a lot"],
        ):
            learner.write_text(text)
            for args in (["check", "day01"], ["list"], ["check"]):
                here = _launched(toy_course, *args, how="fork")
                handed = _launched(toy_course, *args, how="warm")
                assert here.stderr.endswith("cli loaded here: True\n"), here.stderr
                assert handed.stderr.endswith("cli loaded here: False\n"), handed.stderr
                assert (handed.returncode, handed.stdout) == (here.returncode, here.stdout), args
                assert handed.stderr == here.stderr.replace("True", "False"), args
    finally:
        warm.stop(toy_course.root)
    # no warm grader (stopped): the command runs here, as it always could
    assert _launched(toy_course, "list", how="warm").stderr.endswith("here: True\n")


def test_a_command_handed_to_a_warm_grader_survives_a_closed_pipe(toy_course):
    warm.start(toy_course)
    try:
        assert _until(lambda: warm.running(toy_course.root))
        for args in (["list"], ["check", "day01"]):
            read_end, write_end = os.pipe()
            os.close(read_end)  # `miniagent check day01 | head -1`: the reader has gone
            try:
                done = subprocess.run(
                    [sys.executable, "-c", HANDED, *args],
                    cwd=toy_course.root,
                    stdout=write_end,
                    stderr=subprocess.PIPE,
                    text=True,
                    timeout=120,
                    env={**os.environ, grading.PROCESS_ENV: "warm"},
                )
            finally:
                os.close(write_end)
            assert done.stderr.endswith("cli loaded here: False\n"), done.stderr
            assert "Traceback" not in done.stderr, (args, done.stderr)
            assert done.returncode == 141, (args, done.returncode)
    finally:
        warm.stop(toy_course.root)


def test_only_a_terminal_keeps_a_warm_grader_unless_told(monkeypatch):
    class Terminal:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    monkeypatch.delenv(grading.PROCESS_ENV, raising=False)
    monkeypatch.setattr(sys, "stdin", Terminal(True))
    monkeypatch.setattr(sys, "stdout", Terminal(True))
    assert handover.wanted()
    monkeypatch.setattr(sys, "stdout", Terminal(False))  # output read by a script or a test
    assert not handover.wanted()
    monkeypatch.setenv(grading.PROCESS_ENV, "warm")
    assert handover.wanted()
    monkeypatch.setattr(sys, "stdout", Terminal(True))
    for how in ("fork", "spawn"):
        monkeypatch.setenv(grading.PROCESS_ENV, how)
        assert not handover.wanted()


def _miniagent(course, *args: str) -> subprocess.CompletedProcess[str]:
    """The command as a learner runs it (a process of its own: it forks to grade)."""
    command = [sys.executable, "-c", "import sys; from miniagent_course.cli import main; "
               "sys.exit(main())", *args]  # fmt: skip
    return subprocess.run(
        command, cwd=course.root, capture_output=True, text=True, encoding="utf-8", timeout=120
    )


def test_the_command_grades_in_a_fork_only_where_that_is_safe():
    assert not grading.can_fork()  # this is a pytest process: its runs start a new interpreter
