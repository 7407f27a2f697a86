"""Sealed predictions on the real days: a first, wrong table shows no real outcome anywhere.

For every sealed day (its judgment kind's ``sealed``: ``predict``, ``read``) the learner's file is
its stub with a wrong but well-formed table: each row holds a value of the day's form that is not
what the real run gives. A first run of each place a learner is sent, ``pytest``, ``miniagent
check``, ``miniagent hint`` and the day's notebook, must not show the real outcome of any row: the
outputs are compared with the true answers (the sentence a row's failure tells them in, their
``repr`` and ``str``). The same comparison then finds them in a later ``pytest`` run, which shows
them as before, so it can fail. A partial table says "k of n filled"; the first try is kept across
``miniagent reset`` and shown by the progress table and ``miniagent list``.

Part 1 (the Rebuild) waits for the table: until its first try is recorded, the learner's part 1
tests do not run (their functions note every call in a file, which stays empty), and the progress
table, ``miniagent check`` and ``list`` say so in one line per day ("part 1 is graded once your
predictions() table is answered: 15 of 16 filled"); the run that records the first try grades
part 1 too (the plugin reads the table before any part 1 test runs).

The workspace is a copy of the course of its own (its ``.miniagent/`` holds the records); a
record is deleted before each first run.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from miniagent_course import cli
from miniagent_course.classroom.parts import day_parts, function_name
from miniagent_course.grading.course import Course, Exercise, import_target, load_course
from miniagent_course.grading.judgments import KINDS, Predictions
from miniagent_course.grading.report import WIDTH
from miniagent_course.grading.run import GradingRun, run_graders
from miniagent_course.grading.sealed import FIRST_TRY, first_try
from miniagent_course.text import say

from .conftest import COPIED, _copy, pristine_source, solved_source

pytestmark = pytest.mark.timeout(900)

WRONG: dict[str, Any] = {  # a value of each day's form that is no row's real outcome
    "day01": "LookupError",
    "day02": "LookupError",
    "day03": "human ai",
    "day05": "LookupError",
    "day08": (3, "LookupError", None),
    "day11": None,  # a closed set of outcomes: each row gets one that is not its own
    "day12": [("agent", "AIMessage", "x9", "LookupError")],
    "day14": 99,  # an index no cut of the table returns
    "day15": ("reply", ("lookup_customer",)),
}


def _sealed(exercise: Exercise) -> bool:
    """Is the day's Think part a table answered first (its kind's ``sealed``)?"""
    return exercise.judgment is not None and KINDS[exercise.judgment.kind].sealed


PREDICT_DAYS = [  # every day whose Think part is a sealed table
    e.id for e in load_course(Path(__file__).resolve().parents[3]).exercises if _sealed(e)
]  # fmt: skip
SHORTEST = 6  # a text shorter than this is not looked for (a row's sentence always is)


def _predict_days(course: Course) -> list[Exercise]:
    return [e for e in course.exercises if _sealed(e)]


def _declaration(course: Course, exercise: Exercise) -> Predictions:
    """The day's table as its grader declares it (``judgment_graders``' ``declaration``)."""
    for path in course.grader_files(exercise):
        spec = importlib.util.spec_from_file_location(f"_sealed_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        test = getattr(module, "test_prediction", None)
        if test is not None:
            return test.declaration
    raise AssertionError(f"{exercise.id}: no test_prediction among its graders")


class Day:
    """A predict day: its declaration, its wrong table, and the true answers it gets wrong."""

    def __init__(self, course: Course, exercise: Exercise) -> None:
        self.exercise = exercise
        self.declaration = _declaration(course, exercise)
        self.reference = _reference_table(exercise)  # the true answers, as a learner writes them
        self.table = {case: self._wrong(case, self.reference) for case in self.declaration.cases}
        self.truths = {case: self.declaration.actual(case) for case in self.declaration.cases}

    def _wrong(self, case: Any, reference: dict[Any, Any]) -> Any:
        fixed = WRONG[self.exercise.id]
        candidates = ([] if fixed is None else [fixed]) + list(reference.values())
        for value in candidates:
            if self.declaration.problem(value) is None:
                if not self.declaration.right({case: value}, case):
                    return value
        raise AssertionError(f"{self.exercise.id} {case!r}: no wrong value of the day's form")

    def needles(self) -> dict[Any, list[str]]:
        """Per row, the texts that would show its real outcome: the sentence a failure tells it
        in, and the ``repr`` and ``str`` of the outcome as the graders and as a learner write it,
        unless it is a bare name (``'ValueError'``, ``'tool'``, which a page or an error prints
        anyway); none the wrong table holds itself."""
        written = repr(self.table)
        found = {}
        for case, actual in self.truths.items():
            texts = {self.declaration.told(actual)}
            for value in (actual, self.reference[case]):  # as the graders and a learner write it
                if not (isinstance(value, str) and value.isidentifier()):  # not a bare name
                    texts |= {repr(value), str(value)}
            found[case] = sorted(t for t in texts if len(t) >= SHORTEST and t not in written)
        return found

    def shown(self, output: str) -> dict[Any, list[str]]:
        """The rows whose real outcome ``output`` shows, with the texts that show it."""
        seen = {case: [t for t in texts if t in output] for case, texts in self.needles().items()}
        return {case: texts for case, texts in seen.items() if texts}

    def source(self, course: Course) -> str:
        """The stub, with ``predictions()`` returning the wrong table."""
        stub = pristine_source(course, self.exercise)
        tree = ast.parse(stub)
        function = self.exercise.judgment.function
        (node,) = [n for n in tree.body if getattr(n, "name", None) == function]
        lines = stub.splitlines(keepends=True)
        body = f"def {function}():\n    return {self.table!r}\n"
        lines[node.lineno - 1 : node.end_lineno] = [body]
        return "".join(lines)


def _reference_table(exercise: Exercise) -> dict[Any, Any]:
    (function,) = [f for f in exercise.functions if f.name == exercise.judgment.function]
    return import_target(function.reference)()


@pytest.fixture(scope="module")
def sealed_course(tmp_path_factory) -> Course:
    """A copy of the course of its own, every predict day's file holding its wrong table."""
    root = tmp_path_factory.mktemp("sealed")
    _copy(COPIED, root)
    course = load_course(root)
    for exercise in course.exercises:
        (root / exercise.file).parent.mkdir(parents=True, exist_ok=True)
        (root / exercise.file).write_text(pristine_source(course, exercise), encoding="utf-8")
    return course


@pytest.fixture(scope="module")
def days(sealed_course) -> dict[str, Day]:
    found = {e.id: Day(sealed_course, e) for e in _predict_days(sealed_course)}
    for day in found.values():
        path = sealed_course.root / day.exercise.file
        path.write_text(day.source(sealed_course), encoding="utf-8")
    return found


def _forget_first_tries(course: Course) -> None:
    shutil.rmtree(course.root / FIRST_TRY, ignore_errors=True)


def _pytest(root: Path, *args: str) -> str:
    """The README's plain ``pytest``, in the course folder (``args``: e.g. ``-m day01``)."""
    env = {  # a learner's terminal: not this run's options, nor its pytest-xdist worker's run id
        k: v
        for k, v in os.environ.items()
        if k != "PYTEST_ADDOPTS" and not k.startswith("PYTEST_XDIST")
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:randomly", *args],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
    )
    return done.stdout + done.stderr


def test_every_predict_day_gets_a_wrong_table_of_its_form(sealed_course, days):
    assert sorted(days) == [
        "day01",
        "day02",
        "day03",
        "day05",
        "day08",
        "day11",
        "day12",
        "day14",
        "day15",
    ]
    assert sum(len(day.table) for day in days.values()) == 108
    for day in days.values():
        for case, value in day.table.items():
            assert day.declaration.problem(value) is None
            assert not day.declaration.right(day.table, case), (day.exercise.id, case)
        assert all(day.needles().values()), day.exercise.id  # each row can be looked for


def test_a_first_pytest_run_shows_no_real_outcome_and_a_later_one_does(sealed_course, days):
    _forget_first_tries(sealed_course)
    first = _pytest(sealed_course.root)
    for day in days.values():
        assert day.shown(first) == {}, day.exercise.id
        recorded = first_try(sealed_course.root, day.exercise.id)
        assert recorded is not None and recorded.right == 0, day.exercise.id
        rows = [line for line in first.splitlines() if line.startswith(f"  {day.exercise.id}  ")]
        assert rows and rows[0].endswith(f"first try 0/{len(day.table)}"), rows
        assert len(rows[0]) <= WIDTH
    later = _pytest(sealed_course.root)  # the record is older than this run: outcomes show
    for day in days.values():
        assert day.shown(later), day.exercise.id
        assert first_try(sealed_course.root, day.exercise.id).right == 0


@pytest.mark.parametrize("day", PREDICT_DAYS)
def test_a_first_check_and_the_hints_show_no_real_outcome(sealed_course, days, day, capsys):
    root = str(sealed_course.root)
    _forget_first_tries(sealed_course)  # the hints first: each call shows one more
    (sealed_course.root / cli.STATE_FILE).unlink(missing_ok=True)
    for _ in sealed_course.exercise(day).hints:
        assert cli.main(["--root", root, "hint", day]) == 0
    assert cli.main(["--root", root, "hint", day, "--all"]) == 0
    hinted = capsys.readouterr().out
    assert all(hint in hinted for hint in sealed_course.exercise(day).hints)
    assert days[day].shown(hinted) == {}

    _forget_first_tries(sealed_course)  # then a first check
    cli.main(["--root", root, "check", day])
    checked = capsys.readouterr().out
    assert "wrong (your first try is recorded: 0 of" in checked
    assert days[day].shown(checked) == {}


def test_a_partial_table_says_how_full_it_is_and_records_nothing(sealed_course, days):
    _forget_first_tries(sealed_course)
    exercises = [day.exercise for day in days.values()]
    try:
        for day in days.values():
            first = next(iter(day.table))
            partial = {k: v for k, v in day.table.items() if k != first}
            source = day.source(sealed_course).replace(repr(day.table), repr(partial))
            (sealed_course.root / day.exercise.file).write_text(source, encoding="utf-8")
        run = run_graders(sealed_course, exercises)
    finally:
        for day in days.values():
            path = sealed_course.root / day.exercise.file
            path.write_text(day.source(sealed_course), encoding="utf-8")
    for day in days.values():
        n = len(day.table)
        tests = run.day_tests(day.exercise)
        (table,) = [t for t in tests if "test_predictions_are" in t["nodeid"]]
        assert f"has {n - 1} of {n} filled, so it is not graded yet" in table["message"]
        rows = [t for t in tests if "test_prediction[" in t["nodeid"]]
        assert len(rows) == n and {t["status"] for t in rows} == {"skipped"}
        assert day.shown(run.output + json.dumps(tests)) == {}
        assert first_try(sealed_course.root, day.exercise.id) is None


def test_the_first_try_is_kept_across_reset_and_listed(sealed_course, days, capsys):
    _forget_first_tries(sealed_course)
    run_graders(sealed_course, [day.exercise for day in days.values()])
    root = str(sealed_course.root)
    try:
        for day in days.values():
            assert cli.main(["--root", root, "reset", day.exercise.id]) == 0
            assert first_try(sealed_course.root, day.exercise.id).score == f"0/{len(day.table)}"
        capsys.readouterr()
        assert cli.main(["--root", root, "list"]) == 0
        listed = capsys.readouterr().out.splitlines()
    finally:
        for day in days.values():
            path = sealed_course.root / day.exercise.file
            path.write_text(day.source(sealed_course), encoding="utf-8")
    assert max(map(len, listed)) <= WIDTH
    for day in days.values():
        (line,) = [line for line in listed if f" {day.exercise.id} " in line]
        assert line.endswith(f"first try 0/{len(day.table)}"), line


@pytest.mark.parametrize("day", PREDICT_DAYS)
def test_a_first_notebook_run_shows_no_real_outcome(sealed_course, days, day, monkeypatch):
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    _forget_first_tries(sealed_course)
    monkeypatch.delenv("MINIAGENT_NOTEBOOK_IMPL", raising=False)
    monkeypatch.delenv("MINIAGENT_NOTEBOOK_TABLES", raising=False)
    monkeypatch.setenv("MINIAGENT_COURSE_ROOT", str(sealed_course.root))
    exercise = days[day].exercise
    path = sealed_course.root / exercise.notebook
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=60,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    outputs = [
        o.get("text", "") + "".join(map(str, o.get("data", {}).values()))
        for cell in notebook.cells
        for o in cell.get("outputs", [])
    ]
    text = "\n".join(outputs)
    assert not [o for c in notebook.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert "Your first try is recorded: 0 of" in text  # the table cell graded and sealed it
    assert days[day].shown(text) == {}
    assert first_try(sealed_course.root, day) is not None


# --- part 1 waits for the table ------------------------------------------------------------------


def _rebuilt(course: Course, day: Day, table: dict[Any, Any] | None, mark: Path) -> str:
    """The day's file with part 1 written (the reference's code, each function first noting its
    name in ``mark``) and ``predictions()`` returning ``table`` (None: the stub's, not started)."""
    exercise = day.exercise
    function = exercise.judgment.function
    stub = pristine_source(course, exercise)
    part_1 = tuple(f for f in exercise.functions if f.name != function)
    source = solved_source(dataclasses.replace(exercise, functions=part_1), stub)
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    nodes = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for node in sorted(nodes, key=lambda n: -n.lineno):
        if node.name == function:
            if table is None:  # the stub's own function, still `raise NotStarted`
                (pristine,) = [
                    n for n in ast.parse(stub).body if getattr(n, "name", "") == function
                ]
                body = "".join(
                    stub.splitlines(keepends=True)[pristine.lineno - 1 : pristine.end_lineno]
                )
            else:
                body = f"def {function}():\n    return {table!r}\n"
            lines[node.lineno - 1 : node.end_lineno] = [body]
        elif node.name in {f.name for f in exercise.functions}:
            first = node.body[0]
            note = f"open({str(mark)!r}, 'a').write({node.name!r} + '\\n')"
            lines.insert(first.lineno - 1, " " * first.col_offset + note + "\n")
    return "".join(lines)


def _part_1(course: Course, run: GradingRun, exercise: Exercise) -> dict[str, list[str]]:
    """The statuses of the day's part 1 tests and of its part 2 tests, as the classroom splits
    a day (``classroom/parts.py``, read from the grader files' source)."""
    parts = day_parts(course, exercise)
    found: dict[str, list[str]] = {"part 1": [], "part 2": []}
    for test in run.day_tests(exercise):
        found[f"part {parts[function_name(test['nodeid'])]}"].append(test["status"])
    return found


def _held_line(day: Day, filled: int) -> str:
    function = day.exercise.judgment.function
    return say("grading.held", function=function, filled=filled, total=len(day.table))


def _write(course: Course, sources: dict[str, str]) -> None:
    for day, source in sources.items():
        (course.root / course.exercise(day).file).write_text(source, encoding="utf-8")


def test_part_1_waits_for_an_answered_table_and_is_graded_in_the_run_that_records_it(
    sealed_course, days, tmp_path
):
    """On every sealed day, a correct part 1 and a table one row short: part 1's tests are held
    (none calls the learner's functions), the day says so in one line, nothing is recorded and
    no real outcome shows. Once the table is answered (wrong), the same run records the first
    try and then grades part 1: every part 1 test passes, and its functions were called."""
    exercises = [day.exercise for day in days.values()]
    mark = tmp_path / "part-1-calls.txt"
    _forget_first_tries(sealed_course)
    try:
        short = {d: _rebuilt(sealed_course, day, dict(list(day.table.items())[1:]), mark)
                 for d, day in days.items()}  # fmt: skip
        _write(sealed_course, short)
        waiting = run_graders(sealed_course, exercises)
        called_while_waiting = mark.read_text() if mark.exists() else ""
        recorded_while_waiting = [d for d in days if first_try(sealed_course.root, d)]
        answered = {d: _rebuilt(sealed_course, day, day.table, mark) for d, day in days.items()}
        _write(sealed_course, answered)
        graded = run_graders(sealed_course, exercises)
    finally:
        _write(sealed_course, {d: day.source(sealed_course) for d, day in days.items()})

    assert called_while_waiting == ""  # no part 1 test ran the learner's code
    assert recorded_while_waiting == []
    held = [line for line in waiting.output.splitlines() if "part 1 is graded once" in line]
    assert len(held) == len(days)  # one line a day, none per test
    table = waiting.output[waiting.output.index("course progress") :]
    for d, day in days.items():
        line = _held_line(day, len(day.table) - 1)
        parts = _part_1(sealed_course, waiting, day.exercise)
        assert parts["part 1"] and set(parts["part 1"]) == {"held"}, (d, parts)
        assert "held" not in parts["part 2"], (d, parts)
        assert waiting.status["learner"][d]["held"] == line
        rows = table.splitlines()
        (row,) = [n for n, text in enumerate(rows) if text.startswith(f"  {d}  ")]
        assert rows[row + 1] == f"    {line}", rows[row : row + 2]  # under the day's row
        assert waiting.day_status(day.exercise) == "failing"  # the table's "15 of 16 filled"
        assert day.shown(waiting.output + json.dumps(waiting.tests)) == {}, d

        parts = _part_1(sealed_course, graded, day.exercise)
        assert set(parts["part 1"]) == {"passed"}, (d, parts)  # graded in the recording run
        assert graded.status["learner"][d]["held"] == ""
        recorded = first_try(sealed_course.root, d)
        assert recorded is not None and recorded.right == 0, d
    called = set(mark.read_text().split())
    for day in days.values():  # part 1 ran once the table was answered: the mark can fill up
        part_1 = {f.name for f in day.exercise.functions} - {day.exercise.judgment.function}
        assert part_1 & called, day.exercise.id


def test_a_part_1_failure_never_shows_a_row_before_the_first_try(
    sealed_course, days, tmp_path, capsys
):
    """Day 01's part 1 grader of tuples expects what ``add_messages`` does with ``("user",
    "hi")``, the real outcome of the row ``one_tuple``. With a part 1 that treats a tuple as a
    list and a table not yet answered, neither ``pytest``, ``check``, ``list`` nor the hints
    show it; the run that records the (wrong) first try grades part 1 and shows it: the same
    comparison finds it there."""
    day = days["day01"]
    root = str(sealed_course.root)
    mark = tmp_path / "calls.txt"
    good = _rebuilt(sealed_course, day, None, mark)
    assert good.count("if not isinstance(right, list):") == 1
    wrong = good.replace(
        "if not isinstance(right, list):", "if not isinstance(right, (list, tuple)):"
    )
    partial = {k: v for k, v in day.table.items() if k not in ("one_tuple", "tuple_of_messages")}
    _forget_first_tries(sealed_course)
    (sealed_course.root / cli.STATE_FILE).unlink(missing_ok=True)
    (sealed_course.root / cli.STATUS_CACHE).unlink(missing_ok=True)
    outputs = []
    try:
        for table in (None, partial):  # the table not started, then two rows short
            source = (
                wrong
                if table is None
                else wrong.replace(
                    _stub_table(sealed_course, day), f"def predictions():\n    return {table!r}\n"
                )
            )
            _write(sealed_course, {"day01": source})
            outputs.append(_pytest(sealed_course.root, "-m", "day01"))
            capsys.readouterr()
            cli.main(["--root", root, "check", "day01"])
            if table is not None:  # (once: `list` grades every day of the copy)
                cli.main(["--root", root, "list"])
            for _ in day.exercise.hints:
                cli.main(["--root", root, "hint", "day01"])
            outputs.append(capsys.readouterr().out)
        recorded_before, called_before = first_try(sealed_course.root, "day01"), mark.exists()
        answered = wrong.replace(
            _stub_table(sealed_course, day), f"def predictions():\n    return {day.table!r}\n"
        )
        _write(sealed_course, {"day01": answered})
        cli.main(["--root", root, "check", "day01"])
        recorded = capsys.readouterr().out
    finally:
        _write(sealed_course, {"day01": day.source(sealed_course)})
    for output in outputs:
        assert day.shown(output) == {}, output
        assert "test_a_tuple_is_one_message_like_value_not_a_list" not in output
        assert "for test_a_tuple" not in output  # no hint offered for a held check
    assert recorded_before is None and not called_before  # part 1 never ran
    pytest_stub, cli_stub, pytest_short, cli_short = outputs
    for output in (pytest_stub, cli_stub):  # part 1 written, the table not started
        assert "waiting for your table" in output and _held_line(day, 0) in output
    assert pytest_short.count(_held_line(day, len(partial))) == 1  # the progress table
    assert cli_short.count(_held_line(day, len(partial))) == 2  # `check`, then `list`
    assert "one_tuple" in day.shown(recorded)  # part 1's failure, graded in the recording run
    assert "test_a_tuple_is_one_message_like_value_not_a_list" in recorded
    assert first_try(sealed_course.root, "day01").right == 0


def _stub_table(course: Course, day: Day) -> str:
    """The stub's table function (``predictions``), as its file holds it."""
    stub = pristine_source(course, day.exercise)
    function = day.exercise.judgment.function
    (node,) = [n for n in ast.parse(stub).body if getattr(n, "name", "") == function]
    return "".join(stub.splitlines(keepends=True)[node.lineno - 1 : node.end_lineno])
