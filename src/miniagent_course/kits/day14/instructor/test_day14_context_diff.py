"""Day 14's recorded results are upstream's, and what a model sees agrees.

``kits/day14/instructor/recorded.json`` holds langchain-openai's ``_convert_message_to_dict`` of
every case of ``day14.CASES`` (``"converted"``) and what ``SummarizationMiddleware.
_find_safe_cutoff_point`` returns for every cut of ``day14.CUTS`` (``"cutoff"``, part 2's truth);
the graders compare the learner's work with it without importing upstream. Here it is recorded
again from the pinned packages (a stale file fails: re-record with
``python -m miniagent_course.grading.recording day14``), miniagent's converter is checked against
it, the reference table of part 2 (``instructor/answers.py``) against upstream's results, and
every setup of the notebook is run on both sides: the messages upstream's ``create_agent`` gives
its model, converted by langchain-openai, equal the tracer's payload on miniagent.
"""

import pytest

pytest.importorskip("langchain_openai")

from miniagent.openai.chat_models.base import _convert_message_to_dict  # noqa: E402
from miniagent_course.kits.day14 import cases as day14  # noqa: E402
from miniagent_course.kits.day14.instructor.answers import predictions  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402

RECORDED = day14.recorded()


def test_the_recording_is_upstreams_own_result():
    assert day14.record() == RECORDED, (
        "a case changed: python -m miniagent_course.grading.recording day14"
    )


@pytest.mark.parametrize("key", list(day14.CASES))
def test_miniagent_converts_each_case_as_upstream(key):
    got = day14.as_data(_convert_message_to_dict(day14.message(mini(), key)))
    assert got == RECORDED["converted"][key]


def test_the_reference_table_is_what_upstream_returns():
    assert predictions() == day14.cutoffs(upstream()) == RECORDED["cutoff"]


def test_every_cut_is_a_history_of_the_notation_and_an_index_in_or_at_its_end():
    for key, (history, cut) in day14.CUTS.items():
        messages = day14.cut_history(upstream(), key)
        assert len(messages) == len(history.split()) and 0 <= cut <= len(messages), key


@pytest.mark.parametrize("key", list(day14.SETUPS))
def test_the_model_sees_the_same_messages_on_both_sides(key):
    assert day14.seen(mini(), key) == day14.seen(upstream(), key)
