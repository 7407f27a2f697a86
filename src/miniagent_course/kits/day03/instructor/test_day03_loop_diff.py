"""Day 03's scripts are upstream's truth: the loop's recording, the default agent's endings, and
the lesson's loop graph.

The graders compare a learner's loop with miniagent's ``create_react_agent(model, ToolNode(tools,
handle_tool_errors=True))`` and their predictions with miniagent's default agent; ``miniagent
mine`` compares the loop with the kit's recording (``instructor/recorded.json``). This proves all
three are upstream's results, and that the lesson draws the same loop graph on both libraries.
"""

import json

import pytest

pytest.importorskip("langgraph")

from miniagent_course.kits.day03 import cases as day03  # noqa: E402
from miniagent_course.kits.day03.cases import LOOP_SCRIPTS, PREDICTED, agent_run  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402
from miniagent_course.site.fences import mermaid_of  # noqa: E402


def test_the_loop_recording_is_upstreams_own_result():
    assert day03.record() == day03.recorded(), (
        "a script changed: python -m miniagent_course.grading.recording day03"
    )


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("name", LOOP_SCRIPTS)
def test_errors_fed_back_the_agent_ends_as_upstreams(name):
    mine = agent_run(mini(), name, handle_tool_errors=True)
    assert json.loads(json.dumps(mine)) == day03.recorded()[name]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("name", PREDICTED)
def test_the_default_agent_ends_as_upstreams(name):
    assert agent_run(mini(), name) == agent_run(upstream(), name)


def test_the_lessons_loop_graph_draws_the_same_on_both_libraries():
    ours = mermaid_of("miniagent_course.kits.day03.cases:loop_diagram")
    theirs = mermaid_of("miniagent_course.kits.day03.cases:upstream_loop_diagram")
    assert ours == theirs
    edges = {line.strip().rstrip(";") for line in ours.splitlines() if "->" in line}
    assert edges == {
        "__start__ --> agent",
        "agent -.-> __end__",
        "agent -.-> tools",
        "tools --> agent",
    }
