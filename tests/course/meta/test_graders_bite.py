"""Proof that the graders are right: the reference passes, stubs are "not started", mutants die.

Each check grades a pristine copy of the course (``workspace``) in a pytest subprocess, the same
way ``miniagent check`` does.
"""

from __future__ import annotations

import re

import pytest

from miniagent_course.grading.run import run_graders

from .conftest import KILLS

# Each check grades the whole course in a subprocess; that grows with every day added.
pytestmark = pytest.mark.timeout(900)


def test_reference_passes_and_pristine_stubs_are_not_started(workspace):
    run = run_graders(workspace, workspace.exercises, "reference,learner")
    assert run.exitstatus == 0, run.output
    for exercise in workspace.exercises:
        reference = run.day_tests(exercise, "reference")
        learner = run.day_tests(exercise, "learner")
        assert reference, f"{exercise.id} has no graders"
        assert [t["nodeid"] for t in reference if t["status"] != "passed"] == []
        assert len(learner) == len(reference)
        assert [t["nodeid"] for t in learner if t["status"] != "not_started"] == []
        assert run.day_status(exercise) == "not_started"


def test_strict_mode_fails_every_pristine_stub(workspace):
    run = run_graders(workspace, workspace.exercises, "learner", "--strict-exercises")
    assert run.exitstatus == 1
    failed = int(re.search(r"(\d+) failed", run.output).group(1))
    assert failed == len(run.tests) > 0
    assert {t["status"] for t in run.tests} == {"not_started"}
    assert "strict mode counts this as a failure" in run.output


def test_every_mutant_fails_at_least_one_grader(workspace, request):
    run = run_graders(workspace, workspace.exercises, "mutants")
    lines, survivors, total = [], [], 0
    for exercise in workspace.exercises:
        for mutant in exercise.mutants:
            total += 1
            tests = run.day_tests(exercise, f"mutant-{mutant.name}")
            assert tests, f"{mutant.file} was not graded:\n{run.output[-3000:]}"
            # A mutant that cannot be loaded or set up errors in every test: that proves
            # nothing about the graders, so only a failed assertion counts as a kill.
            errors = [t["nodeid"] for t in tests if t["status"] == "error"]
            assert errors == [], f"{mutant.file} did not load or set up:\n{run.output[-3000:]}"
            killers = [t for t in tests if t["status"] == "failed"]
            if not killers:
                survivors.append(mutant.file)
            lines.append(
                f"{mutant.name:<36} killed by {len(killers):>2} of {len(tests)} ({mutant.why})"
            )
    killed = total - len(survivors)
    lines.insert(0, f"mutant kill rate: {killed}/{total} ({100 * killed / max(total, 1):.0f}%)")
    request.config.stash[KILLS] = lines
    print("\n".join(lines))
    assert survivors == [], f"mutants no grader rejects: {survivors}"
