"""Day 08's prediction table is upstream's truth: each situation of the agent node, run on both.

The graders compare a learner's predictions with miniagent's real agent
(``miniagent_course.kits.day08.cases.observe``); this proves upstream's agent node ends at the
same gate, with the same message or error, in every situation of the table.
"""

import pytest

pytest.importorskip("langgraph")

from miniagent_course.kits.day08.cases import SITUATIONS, observe  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("key", list(SITUATIONS))
def test_the_agent_node_ends_as_upstreams(key):
    assert observe(mini(), key) == observe(upstream(), key)
