"""GitHub Classroom: an assignment template whose workflow grades each day part on every push.

``miniagent classroom github --out DIR`` writes, for the instructor's template repository (a copy
of the course):

* ``.github/workflows/classroom.yml``: on push, install the course, then one step per graded day
  part with GitHub Classroom's command grader (``classroom-resources/autograding-command-
  grader@v1``: the part's points if its command exits 0), and the autograding reporter
  (``classroom-resources/autograding-grading-reporter@v1``) that sends the points to the
  classroom;
* ``classroom.toml``: the plan the steps were written from (``miniagent classroom check`` reads
  its time limits).

Each step's command is ``miniagent classroom check DAY --part N``: it grades the day in strict mode
exactly as the Gradescope autograder does (a fresh copy of the course, a child process, the
watch) and exits 0 only if every check of that part passes. GitHub Classroom gives whole points
per step, so a part's points are rounded to a whole number and there is no partial credit.
"""

from __future__ import annotations

import json
from pathlib import Path

from miniagent_course.classroom.config import CONFIG_FILE, Classroom
from miniagent_course.classroom.gradescope import part_title
from miniagent_course.grading.course import Course
from miniagent_course.text import say

WORKFLOW = Path(".github") / "workflows" / "classroom.yml"
GRADER = "classroom-resources/autograding-command-grader@v1"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"
STEP_MINUTES = 10  # the command grader's own time limit for one step, in minutes


def _q(text: str) -> str:
    """A YAML scalar in double quotes (JSON's string syntax is YAML's)."""
    return json.dumps(text, ensure_ascii=False)


def check_command(day: str, part: int) -> str:
    return f"miniagent classroom check {day} --part {part}"


def steps(course: Course, classroom: Classroom) -> list[dict[str, object]]:
    """One entry per graded day part: its step id, name, command and whole points."""
    found = []
    for plan in classroom.days:
        for part, points in enumerate(plan.part_points(), 1):
            found.append(
                {
                    "id": f"{plan.day}-part{part}",
                    "name": say(
                        "classroom.test_name",
                        day=plan.day,
                        part=part,
                        title=part_title(course, plan.day, part),
                    ),
                    "command": check_command(plan.day, part),
                    "points": int(round(points)),
                    "exact": float(points).is_integer(),
                }
            )
    return found


def workflow(course: Course, classroom: Classroom) -> str:
    """The workflow's YAML text."""
    lines = [
        f"# {say('classroom.github_header')}",
        f"name: {_q(say('classroom.github_workflow'))}",
        '"on":',
        "  - push",
        "  - repository_dispatch",
        "permissions:",
        "  checks: write",
        "  actions: read",
        "  contents: read",
        "jobs:",
        "  run-autograding-tests:",
        "    runs-on: ubuntu-latest",
        "    if: github.actor != 'github-classroom[bot]'",
        "    steps:",
        f"      - name: {_q(say('classroom.github_checkout'))}",
        "        uses: actions/checkout@v4",
        f"      - name: {_q(say('classroom.github_python'))}",
        "        uses: actions/setup-python@v5",
        "        with:",
        '          python-version: "3.11"',
        f"      - name: {_q(say('classroom.github_install'))}",
        '        run: python -m pip install -e ".[dev]"',
    ]
    found = steps(course, classroom)
    for step in found:
        lines += [
            f"      - name: {_q(str(step['name']))}",
            f"        id: {step['id']}",
            f"        uses: {GRADER}",
            "        with:",
            f"          test-name: {_q(str(step['name']))}",
            f"          command: {_q(str(step['command']))}",
            f"          timeout: {STEP_MINUTES}",
            f"          max-score: {step['points']}",
        ]
    lines += [
        f"      - name: {_q(say('classroom.github_reporter'))}",
        f"        uses: {REPORTER}",
        "        env:",
        *(
            f"          {str(s['id']).upper()}_RESULTS: "
            + _q("${{steps." + str(s["id"]) + ".outputs.result}}")
            for s in found
        ),
        "        with:",
        f"          runners: {','.join(str(s['id']) for s in found)}",
    ]
    return "\n".join(lines) + "\n"


def write_template(course: Course, classroom: Classroom, out: Path) -> list[Path]:
    """Write the workflow and the plan under ``out``; the files written."""
    workflow_file = out / WORKFLOW
    workflow_file.parent.mkdir(parents=True, exist_ok=True)
    workflow_file.write_text(workflow(course, classroom), encoding="utf-8")
    config = out / CONFIG_FILE
    config.write_text(classroom.text, encoding="utf-8")
    return [workflow_file, config]
