"""Sealed predictions on the real days: a first, wrong table shows no real outcome anywhere.

For every predict day the learner's file is its stub with a wrong but well-formed table: each row
holds a value of the day's form that is not what the real run gives. A first run of each place a
learner is sent, ``pytest``, ``miniagent check``, ``miniagent hint`` and the day's notebook, must
not show the real outcome of any row: the outputs are compared with the true answers (the
sentence a row's failure tells them in, their ``repr`` and ``str``). The same comparison then
finds them in a later ``pytest`` run, which shows them as before, so it can fail. A partial table
says "k of n filled"; the first try is kept across ``miniagent reset`` and shown by the progress
table and ``miniagent list``.

The workspace is a copy of the course of its own (its ``.miniagent/`` holds the records); a
record is deleted before each first run.
"""

from __future__ import annotations

import ast
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
from miniagent_course.grading.course import Course, Exercise, import_target, load_course
from miniagent_course.grading.judgments import Predictions
from miniagent_course.grading.report import WIDTH
from miniagent_course.grading.run import run_graders
from miniagent_course.grading.sealed import FIRST_TRY, first_try

from .conftest import COPIED, _copy, pristine_source

pytestmark = pytest.mark.timeout(900)

WRONG: dict[str, Any] = {  # a value of each day's form that is no row's real outcome
    "day01": "LookupError",
    "day02": "LookupError",
    "day03": "human ai",
    "day04": "LookupError",
    "day05": "LookupError",
    "day08": (3, "LookupError", None),
    "day09": ("error", 9),
    "day11": None,  # a closed set of outcomes: each row gets one that is not its own
    "day12": [("agent", "AIMessage", "x9", "LookupError")],
    "day14": [("user", "LookupError")],
    "day15": ("reply", ("lookup_customer",)),
}
PREDICT_DAYS = [  # every day whose Think part is a prediction table
    e.id for e in load_course(Path(__file__).resolve().parents[3]).exercises
    if e.judgment is not None and e.judgment.kind == "predict"
]  # fmt: skip
SHORTEST = 6  # a text shorter than this is not looked for (a row's sentence always is)


def _predict_days(course: Course) -> list[Exercise]:
    return [e for e in course.exercises if e.judgment and e.judgment.kind == "predict"]


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
        (node,) = [n for n in tree.body if getattr(n, "name", None) == "predictions"]
        lines = stub.splitlines(keepends=True)
        body = f"def predictions():\n    return {self.table!r}\n"
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


def _pytest(root: Path) -> str:
    """The README's plain ``pytest``, in the course folder."""
    env = {  # a learner's terminal: not this run's options, nor its pytest-xdist worker's run id
        k: v
        for k, v in os.environ.items()
        if k != "PYTEST_ADDOPTS" and not k.startswith("PYTEST_XDIST")
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:randomly"],
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
        "day04",
        "day05",
        "day08",
        "day09",
        "day11",
        "day12",
        "day14",
        "day15",
    ]
    assert sum(len(day.table) for day in days.values()) == 126
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
