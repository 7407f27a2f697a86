"""Day 14's recorded conversions are langchain-openai's, and what a model sees agrees.

``kits/day14/instructor/recorded.json`` holds langchain-openai's ``_convert_message_to_dict`` of every case
of ``day14.CASES``; the graders compare the learner's converter with it without importing
upstream. Here it is recorded again from the pinned packages (a stale file fails: re-record with
``python -m miniagent_course.grading.recording day14``), miniagent's converter is checked against it,
and every setup of part 2 is run on both sides: the messages upstream's ``create_agent`` gives
its model, converted by langchain-openai, equal the tracer's payload on miniagent.
"""

import pytest

pytest.importorskip("langchain_openai")

from miniagent.openai.chat_models.base import _convert_message_to_dict  # noqa: E402
from miniagent_course.kits.day14 import cases as day14  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402

RECORDED = day14.recorded()


def test_the_recording_is_langchain_openais_own_result():
    assert day14.record() == RECORDED, (
        "a case changed: python -m miniagent_course.grading.recording day14"
    )


@pytest.mark.parametrize("key", list(day14.CASES))
def test_miniagent_converts_each_case_as_upstream(key):
    assert day14.as_data(_convert_message_to_dict(day14.message(mini(), key))) == RECORDED[key]


@pytest.mark.parametrize("key", list(day14.SETUPS))
def test_the_model_sees_the_same_messages_on_both_sides(key):
    assert day14.seen(mini(), key) == day14.seen(upstream(), key)
