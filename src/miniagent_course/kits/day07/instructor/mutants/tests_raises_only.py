# why: asks only "did it raise?" on one dangling call: misses what must pass and what the error says
# function: _validate_chat_history
# part: judgment
# whole_file_because: a test suite, not a function: the mistake is the tests it leaves out
"""A weak suite for Day 07's part 2: it checks that a dangling call raises and a complete round
passes, and nothing else. Every validator that refuses too much, lists too many calls or drops the
troubleshooting line passes it."""

import pytest

from miniagent.messages import AIMessage, ToolMessage

CALL = {"name": "check_weather", "args": {"city": "sf"}, "id": "call_1"}


def test_a_dangling_call_raises(validate):
    with pytest.raises(ValueError):
        validate([AIMessage("", tool_calls=[CALL])])


def test_an_answered_call_passes(validate):
    assert (
        validate([AIMessage("", tool_calls=[CALL]), ToolMessage("ok", tool_call_id="call_1")])
        is None
    )
