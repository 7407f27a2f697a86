"""Day 11's prediction table is upstream's truth: each pair of error policy and failing call,
run through both ``ToolNode``s.

The graders compare a learner's predictions with miniagent's ``ToolNode``
(``miniagent_course.kits.day11.cases.observe``); this proves upstream's ``ToolNode`` writes
the same kind of message, or raises, in every case of the table, and writes the same text.
"""

import pytest

pytest.importorskip("langgraph")

from miniagent_course.kits.day11.cases import CASES, observe, run_case  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402


def written(result):
    if isinstance(result, Exception):
        return type(result).__name__, str(result)
    return result.content, result.status, result.name, result.tool_call_id


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("key", list(CASES))
def test_the_tool_node_writes_what_upstreams_writes(key):
    assert observe(mini(), key) == observe(upstream(), key)
    assert written(run_case(mini(), key)) == written(run_case(upstream(), key))
