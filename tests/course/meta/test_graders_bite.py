"""Proof that the graders are right: the reference passes, stubs are "not started", mutants die.

Each check grades a pristine copy of the course (``workspace``) in a pytest subprocess, the same
way ``miniagent check`` does.
"""

from __future__ import annotations

import re

import pytest

from miniagent_course.grading.course import load_course
from miniagent_course.grading.run import run_graders

from .conftest import KILLS, REPO

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


DAYS = [e.id for e in load_course(REPO).exercises if e.mutants]


@pytest.mark.parametrize("day", DAYS)
def test_every_mutant_fails_at_least_one_grader(workspace, day, record_property):
    """One day's mutants in one subprocess, so the days' proofs run in parallel."""
    exercise = workspace.exercise(day)
    run = run_graders(workspace, [exercise], "mutants", "--first-kill")
    lines, survivors = [], []
    for mutant in exercise.mutants:
        tests = run.day_tests(exercise, f"mutant-{mutant.key}")
        assert tests, f"mutant {mutant.key} was not graded:\n{run.output[-3000:]}"
        # A mutant that cannot be loaded or set up errors in every test: that proves
        # nothing about the graders, so only a failed assertion counts as a kill.
        errors = [t for t in tests if t["status"] == "error"]
        assert errors == [], (
            f"mutant {mutant.key} did not load or set up: {errors[0]['message']}\n"
            f"{errors[0]['details'][-3000:]}"
        )
        killers = [t for t in tests if t["status"] == "failed"]
        if not killers:
            survivors.append(mutant.key)
        killer = killers[0]["nodeid"].split("::")[-1].split("[")[0] if killers else "nothing"
        lines.append(f"  {mutant.key:<44} killed by {killer} ({mutant.why})")
    killed = len(exercise.mutants) - len(survivors)
    record_property(KILLS, [_rate(day, killed, len(exercise.mutants)), *lines])
    assert survivors == [], f"mutants no grader rejects: {survivors}"


def _rate(what: str, killed: int, total: int) -> str:
    """``day05  10/10 (100%)``."""
    return f"  {what:<6} {killed:>2}/{total:<2} ({100 * killed / max(total, 1):.0f}%)"


def test_correct_solutions_written_differently_pass_every_grader(workspace):
    """Graders must not overfit: two or more solutions per day, unlike the reference, all pass."""
    run = run_graders(workspace, workspace.exercises, "solutions")
    for exercise in workspace.exercises:
        labels = {t["impl"] for t in run.tests if t["exercise"] == exercise.id}
        assert len(labels) >= 2, f"{exercise.id}: write two solutions in {exercise.solutions}/"
    failing = [
        f"{t['impl']}: {t['nodeid']}: {t['message']}" for t in run.tests if t["status"] != "passed"
    ]
    assert failing == [], "\n".join(failing)
