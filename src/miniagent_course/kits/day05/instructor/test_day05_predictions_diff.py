"""Day 05's prediction table is upstream's truth: each prompt of the table, run on both libraries.

The graders compare a learner's predictions with miniagent's real agent
(``miniagent_course.kits.day05.cases``); this proves that agent sends the model what
upstream's sends, for every prompt of the table, errors included.
"""

import pytest

pytest.importorskip("langgraph")

from miniagent_course.kits.day05.cases import prompts, what_the_model_sees  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402

MINI, UPSTREAM = mini(), upstream()


@pytest.mark.filterwarnings("ignore:create_react_agent has been moved:DeprecationWarning")
@pytest.mark.parametrize("case", list(prompts(MINI)))
def test_the_model_sees_what_upstream_sends(case):
    expected = what_the_model_sees(UPSTREAM, prompts(UPSTREAM)[case])
    assert what_the_model_sees(MINI, prompts(MINI)[case]) == expected
