"""Day 15's recorded outcomes are upstream's truth, and the capstone runs the same on miniagent.

``kits/day15/instructor/recorded.json`` holds what upstream's ``create_agent``, given the capstone's pieces
(tools, ``@dynamic_prompt``, the ``wrap_tool_call`` guardrail, both call limits and
``ToolStrategy(WorkOrder)``), does in each scripted conversation of ``day15.CONVERSATIONS``; the
graders compare the learner's agent with it without importing upstream. Here it is recorded again
from the pinned packages (a stale file fails: re-record with
``python -m miniagent_course.grading.recording day15``), and miniagent's run is checked against it.
"""

import pytest

pytest.importorskip("langchain.agents")

from miniagent_course.kits.day15 import cases as day15  # noqa: E402
from miniagent_course.sides import mini  # noqa: E402

RECORDED = day15.recorded()


def test_the_recording_is_upstreams_own_result():
    assert day15.record() == RECORDED, (
        "a conversation changed: python -m miniagent_course.grading.recording day15"
    )


@pytest.mark.parametrize("key", list(day15.CONVERSATIONS))
def test_miniagent_runs_each_conversation_as_upstream(key):
    assert day15.run(mini(), key) == RECORDED[key]
