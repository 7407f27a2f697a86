"""Day 02's recorded data is upstream's truth, and miniagent gives the same on every case.

``kits/day02/instructor/recorded.json`` holds langchain-core's ``_parse_google_docstring`` on the docstring
corpus and ``convert_to_openai_tool`` on the function corpus; the graders compare learners' code
with it without importing upstream. Here it is recorded again from the pinned packages (a stale
file fails: re-record with ``python -m miniagent_course.grading.recording day02``), and miniagent's
reference is checked against it, case by case, as are part 2's predictions.
"""

import json

import pytest

pytest.importorskip("langchain_core")

from miniagent.tools.schema import _parse_google_docstring  # noqa: E402
from miniagent_course.kits.day02 import cases as day02  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402

RECORDED = day02.recorded()


def test_the_recording_is_upstreams_own_result():
    assert day02.record() == RECORDED, (
        "a corpus changed: python -m miniagent_course.grading.recording day02"
    )


@pytest.mark.parametrize("case", list(day02.docstrings()))
def test_miniagent_parses_each_docstring_as_upstream(case):
    got = json.loads(json.dumps(day02.parsed(_parse_google_docstring, case)))
    assert got == RECORDED["docstrings"][case]


@pytest.mark.parametrize("case", day02.CASES)
def test_miniagent_converts_each_function_as_upstream(case):
    assert day02.what_the_model_sees(mini(), case) == RECORDED["schemas"][case]


@pytest.mark.parametrize("case", day02.PREDICTED)
def test_the_predicted_cases_read_the_same_on_both_libraries(case):
    assert day02.seen(mini(), case) == day02.seen(upstream(), case)
