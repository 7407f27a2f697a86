"""Your loop (Day 03's ``run_loop``) as an alternative runner, checked apart from your agent.

Your agent's score counts scenarios of ``create_react_agent`` made of your functions; your loop
replaces the whole graph instead, so it has its own line: each script of Day 03
(``grading/inner/day03.py``) runs through your ``run_loop`` and its messages are compared with
``loop.json``, the messages upstream's ``create_react_agent(model, ToolNode(tools,
handle_tool_errors=True))`` ends the same script with (recorded from the pinned packages; the
contributors' suite records them again). Nothing here imports upstream.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from miniagent_course.grading.course import Course, ExerciseLoadError, load_implementation
from miniagent_course.grading.inner.day03 import LOOP_SCRIPTS, agent_run, loop_run
from miniagent_course.grading.timeout import GraderTimeout, call_with_timeout

RECORDED = Path(__file__).with_name("loop.json")
LOOP = "miniagent_course.grading.inner.day03:run_loop"  # the graded function's reference
TIMEOUT = 10.0  # seconds for one script: your loop may not stop


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


def recorded() -> dict[str, Any]:
    return json.loads(RECORDED.read_text(encoding="utf-8"))


def record() -> dict[str, Any]:
    """Upstream's agent on every script (contributors: needs the pinned upstream packages)."""
    import warnings

    from miniagent_course.sides import upstream

    side = upstream()
    if side is None:
        raise RuntimeError('recording needs the upstream packages: pip install -e ".[upstream]"')
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            name: json.loads(json.dumps(agent_run(side, name, handle_tool_errors=True)))
            for name in LOOP_SCRIPTS
        }


def _ends_as_recorded(loop: Any, name: str, expected: Any) -> bool:
    from miniagent_course.sides import mini

    try:
        trace = call_with_timeout(loop_run, {"lib": mini(), "name": name, "loop": loop}, TIMEOUT)
    except GraderTimeout:
        return False
    except Exception:  # your loop raised where the agent ended normally
        return False
    return json.loads(json.dumps(trace)) == expected


def check_loop(course: Course) -> LoopReport | None:
    """Run your ``run_loop`` on every script; None when the course has no loop exercise."""
    from miniagent_course.mine import _written

    found = [(e, f) for e in course.exercises for f in e.functions if f.reference == LOOP]
    if not found:
        return None
    exercise, function = found[0]
    try:
        source = (course.root / exercise.file).read_text(encoding="utf-8")
        if not _written(source, function.name, exercise.id):
            return LoopReport(exercise.id, "not_started")
        loop = load_implementation(course, exercise, "learner").functions[function.name]
    except (OSError, SyntaxError, ExerciseLoadError) as error:
        return LoopReport(exercise.id, "broken", why=str(error).splitlines()[0])
    report = LoopReport(exercise.id, "yours")
    expected = recorded()
    for name in LOOP_SCRIPTS:
        ok = _ends_as_recorded(loop, name, expected[name])
        (report.passed if ok else report.failed).append(name)
    return report
