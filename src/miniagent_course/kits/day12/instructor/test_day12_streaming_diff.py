"""Day 12's recorded stream is upstream's truth, and miniagent streams the same in every run.

``kits/day12/instructor/recorded.json`` holds what a client of upstream's ``agent.stream(...)`` sees in each
situation of ``day12.SITUATIONS`` (``messages`` and ``updates`` mode); the graders compare the
learner's handler and predictions with it without importing upstream. Here it is recorded again
from the pinned packages (a stale file fails: re-record with
``python -m miniagent_course.grading.recording day12``), and miniagent's own stream is checked
against it, situation by situation.
"""

import pytest

pytest.importorskip("langgraph")

from miniagent_course.kits.day12 import cases as day12  # noqa: E402
from miniagent_course.sides import mini  # noqa: E402

RECORDED = day12.recorded()


def test_the_recording_is_upstreams_own_result():
    assert day12.record() == RECORDED, (
        "a situation changed: python -m miniagent_course.grading.recording day12"
    )


@pytest.mark.parametrize("key", list(day12.SITUATIONS))
def test_miniagent_streams_each_situation_as_upstream(key):
    assert day12.client_view(mini(), key) == RECORDED[key]
