"""The GitHub Classroom template: a valid workflow, one graded step per day part with its
points, the reporter reading every step; and its grading command, run here as the workflow runs
it in a learner's repository, passes on a right answer and fails on a wrong one."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from miniagent_course.classroom.github import GRADER, REPORTER, write_template

from .conftest import copy_workspace, file_name, solution, wrong_day00

# Graded in child processes: slower than pytest's default limit on a busy machine.
pytestmark = pytest.mark.timeout(300)


def test_the_template_is_a_workflow_with_a_step_per_day_part(course, plan, tmp_path):
    workflow_file, config = write_template(course, plan, tmp_path)
    assert config.read_text() == plan.text
    workflow = yaml.safe_load(workflow_file.read_text())
    assert workflow["on"] == ["push", "repository_dispatch"]
    assert workflow["permissions"]["checks"] == "write"
    (job,) = workflow["jobs"].values()
    graded = [s for s in job["steps"] if s.get("uses") == GRADER]
    assert [(s["id"], s["with"]["max-score"]) for s in graded] == [
        ("day00-part1", 5),
        ("day00-part2", 5),
        ("day05-part1", 14),
        ("day05-part2", 6),
        ("day13-part1", 5),
        ("day13-part2", 5),
    ]
    for step in graded:
        day, part = step["id"].split("-part")
        assert step["with"]["command"] == f"miniagent classroom check {day} --part {part}"
        assert step["with"]["test-name"] == step["name"]
    reporter = job["steps"][-1]
    assert reporter["uses"] == REPORTER
    assert reporter["with"]["runners"].split(",") == [s["id"] for s in graded]
    for step in graded:
        key = f"{step['id'].upper()}_RESULTS"
        assert reporter["env"][key] == "${{steps." + step["id"] + ".outputs.result}}"


def test_the_grading_command_passes_a_right_answer_and_fails_a_wrong_one(course, plan, tmp_path):
    workflow_file, _ = write_template(course, plan, tmp_path / "template")
    workflow = yaml.safe_load(workflow_file.read_text())
    (job,) = workflow["jobs"].values()
    command = next(s["with"]["command"] for s in job["steps"] if s.get("id") == "day00-part1")
    repository = copy_workspace(course, tmp_path / "repository")
    (repository / "classroom.toml").write_text(plan.text)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    exercise = repository / "exercises" / file_name(course, "day00")

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            shlex.split(command), cwd=repository, env=env, capture_output=True, text=True
        )

    exercise.write_bytes(solution(course, "day00"))
    right = run()
    assert right.returncode == 0, right.stdout + right.stderr
    assert "checks pass" in right.stdout and not right.stderr
    exercise.write_bytes(wrong_day00(course))
    wrong = run()
    assert wrong.returncode == 1, wrong.stdout + wrong.stderr
    assert "✗" in wrong.stdout
