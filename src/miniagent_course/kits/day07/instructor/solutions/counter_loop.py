"""Day 07, solved with one explicit loop per collection and the error built from a template."""

from __future__ import annotations

from collections.abc import Sequence

from miniagent.errors import ErrorCode, create_error_message
from miniagent.messages import AIMessage, BaseMessage, ToolMessage

_TEMPLATE = (
    "Found AIMessages with tool_calls that do not have a corresponding ToolMessage. "
    "Here are the first few of those tool calls: {calls}.\n\n"
    "Every tool call (LLM requesting to call a tool) in the message history MUST have a "
    "corresponding ToolMessage (result of a tool invocation to return to the LLM) - this is "
    "required by most LLM providers."
)


def _validate_chat_history(messages: Sequence[BaseMessage]) -> None:
    answered = set()
    for message in messages:
        if isinstance(message, ToolMessage):
            answered.add(message.tool_call_id)
    unanswered = []
    for message in messages:
        if not isinstance(message, AIMessage):
            continue
        for tool_call in message.tool_calls:
            if tool_call["id"] not in answered:
                unanswered.append(tool_call)
    if unanswered:
        text = _TEMPLATE.format(calls=unanswered[:3])
        raise ValueError(
            create_error_message(message=text, error_code=ErrorCode.INVALID_CHAT_HISTORY)
        )


def test_complete_and_broken(validate):
    import pytest

    from miniagent.messages import HumanMessage

    call = {"name": "f", "args": {}, "id": "a"}
    assert (
        validate(
            [HumanMessage("q"), AIMessage("", tool_calls=[call])]
            + [ToolMessage("r", tool_call_id="a")]
        )
        is None
    )
    with pytest.raises(ValueError, match="INVALID_CHAT_HISTORY$"):
        validate([AIMessage("", tool_calls=[call]), ToolMessage("r", tool_call_id="b")])


def test_what_is_not_checked(validate):
    call = {"name": "f", "args": {}, "id": "a"}
    bad = {"name": "f", "args": "{", "id": "x", "error": None}
    assert validate([ToolMessage("r", tool_call_id="a"), AIMessage("", tool_calls=[call])]) is None
    assert validate([AIMessage("", invalid_tool_calls=[bad])]) is None
    assert validate([ToolMessage("r", tool_call_id="z")]) is None


def test_how_far_it_looks(validate):
    from miniagent.messages import AIMessageChunk

    calls = [{"name": "f", "args": {}, "id": str(n)} for n in range(5)]
    errors = []
    for history in (
        [AIMessage("", tool_calls=calls[:1]), AIMessage("", tool_calls=calls[1:2])]
        + [ToolMessage("r", tool_call_id="1")],
        [AIMessageChunk("", tool_calls=calls[:1])],
        [AIMessage("", tool_calls=calls)],
    ):
        try:
            validate(history)
        except ValueError as error:
            errors.append(str(error))
    assert len(errors) == 3
    assert "'id': '2'" in errors[2] and "'id': '3'" not in errors[2]
