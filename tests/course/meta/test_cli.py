"""The ``miniagent`` command, on the toy course (tests/course/meta/conftest.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types

import pytest

from miniagent_course import cli
from miniagent_course.grading.course import load_course


def _run(course, *args, capsys):
    code = cli.main(["--root", str(course.root), *args])
    out = capsys.readouterr()
    return code, out.out + out.err


def _solve(course, day):
    body = {
        "day01": "def double(x):\n    return 2 * x\n",
        "day02": "def inc(x):\n    return x + 1\n",
    }
    (course.root / course.exercise(day).file).write_text(body[day], encoding="utf-8")


def test_check_reports_not_started_then_done(toy_course, capsys):
    code, out = _run(toy_course, "check", "day01", capsys=capsys)
    assert code == 1
    assert "day01  Double a number" in out and "not started" in out
    assert "open exercises/day01_double.py, go to line 8 (`# TODO(day01)`)" in out
    _solve(toy_course, "day01")
    code, out = _run(toy_course, "check", "day01", capsys=capsys)
    assert code == 0
    assert "✓ day01" in out and "Next: day02 · Add one" in out


def test_check_all_passes_with_not_started_days_unless_strict(toy_course, capsys):
    _solve(toy_course, "day01")
    assert _run(toy_course, "check", capsys=capsys)[0] == 0
    assert _run(toy_course, "check", "--strict", capsys=capsys)[0] == 1


def test_check_shows_the_failing_tests(toy_course, capsys):
    (toy_course.root / "exercises/day01_double.py").write_text("def double(x):\n    return x + 2\n")
    code, out = _run(toy_course, "check", "day01", capsys=capsys)
    assert code == 1
    assert "failing 1 of 2" in out
    # One failure, said once: the call of the learner's function, what came back, what was expected.
    assert "day01 fails one check" in out and out.count("test_double_zero") == 1
    assert "your call: double(0)" in out and "returned 2" in out
    assert "came back: 2" in out and "expected:  0" in out  # values, not assert text
    assert "Implementation" not in out and "<function" not in out


def test_check_lists_several_failures_then_the_first_in_full(toy_course, capsys):
    (toy_course.root / "exercises/day01_double.py").write_text("def double(x):\n    return 7\n")
    code, out = _run(toy_course, "check", "day01", capsys=capsys)
    assert code == 1 and "failing 2 of 2" in out
    assert "✗ test_double_two" in out and "✗ test_double_zero" in out
    assert "your call: double(2)" in out and "returned 7" in out


def test_hints_come_one_at_a_time_and_are_remembered(toy_course, capsys):
    outputs = [_run(toy_course, "hint", "day01", capsys=capsys)[1] for _ in range(4)]
    assert "Hint 1 of 3: What is x + x?" in outputs[0] and "Hint 2" not in outputs[0]
    assert "Hint 2 of 3: Or 2 * x?" in outputs[1]
    assert "Hint 1" not in outputs[1] and "hint day01 --all" in outputs[1]  # one new hint a call
    assert "Hint 3 of 3: Return it." in outputs[2] and "That was the last hint" in outputs[2]
    assert outputs[3] == outputs[2]
    every = _run(toy_course, "hint", "day01", "--all", capsys=capsys)[1]
    assert all(f"Hint {n} of 3" in every for n in (1, 2, 3))
    state = json.loads((toy_course.root / ".miniagent" / "state.json").read_text())
    assert state == {"hints_shown": {"day01": [1, 2, 3]}}
    assert "hints 3/3" in _run(toy_course, "list", capsys=capsys)[1]


TIED_HINTS = """hints = [
  { checks = ["test_double_two"], text = "What is 2 doubled?" },
  { checks = ["test_double_z*"], text = "What is 0 doubled?" },
  "Return it.",
]
"""


def _tie_hints(course):
    """Day01's hints tied to its two checks (the third stays a plain hint)."""
    kit = course.root / "kits" / "day01" / "kit.toml"
    text = kit.read_text(encoding="utf-8")
    start = text.index("hints = [")
    end = text.index("]", start) + 2
    kit.write_text(text[:start] + TIED_HINTS + text[end:], encoding="utf-8")
    return load_course(course.root)


def test_the_next_hint_follows_the_failing_check(toy_course, capsys):
    course = _tie_hints(toy_course)
    assert course.exercise("day01").hint_checks == (("test_double_two",), ("test_double_z*",), ())
    path = course.root / "exercises/day01_double.py"
    path.write_text("def double(x):\n    return x + 2\n")  # right for 2, wrong for 0
    out = _run(course, "hint", "day01", capsys=capsys)[1]
    assert "Hint 2 of 3, for test_double_zero, which does not pass yet: What is 0 doubled?" in out
    assert "Hint 1" not in out
    # Nothing else fails: the hints not seen yet come in order, and the earlier one is counted.
    out = _run(course, "hint", "day01", capsys=capsys)[1]
    assert "Hint 1 of 3: What is 2 doubled?" in out and "Hints you saw before: 1." in out
    out = _run(course, "hint", "day01", "--all", capsys=capsys)[1]
    assert [line[:10] for line in out.splitlines()[:3]] == [
        "Hint 1 of ",
        "Hint 2 of ",
        "Hint 3 of ",
    ]
    assert "That was the last hint" in out
    # The outcomes came from one grading, kept by content with the day's status.
    cache = json.loads((course.root / ".miniagent" / "status.json").read_text())
    assert cache["day01"]["checks"] == {"test_double_two": "passed", "test_double_zero": "failed"}


def test_a_day_that_fails_everywhere_gets_hint_1_and_one_not_started_too(toy_course, capsys):
    course = _tie_hints(toy_course)
    out = _run(course, "hint", "day01", capsys=capsys)[1]  # not started: nothing is graded
    assert "Hint 1 of 3: What is 2 doubled?" in out
    assert not (course.root / ".miniagent" / "status.json").exists()
    (course.root / ".miniagent" / "state.json").unlink()
    (course.root / "exercises/day01_double.py").write_text("def double(x):\n    return 7\n")
    out = _run(course, "hint", "day01", capsys=capsys)[1]
    assert "Hint 1 of 3, for test_double_two, which does not pass yet" in out


def test_unknown_day_is_a_friendly_error(toy_course, capsys):
    code, out = _run(toy_course, "hint", "day42", capsys=capsys)
    assert code == 2
    assert "There is no exercise called 'day42'. The exercises are: day01, day02." in out


def test_list_shows_every_day_and_the_next_one(toy_course, capsys):
    _solve(toy_course, "day01")
    code, out = _run(toy_course, "list", capsys=capsys)
    assert code == 0
    assert "✓ day01" in out and "· day02" in out and "hints 0/2" in out
    assert "Next up: day02" in out


def test_solution_is_locked_until_the_day_passes(toy_course, capsys):
    code, out = _run(toy_course, "solution", "day01", capsys=capsys)
    assert code == 1 and "opens once day01 passes" in out
    _solve(toy_course, "day01")
    code, out = _run(toy_course, "solution", "day01", capsys=capsys)
    assert code == 0
    assert out.count("def double(x):") == 2  # reference and "upstream" (the same toy module)


def test_reset_restores_the_shipped_stub_and_keeps_a_backup(toy_course, capsys):
    # No git here: the stubs ship with the tooling, so a course downloaded as a zip resets too.
    root = toy_course.root
    stub = (root / "kits/day01/stub.py").read_text()
    _solve(toy_course, "day01")
    mine = (root / "exercises/day01_double.py").read_text()
    code, out = _run(toy_course, "reset", "day01", capsys=capsys)
    assert code == 0 and "is the original stub again" in out
    assert (root / "exercises/day01_double.py").read_text() == stub
    backups = list((root / "exercises" / ".backup").glob("day01_double-*.py"))
    assert [b.read_text() for b in backups] == [mine]
    code, out = _run(toy_course, "reset", "day01", capsys=capsys)
    assert code == 0 and "already the original stub" in out


def test_reset_undo_puts_the_latest_backup_back_and_loses_nothing(toy_course, capsys):
    root = toy_course.root
    path = root / "exercises/day01_double.py"
    stub = path.read_text()
    code, out = _run(toy_course, "reset", "day01", "--undo", capsys=capsys)
    assert code == 1 and "No backup of exercises/day01_double.py yet" in out
    _solve(toy_course, "day01")
    first = path.read_text()
    _run(toy_course, "reset", "day01", capsys=capsys)
    code, out = _run(toy_course, "reset", "day01", "--undo", capsys=capsys)
    assert code == 0 and "is your version again" in out
    assert path.read_text() == first
    code, out = _run(toy_course, "reset", "day01", "--undo", capsys=capsys)
    assert code == 0 and "nothing to undo" in out
    # A second version, reset and then undone twice in the same second: the newest comes back,
    # and the version it replaced is itself backed up first.
    path.write_text(first + "# second\n", encoding="utf-8")
    _run(toy_course, "reset", "day01", capsys=capsys)
    path.write_text(first + "# third\n", encoding="utf-8")
    code, out = _run(toy_course, "reset", "day01", "--undo", capsys=capsys)
    assert path.read_text() == first + "# second\n"
    backups = {b.read_text() for b in (root / "exercises/.backup").glob("day01_double-*.py")}
    assert backups == {first, first + "# second\n", first + "# third\n"}
    assert stub not in backups


@pytest.mark.parametrize("unbuffered", ["1", ""], ids=["unbuffered", "buffered"])
def test_every_command_survives_a_closed_pipe(toy_course, unbuffered):
    # `miniagent check day01 | head -1`: the reader leaves first; no BrokenPipeError traceback,
    # whether stdout is written at once or when it is flushed (a learner's shell: buffered).
    command = [sys.executable, "-m", "miniagent_course.cli", "--root", str(toy_course.root)]
    env = {**os.environ, "PYTHONUNBUFFERED": unbuffered}
    for args in (["list"], ["hint", "day01"], ["check", "day01"], ["--help"]):
        read_end, write_end = os.pipe()
        os.close(read_end)  # a reader that has already gone: the first write fails
        try:
            done = subprocess.run(
                [*command, *args],
                stdout=write_end,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
                env=env,
            )
        finally:
            os.close(write_end)
        assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, (
            args,
            done.stderr,
        )
        # our commands stop with the shell's 141; argparse's help swallows an error it meets
        # itself (0), one met when stdout is flushed is ours (141)
        assert done.returncode in ({0, 141} if args == ["--help"] else {141}), (args, done)


def test_reset_without_the_stub_says_what_to_do(toy_course, capsys):
    (toy_course.root / "kits/day01/stub.py").unlink()
    _solve(toy_course, "day01")
    code, out = _run(toy_course, "reset", "day01", capsys=capsys)
    assert code == 1
    assert "Cannot restore exercises/day01_double.py" in out
    assert "def double" in (toy_course.root / "exercises/day01_double.py").read_text()


def test_a_missing_exercise_file_is_laid_out_from_its_stub(toy_course, capsys):
    (toy_course.root / "exercises/day02_inc.py").unlink()
    code, out = _run(toy_course, "list", capsys=capsys)
    assert "Laid out 1 missing exercise file in exercises/" in out
    stub = (toy_course.root / "kits/day02/stub.py").read_text()
    assert (toy_course.root / "exercises/day02_inc.py").read_text() == stub


@pytest.mark.parametrize("name", ["1", "01", "day1", "day01", "Day01"])
def test_day_names_are_forgiving(toy_course, capsys, name):
    code, out = _run(toy_course, "hint", name, capsys=capsys)
    assert code == 0 and "What is x + x?" in out


def test_grade_writes_a_gradescope_results_file(toy_course, capsys, tmp_path):
    _solve(toy_course, "day01")
    report = tmp_path / "results.json"
    code, out = _run(toy_course, "grade", "--json", str(report), capsys=capsys)
    assert code == 0 and "Score 2 of 3" in out
    data = json.loads(report.read_text())
    assert data["score"] == 2.0
    assert [(t["status"], t["score"], t["max_score"]) for t in data["tests"]] == [
        ("passed", 1.0, 1.0),
        ("passed", 1.0, 1.0),
        ("failed", 0.0, 1.0),
    ]
    assert data["tests"][2]["output"].startswith("day02 not started")
    assert {"name", "number", "output", "visibility"} <= set(data["tests"][0])


def test_watch_regrades_when_a_file_is_saved(toy_course):
    command = [sys.executable, "-m", "miniagent_course.cli", "--root", str(toy_course.root)]
    watch = subprocess.Popen(
        [*command, "watch", "day01", "--interval", "0.1", "--max-runs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
    )
    try:
        lines = []
        for line in watch.stdout:
            lines.append(line)
            if line.startswith("Watching your exercise files"):
                break
        _solve(toy_course, "day01")
        rest, _ = watch.communicate(timeout=120)
    finally:
        watch.kill()
    first, second = "".join(lines), rest
    assert "grading exercises/day01_double.py" in first and "not started" in first
    assert "grading exercises/day01_double.py" in second and "✓ day01" in second


def test_open_delegates_to_the_site_helper(toy_course, monkeypatch):
    calls = []
    site = types.ModuleType("miniagent_course.site.serve")
    site.open_course = lambda argv: calls.append(argv) or 7
    monkeypatch.setitem(sys.modules, "miniagent_course.site.serve", site)
    assert cli.main(["open", "--no-serve", "--port", "9000"]) == 7
    assert calls == [["--no-serve", "--port", "9000"]]


def test_pytest_inside_exercises_points_to_the_course_folder():
    exercises = cli.Path(__file__).resolve().parents[3] / "exercises"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"],
        cwd=exercises,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "graded from the course folder" in done.stdout
    assert f"cd {exercises.parent} && pytest" in done.stdout


def test_list_regrades_only_the_days_whose_files_changed(toy_course, capsys, monkeypatch):
    graded = []
    real = cli.run_graders

    def counting(course, exercises, *args, **kwargs):
        graded.append([e.id for e in exercises])
        return real(course, exercises, *args, **kwargs)

    monkeypatch.setattr(cli, "run_graders", counting)
    code, first = _run(toy_course, "list", capsys=capsys)
    assert graded == [["day01", "day02"]]
    code, again = _run(toy_course, "list", capsys=capsys)
    assert graded == [["day01", "day02"]] and again == first  # nothing changed: nothing graded
    _solve(toy_course, "day02")
    code, out = _run(toy_course, "list", capsys=capsys)
    assert graded[-1] == ["day02"]
    assert "day02" in out and "done" in out.split("day02", 1)[1].splitlines()[0]
    # A changed grader counts as a change too.
    grader = toy_course.root / "kits/day01/graders/test_day01_double.py"
    grader.write_text(
        grader.read_text() + "\n\ndef test_double_one(impl):\n    assert impl.double(1) == 2\n"
    )
    _run(toy_course, "list", capsys=capsys)
    assert graded[-1] == ["day01"]


def test_lesson_links_follow_the_server_to_its_port(toy_course, capsys):
    import http.server
    import threading

    from miniagent_course.site import serve

    exercise = toy_course.exercise("day01")
    assert "http://127.0.0.1:8000/" in cli.lesson_address(exercise, toy_course.root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        address = f"http://127.0.0.1:{server.server_address[1]}"
        serve.remember_address(toy_course.root, address)
        assert f"{address}/" in cli.lesson_address(exercise, toy_course.root)
    finally:
        server.shutdown()
        server.server_close()
    # The server has stopped: the links go back to the default address.
    assert "http://127.0.0.1:8000/" in cli.lesson_address(exercise, toy_course.root)
