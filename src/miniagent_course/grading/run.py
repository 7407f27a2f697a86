"""Run the graders in a fresh pytest process and read back what they found.

The ``miniagent`` command grades through this: a subprocess keeps the learner's code (and any
endless loop in it) out of the command's own process, and every run sees the files as saved.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from miniagent_course.grading.course import Course, Exercise

# The plugins every grading run loads (autoloading is off: the installed plugins cost more start-up
# time than grading a day). Hypothesis is a dependency of the course and its graders' tool; its
# plugin imports hypothesis only when a test uses it. A grader that needs another plugin adds it here.
PLUGINS = ("miniagent_course.grading.plugin", "_hypothesis_pytestplugin")
RUN_TIMEOUT = 900  # seconds for a whole run; each grader test has its own, shorter timeout


@dataclass
class GradingRun:
    """The outcome of one pytest run over some exercises' graders."""

    exitstatus: int
    output: str  # what pytest printed
    status: dict[str, dict[str, Any]] = field(default_factory=dict)  # {impl: {day: {...}}}
    tests: list[dict[str, Any]] = field(default_factory=list)

    def day_status(self, exercise: Exercise, impl: str = "learner") -> str:
        """``done``, ``failing``, ``not_started``, ``in_progress``, or ``broken`` (no results)."""
        return self.status.get(impl, {}).get(exercise.id, {}).get("status", "broken")

    def day_text(self, exercise: Exercise, impl: str = "learner") -> str:
        return self.status.get(impl, {}).get(exercise.id, {}).get("text", "")

    def day_tests(self, exercise: Exercise, impl: str = "learner") -> list[dict[str, Any]]:
        return [t for t in self.tests if t["exercise"] == exercise.id and t["impl"] == impl]


def pytest_command(
    course: Course, exercises: Sequence[Exercise], impl: str, results: Path, *extra: str
) -> list[str]:
    """The pytest command line that grades ``exercises`` against ``impl``."""
    files = [f for e in exercises for f in course.grader_files(e)]
    return [
        sys.executable,
        "-m",
        "pytest",
        *map(str, files),
        f"--impl={impl}",
        f"--course-root={course.root}",
        f"--course-results={results}",
        *(arg for plugin in PLUGINS for arg in ("-p", plugin)),
        # -q comes from pyproject's addopts; twice would drop the summary
        "--no-header",
        "--tb=short",
        "--color=no",
        *extra,
    ]


def run_graders(
    course: Course,
    exercises: Sequence[Exercise],
    impl: str = "learner",
    *extra: str,
    timeout: float = RUN_TIMEOUT,
) -> GradingRun:
    """Grade ``exercises`` in a subprocess; ``extra`` goes to pytest (e.g. ``--strict-exercises``)."""
    if not any(course.grader_files(e) for e in exercises):
        return GradingRun(exitstatus=5, output="")
    with tempfile.TemporaryDirectory(prefix="miniagent-") as tmp:
        results = Path(tmp) / "results.json"
        command = pytest_command(course, exercises, impl, results, *extra)
        env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
        try:
            done = subprocess.run(
                command,
                cwd=course.root,
                env=env,
                capture_output=True,
                text=True,
                encoding="utf-8",
                errors="replace",
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as expired:
            output = expired.stdout if isinstance(expired.stdout, str) else ""
            return GradingRun(exitstatus=-1, output=output)
        run = GradingRun(exitstatus=done.returncode, output=done.stdout + done.stderr)
        if results.exists():
            data = json.loads(results.read_text(encoding="utf-8"))
            run.status, run.tests = data["status"], data["tests"]
        return run
