# why: expects an answer before its call to be refused, so it fails on correct code too
# function: _validate_chat_history
# part: judgment
# whole_file_because: a test suite, not a function: the mistake is what it expects
"""A wrong suite for Day 07's part 2: it expects a ToolMessage before its call to be refused,
which a correct validator (presence, not order) does not do. It catches mistakes only because it
fails on correct code too."""

import pytest

from miniagent.messages import AIMessage, AIMessageChunk, ToolMessage

CALL = {"name": "check_weather", "args": {"city": "sf"}, "id": "call_1"}


def test_an_answer_before_its_call_is_refused(validate):
    with pytest.raises(ValueError):
        validate([ToolMessage("ok", tool_call_id="call_1"), AIMessage("", tool_calls=[CALL])])


def test_a_chunk_with_a_dangling_call_raises(validate):
    with pytest.raises(ValueError):
        validate([AIMessageChunk("", tool_calls=[CALL])])
