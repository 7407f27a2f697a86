"""What a learner reads when a grader fails, on synthetic graders of the toy course: the values
by side and in full where they differ, the learner's own exception, the whole failing check, and
which function is still a stub. Every day's graders inherit these from the engine."""

from __future__ import annotations

from miniagent_course.grading.run import run_graders

GRADERS = """
def _error(call):
    try:
        call()
    except Exception as error:
        return type(error).__name__, str(error)
    return None


def test_values(impl):
    assert impl.double(3) == 6


def test_long_values_that_differ_at_the_end(impl):
    expected = "RunnableSequence must have at least 2 steps, got 0" + " (the tail)"
    assert impl.double("RunnableSequence must have at least 2 steps, got 0") == expected


def test_the_grader_stumbles_after_the_learner_raised(impl):
    result = None
    try:
        result = impl.double("boom")
    except ValueError:
        pass
    assert result["key"] == 1  # TypeError on None: the grader's own stumble


def test_a_bare_check_over_two_lines(impl):
    kind, text = _error(lambda: impl.double(None))
    assert text.startswith(
        "expected a number"
    )


def test_a_message_of_several_lines(impl):
    impl.double([1, 2])
"""

LEARNER = """
def double(x):
    if x == "boom":
        raise ValueError("my own mistake")
    if x is None:
        raise TypeError("no number at all")
    if isinstance(x, list):
        raise ValueError("first line\\nsecond line\\nthird line")
    if isinstance(x, str):
        return x + " (a tail)"
    return 2 * x - 1
"""


def _messages(toy_course):
    (toy_course.root / "kits/day01/graders/test_day01_double.py").write_text(GRADERS)
    (toy_course.root / toy_course.exercise("day01").file).write_text(LEARNER)
    run = run_graders(toy_course, [toy_course.exercise("day01")])
    tests = run.day_tests(toy_course.exercise("day01"))
    return {t["nodeid"].split("::")[-1].split("[")[0]: t for t in tests}, run.output


def test_learner_messages_name_values_by_side_and_never_the_graders_own_error(toy_course):
    tests, output = _messages(toy_course)
    assert tests["test_values"]["message"] == "came back 5, expected 6"
    assert "came back: 5" in tests["test_values"]["details"]
    assert "expected:  6" in tests["test_values"]["details"]
    assert "assert 5 == 6" not in tests["test_values"]["details"]  # values, not assert text

    long = tests["test_long_values_that_differ_at_the_end"]["message"]
    yours, expected = long.removeprefix("came back ").split(", expected ")
    assert yours != expected and "(a tail)" in yours and "(the tail)" in expected

    stumble = tests["test_the_grader_stumbles_after_the_learner_raised"]
    assert stumble["message"] == "ValueError: my own mistake"  # not the grader's TypeError
    assert "ValueError: my own mistake" in stumble["details"]

    bare = tests["test_a_bare_check_over_two_lines"]["message"]
    assert bare == 'this check failed: assert text.startswith("expected a number")'

    several = tests["test_a_message_of_several_lines"]["message"]
    assert several == "ValueError: first line (+2 more lines)"
    assert "Traceback" not in output


def test_a_half_done_day_names_the_functions_still_stubbed(tmp_path):
    from miniagent_course.grading.course import stubbed_functions

    path = tmp_path / "day09_x.py"
    path.write_text(
        "def done():\n    return 1\n\n\n"
        'def part_two():\n    """Doc."""\n    raise NotStarted("day09")\n\n\n'
        "def other():\n    raise NotStarted('day08')\n"
    )
    assert stubbed_functions(path, "day09") == [("part_two", 7)]
