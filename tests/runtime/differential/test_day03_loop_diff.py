"""Day 03's scripts are upstream's truth: the loop's recording, and the default agent's endings.

The graders compare a learner's loop with miniagent's ``create_react_agent(model, ToolNode(tools,
handle_tool_errors=True))`` and their predictions with miniagent's default agent; ``miniagent
mine`` compares the loop with ``loop.json``. This proves all three are upstream's results.
"""

import json

import pytest

pytest.importorskip("langgraph")

from miniagent_course.grading.inner.day03 import LOOP_SCRIPTS, PREDICTED, agent_run  # noqa: E402
from miniagent_course.mine import loop  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402


def test_the_loop_recording_is_upstreams_own_result():
    assert loop.record() == loop.recorded(), "scripts changed: python -m miniagent_course.mine"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("name", LOOP_SCRIPTS)
def test_errors_fed_back_the_agent_ends_as_upstreams(name):
    mine = agent_run(mini(), name, handle_tool_errors=True)
    assert json.loads(json.dumps(mine)) == loop.recorded()[name]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("name", PREDICTED)
def test_the_default_agent_ends_as_upstreams(name):
    assert agent_run(mini(), name) == agent_run(upstream(), name)
