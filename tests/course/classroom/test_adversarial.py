"""A submission cannot grade itself: the three attacks the trust model names, a forged line of
the grading report, ``pytest.exit`` and a plugin of its own, each in day00 beside an honest day13.

Each is flagged, gets nothing for day00 (whose function is wrong: every mark would be unearned),
and day13 still gets every point: the days after a tampering one are graded again without it.
"""

from __future__ import annotations

import pytest

from miniagent_course.classroom.config import parse_config
from miniagent_course.classroom.grade import grade_submission

from .conftest import file_name, solution, write_upload
from .submissions import ADVERSARIAL

# Graded in child processes: slower than pytest's default limit on a busy machine.
pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def two_days(course):
    return parse_config('days = ["day00", "day13"]\n', course)


@pytest.mark.parametrize(
    "attack, why",
    [
        ("forged_results", "wrote the results file"),
        ("patched_reporter", "GradingSession.pytest_runtest_logreport"),
        ("early_exit", "ended before every check had run (exit code 0)"),
        ("forged_report", "did not write"),
        ("pytest_exit", "ended before every check had run (exit code 0)"),
        ("own_hook", "the hooks of pytest_runtest_logreport"),
    ],
)
def test_an_attack_is_flagged_and_earns_nothing(
    attack, why, course, two_days, tmp_path, monkeypatch
):
    monkeypatch.setenv("AUTOGRADER_ROOT", str(tmp_path / "autograder"))
    results = tmp_path / "autograder" / "results" / "results.json"
    files = {
        file_name(course, "day00"): ADVERSARIAL[attack].encode(),
        file_name(course, "day13"): solution(course, "day13"),
    }
    upload = write_upload(tmp_path / "upload", files)
    result = grade_submission(course, two_days, upload, guarded=[results])
    assert [day for day, _ in result.flags] == ["day00"]
    assert why in result.flags[0][1]
    scores = {(p.day, p.part): p for p in result.parts()}
    for part in (1, 2):
        assert scores[("day00", part)].score == 0.0 and scores[("day00", part)].flagged
        assert scores[("day00", part)].output.startswith("FLAGGED: day00 gets no marks")
        assert scores[("day13", part)].score == scores[("day13", part)].max_score
    assert result.score == 10.0


def test_the_patched_reporter_would_have_passed_a_wrong_function(course, two_days, tmp_path):
    # What the child sent after the patch, before the watch spoke: every day00 check "passed".
    # Only the flag keeps those marks away.
    files = {file_name(course, "day00"): ADVERSARIAL["patched_reporter"].encode()}
    result = grade_submission(course, two_days, write_upload(tmp_path, files))
    sent = [r["status"] for r in result.raw if r["exercise"] == "day00"]
    assert sent and set(sent) == {"passed"}
    assert result.days["day00"].flagged and result.score == 0.0
