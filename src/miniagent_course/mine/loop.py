"""Your loop: a graded function that replaces the whole agent, checked apart from your agent.

Your agent's score counts scenarios of ``create_react_agent`` made of your functions; a loop
(Day 03's ``run_loop``) replaces the whole graph instead, so it has its own line. A kit declares
its loop in its ``kit.toml``::

    [mine.loop]
    function = "run_loop"                                      # the graded function
    run = "miniagent_course.kits.day03.cases:loop_run"         # run(lib, script, loop) -> data
    scripts = "miniagent_course.kits.day03.cases:LOOP_SCRIPTS" # the scripts' names, in order
    recording = "miniagent_course.kits.day03.cases:RECORDING"  # upstream's result of each script

Each script runs through your function (``run(mini(), script, yours)``) and its result is compared
with the recording (a :class:`~miniagent_course.grading.recording.Recording`: upstream's results,
recorded from the pinned packages; the contributors' suite records them again). Nothing here
imports upstream, nor a day: the kit's names are resolved when the check runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from miniagent_course.grading.course import (
    Course,
    Exercise,
    ExerciseLoadError,
    import_target,
    load_implementation,
)
from miniagent_course.grading.recording import Recording, as_recorded
from miniagent_course.grading.timeout import GraderTimeout, call_with_timeout

TIMEOUT = 10.0  # seconds for one script: your loop may not stop


@dataclass(frozen=True)
class Loop:
    """A kit's ``[mine.loop]``, resolved: the day, its graded function, how a script runs."""

    exercise: Exercise
    function: str
    run: Callable[[Any, str, Callable[..., Any]], Any]
    scripts: tuple[str, ...]
    recording: Recording


@dataclass
class LoopReport:
    """Your loop's scripts: ``state`` is "yours", "not_started" or "broken" (then ``why``)."""

    day: str
    state: str
    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    why: str = ""

    @property
    def total(self) -> int:
        return len(self.passed) + len(self.failed)


def declared_loop(course: Course) -> Loop | None:
    """The first kit's ``[mine.loop]``, resolved; None when no kit declares one."""
    for exercise in course.exercises:
        table = exercise.data.get("mine", {}).get("loop")
        if table:
            return Loop(
                exercise=exercise,
                function=table["function"],
                run=import_target(table["run"]),
                scripts=tuple(import_target(table["scripts"])),
                recording=import_target(table["recording"]),
            )
    return None


def _ends_as_recorded(loop: Loop, yours: Callable[..., Any], name: str, expected: Any) -> bool:
    from miniagent_course.sides import mini

    lib = mini()
    try:
        trace = call_with_timeout(lambda: loop.run(lib, name, yours), {}, TIMEOUT)
    except GraderTimeout:
        return False
    except Exception:  # your loop raised where the agent ended normally
        return False
    return as_recorded(trace) == expected


def check_loop(course: Course) -> LoopReport | None:
    """Run your loop on every script; None when no kit declares a loop."""
    from miniagent_course.mine import _written

    loop = declared_loop(course)
    if loop is None:
        return None
    exercise = loop.exercise
    try:
        source = (course.root / exercise.file).read_text(encoding="utf-8")
        if not _written(source, loop.function, exercise.id):
            return LoopReport(exercise.id, "not_started")
        yours = load_implementation(course, exercise, "learner").functions[loop.function]
    except (OSError, SyntaxError, ExerciseLoadError) as error:
        return LoopReport(exercise.id, "broken", why=str(error).splitlines()[0])
    report = LoopReport(exercise.id, "yours")
    expected = loop.recording.recorded()
    for name in loop.scripts:
        ok = _ends_as_recorded(loop, yours, name, expected[name])
        (report.passed if ok else report.failed).append(name)
    return report
