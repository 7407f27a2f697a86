"""`pytest` run inside exercises/: say where grading happens instead of "no tests ran".

The graders live with the course (each day kit's graders/), and a plain `pytest` finds them only
from the course folder, the one with pyproject.toml. This file is part of the course, not one of
your exercises; `miniagent reset` never touches it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from miniagent_course.text import say

COURSE = Path(__file__).resolve().parent.parent


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int) -> None:
    if terminalreporter.config.invocation_params.dir.resolve() != Path(__file__).parent:
        return
    terminalreporter.write_line("")
    terminalreporter.write_line(say("workspace.pytest_here", course=COURSE))
