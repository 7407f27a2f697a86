"""What a grading run found: per-test records, the course progress table, and the exports.

The pytest plugin fills a list of :class:`Record` (one per grader test and implementation); this
module turns it into the progress table printed at the end of a run, the JSON the ``miniagent``
command reads, and a Gradescope autograder ``results.json``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from miniagent_course.grading.course import Course, Exercise
from miniagent_course.grading.sealed import FirstTry, first_tries
from miniagent_course.text import columns, pad, say
from miniagent_course.text import fit as text_fit

# The worst outcome of a test's phases wins: a passing call with a failing teardown is an error.
# "not_run": skipped because an earlier grader of the same day timed out or the file did not load.
# "held": the learner's part 1 of a sealed day, not run until the day's table has its first try.
SEVERITY = {
    "passed": 0,
    "skipped": 1,
    "not_run": 2,
    "not_started": 2,
    "held": 2,
    "failed": 3,
    "error": 4,
}


@dataclass
class Record:
    """The outcome of one grader test against one implementation."""

    nodeid: str
    exercise: str
    impl: str  # label: "reference", "learner", "mutant-day00_always_get"
    kind: str  # "reference" | "learner" | "mutant"
    status: str  # a key of SEVERITY
    message: str = ""  # one line
    details: str = ""  # the failure as pytest printed it
    duration: float = 0.0
    notes: list[str] = field(default_factory=list)  # lines a passing grader left for the learner


@dataclass
class Tally:
    """How one implementation did on one exercise's graders."""

    counts: Counter[str] = field(default_factory=Counter)
    held: str = ""  # why part 1 is held (a sealed day's table has no first try yet), in one line

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def failing(self) -> int:
        return self.counts["failed"] + self.counts["error"]

    @property
    def status(self) -> str:
        """``done``, ``failing``, ``not_started``, ``in_progress`` or ``no_graders``.

        A day whose part 1 is held is under way (its part 1 is written: a day of stubs only is
        not started and holds nothing), unless a check of its table fails.
        """
        if self.total == 0:
            return "no_graders"
        if self.failing:
            return "failing"
        if self.counts["passed"] == self.total:
            return "done"
        if self.counts["passed"] == 0 and not self.counts["held"]:
            return "not_started"
        return "in_progress"

    def describe(self) -> str:
        """The status in words: "done", "failing 2 of 9", "not started"...; held tests are not
        counted (the day's held line says why they wait)."""
        status = self.status
        if self.counts["held"] and status == "in_progress":
            status = "held"
        text = say(
            f"status.{status}",
            n=self.failing,
            passed=self.counts["passed"],
            m=self.total - self.counts["held"],
        )
        if self.counts["not_run"]:
            text += say("status.not_run", k=self.counts["not_run"])
        return text


WIDTH = 80  # a terminal's classic width: the progress table never wraps in one


def short_name(nodeid: str) -> str:
    """``<kit>/graders/test_x.py::test_y[learner-dict]`` -> ``test_y[dict]``."""
    name = nodeid.split("::")[-1]
    if not name.endswith("]"):
        return name
    base, params = name[:-1].split("[", 1)
    rest = [p for p in params.split("-") if p != "learner"]
    return f"{base}[{'-'.join(rest)}]" if rest else base


def tallies(records: list[Record]) -> dict[str, dict[str, Tally]]:
    """``{impl label: {exercise id: Tally}}`` in the order the records came."""
    table: dict[str, dict[str, Tally]] = {}
    for record in records:
        tally = table.setdefault(record.impl, {}).setdefault(record.exercise, Tally())
        tally.counts[record.status] += 1
        if record.status == "held" and not tally.held:
            tally.held = record.message
    return table


def progress_lines(course: Course, records: list[Record], strict: bool) -> list[str]:
    """The course progress table shown at the end of a pytest run."""
    table = tallies(records)
    lines: list[str] = []
    if "reference" in table:
        tally = _total(table["reference"])
        lines.append(say("table.reference", passed=tally.counts["passed"], total=tally.total))
    if "learner" in table:
        lines.append(say("table.learner_header"))
        rows = [(e, table["learner"][e.id]) for e in course.exercises if e.id in table["learner"]]
        tries = first_tries(course.root, [e.id for e, _ in rows])  # sealed predictions
        statuses = {e.id: _with_first_try(t.describe(), tries.get(e.id)) for e, t in rows}
        status_width = max(map(columns, statuses.values()), default=0)
        for exercise, tally in rows:
            lines.append(_learner_row(exercise, statuses[exercise.id], status_width))
            if tally.held:  # one line for the day, under its row, never one per test
                lines.append(fit(say("table.held", line=tally.held), WIDTH))
        following = _next_step([(e.id, "held" if t.held else t.status) for e, t in rows])
        if following:
            lines.append(following)
        if strict:
            lines.append(say("table.strict_note"))
    mutants = {label: _total(t) for label, t in table.items() if label.startswith("mutant-")}
    if mutants:
        lines += mutant_lines(mutants)
    return lines


def _total(per_day: dict[str, Tally]) -> Tally:
    return Tally(sum((t.counts for t in per_day.values()), Counter()))


def fit(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns (a 汉字 takes two), an ellipsis marking a cut."""
    return text_fit(text, width)


def _with_first_try(status: str, first: FirstTry | None) -> str:
    """A day's status, and its recorded first try of the predictions ("first try 11/16")."""
    return status if first is None else say("table.first_try", status=status, score=first.score)


def _learner_row(exercise: Exercise, status: str, status_width: int) -> str:
    """``  day05  <title, cut to fit>  <status>``: one row, never wider than ``WIDTH``."""
    room = WIDTH - columns(say("table.row", day=exercise.id, title="", status=" " * status_width))
    title = fit(exercise.title, room)
    return say("table.row", day=exercise.id, title=pad(title, room), status=status)


def _next_step(days: list[tuple[str, str]]) -> str:
    """One line under the table: the first failing day to look at, else the first to start."""
    for day, status in days:
        if status == "held":  # its part 1 waits for its table
            return say("table.next_held", day=day)
        if status in ("failing", "in_progress"):
            return say("table.next_failing", day=day)
    for day, status in days:
        if status == "not_started":
            return say("table.next_not_started", day=day)
    return ""


def mutant_lines(mutants: dict[str, Tally]) -> list[str]:
    """The kill rate, then one line per mutant: how many grader tests rejected it.

    Only a failed grader kills a mutant; one that errors (did not load or set up) proves nothing
    about the graders and is reported as such.
    """
    lines = []
    for label, tally in mutants.items():
        n = tally.counts["failed"]
        if tally.counts["error"]:
            key, n = "table.mutant_error", tally.counts["error"]
        else:
            key = "table.mutant_killed" if n else "table.mutant_survived"
        lines.append(say(key, name=label, n=n, m=tally.total))
    killed = sum(1 for t in mutants.values() if t.counts["failed"] and not t.counts["error"])
    rate = 100.0 * killed / len(mutants)
    return [say("table.kill_rate", killed=killed, total=len(mutants), rate=rate), *lines]


def course_results(course: Course, records: list[Record], strict: bool) -> dict[str, Any]:
    """Everything ``miniagent check`` needs to write its report (read back from JSON)."""
    return {
        "strict": strict,
        "status": {
            label: {
                day: {"status": t.status, "text": t.describe(), "held": t.held}
                for day, t in per_day.items()
            }
            for label, per_day in tallies(records).items()
        },
        "tests": [asdict(r) for r in records],
    }


def gradescope(course: Course, records: list[Record], duration: float) -> dict[str, Any]:
    """A Gradescope autograder ``results.json``: one test per grader, one point each.

    Only the learner's results are exported when the run graded the learner; otherwise all.
    Not-started tests score 0 (an instructor grades in strict mode).
    """
    chosen = [r for r in records if r.kind == "learner"] or records
    order = {e.id: n for n, e in enumerate(course.exercises)}
    tests = []
    per_day: Counter[str] = Counter()
    for record in chosen:
        per_day[record.exercise] += 1
        passed = record.status == "passed"
        output = say(f"gradescope.{record.status}", day=record.exercise)
        if record.status in ("failed", "error"):
            output += "\n\n" + (record.details or record.message)
        elif record.status == "held" and record.message:
            output += "\n\n" + record.message
        tests.append(
            {
                "name": f"{record.exercise} {short_name(record.nodeid)}",
                "number": f"{order.get(record.exercise, 0)}.{per_day[record.exercise]}",
                "score": 1.0 if passed else 0.0,
                "max_score": 1.0,
                "status": "passed" if passed else "failed",
                "output": output,
                "tags": [record.exercise, record.impl],
                "visibility": "visible",
            }
        )
    score = sum(t["score"] for t in tests)
    return {
        "score": score,
        "execution_time": round(duration, 2),
        "output": say("gradescope.summary", passed=int(score), total=len(tests)),
        "tests": tests,
    }
