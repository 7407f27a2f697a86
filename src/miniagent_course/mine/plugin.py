"""``miniagent mine`` in a learner's ``pytest``: one line under the course progress table.

The grading plugin defines the hook ``pytest_miniagent_summary`` (``pytest_addhooks``) and calls it
after the table of a learner's run; this plugin answers it with how the learner's own agent does.
``pyproject.toml`` loads it (``addopts``: ``-p miniagent_course.mine.plugin``), after the grading
plugin. Loading it costs next to nothing: the agent is built only when the hook is called.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import pytest

from miniagent_course.grading.course import Course
from miniagent_course.grading.report import WIDTH, Record
from miniagent_course.text import say


@pytest.hookimpl(optionalhook=True)
def pytest_miniagent_summary(course: Course, records: Sequence[Record]) -> list[str]:
    """How the learner's own agent does on the recorded scenarios (``mine``), in 80 columns."""
    from miniagent_course.mine import check, your_functions
    from miniagent_course.mine.scenarios import AGENT_SCENARIOS

    # Only days whose graders all passed join: they are known to finish, so a loop in a
    # half-done day never costs a timeout per scenario here (miniagent mine tries them all).
    learner = [r for r in records if r.kind == "learner"]
    passing = {r.exercise for r in learner} - {r.exercise for r in learner if r.status != "passed"}
    written = set(your_functions(course).functions)
    used, waiting = sorted(written & passing), sorted(written - passing)
    if not used:
        text = say("table.agent_none")
    else:
        report = check(course, days=set(used))
        agent = check(course, AGENT_SCENARIOS, days=set(used))
        text = say(
            "table.agent",
            days=", ".join(used),
            k=len(report.passed),
            n=report.total,
            ak=len(agent.passed),
            an=agent.total,
        )
    if waiting:
        text += say("table.agent_waiting", days=", ".join(waiting))
    return textwrap.wrap(text, WIDTH, subsequent_indent="  ")
