"""``miniagent hint`` and ``check`` on the real Day 15 kit, in a copy of the course.

* the next hint follows the failing check: one function wrong gets that function's hint first;
* the capstone's functions written decorated, as the page's tabs show them
  (``@dynamic_prompt def order_prompt``), are graded as written.
"""

from __future__ import annotations

import pytest

from miniagent_course import cli
from miniagent_course.grading.course import Course

from .conftest import pristine_source, solved_source, stub_copy

DAY = "day15"
# The reference's guard (kits/day15/cases.py) with one slip: it refuses even a confirmed call.
GUARD = 'if call["name"] == "escalate" and not request.state.get("confirmed"):'
GUARD_SLIP = 'if call["name"] == "escalate":'


@pytest.fixture
def copy(tmp_path, course) -> Course:
    """A copy of the course whose exercise files are the pristine stubs."""
    return stub_copy(tmp_path, course)


def _solved(course: Course) -> str:
    exercise = course.exercise(DAY)
    return solved_source(exercise, pristine_source(course, exercise))


def _write(course: Course, source: str) -> None:
    (course.root / course.exercise(DAY).file).write_text(source, encoding="utf-8")


def _run(course: Course, *args: str, capsys) -> tuple[int, str]:
    code = cli.main(["--root", str(course.root), *args])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_one_wrong_function_gets_its_own_hint_first(copy, capsys):
    solved = _solved(copy)
    assert solved.count(GUARD) == 1
    _write(copy, solved.replace(GUARD, GUARD_SLIP))  # the prompt and the agent are right
    code, out = _run(copy, "hint", DAY, capsys=capsys)
    hints = copy.exercise(DAY).hints
    assert f"Hint 3 of 7, for test_guard_escalation, which does not pass yet: {hints[2]}" in out
    assert "Hint 1 of 7" not in out and hints[0] not in out


def test_a_day_wrong_everywhere_gets_the_tables_hint_first(copy, capsys):
    stub = pristine_source(copy, copy.exercise(DAY))
    wrong = stub.replace('    raise NotStarted("day15")', "    return None")
    assert wrong.count("return None") == 4  # every function written, every one wrong
    _write(copy, wrong)
    code, out = _run(copy, "hint", DAY, capsys=capsys)
    hints = copy.exercise(DAY).hints
    # part 1 is held until the table is answered: the table's hint comes first, not hint 1
    table = "test_predictions_are_a_table_of_the_six_conversations"
    assert f"Hint 6 of 7, for {table}, which does not pass yet: {hints[5]}" in out
    assert "Hint 1 of 7" not in out and hints[0] not in out


def test_functions_decorated_as_the_page_shows_are_graded_as_written(copy, capsys):
    solved = _solved(copy)
    decorated = (
        solved.replace("\ndef order_prompt(", "\n@dynamic_prompt\ndef order_prompt(", 1)
        .replace("\ndef guard_escalation(", "\n@wrap_tool_call\ndef guard_escalation(", 1)
        .replace("dynamic_prompt(order_prompt),", "order_prompt,", 1)  # already middleware
        .replace("wrap_tool_call(guard_escalation),", "guard_escalation,", 1)
    )
    assert decorated.count("@dynamic_prompt\n") == decorated.count("@wrap_tool_call\n") == 1
    assert "order_prompt," in decorated and "guard_escalation," in decorated
    _write(copy, decorated)
    code, out = _run(copy, "check", DAY, capsys=capsys)
    assert "NotStarted" not in out
    assert code == 0 and f"✓ {DAY}" in out, out


def test_the_solution_of_a_passed_day_names_no_instructor_file(copy, capsys):
    _write(copy, _solved(copy))
    code, out = _run(copy, "solution", DAY, capsys=capsys)
    assert code == 0, out
    assert "the course's answer: predictions" in out  # the Think answer, shown once passed
    assert "instructor" not in out and "answers.py" not in out
