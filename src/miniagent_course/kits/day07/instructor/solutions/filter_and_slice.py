"""Day 07, solved with filter() and itertools: a generator of unanswered calls, cut with islice."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain, islice

from miniagent.errors import ErrorCode, create_error_message
from miniagent.messages import AIMessage, BaseMessage, ToolMessage


def _unanswered(messages: Sequence[BaseMessage]) -> Iterator[dict]:
    answered = frozenset(m.tool_call_id for m in messages if isinstance(m, ToolMessage))
    ai_messages = (m for m in messages if isinstance(m, AIMessage))
    calls = chain.from_iterable(m.tool_calls for m in ai_messages)
    return filter(lambda call: call["id"] not in answered, calls)


def _validate_chat_history(messages: Sequence[BaseMessage]) -> None:
    first_few = list(islice(_unanswered(messages), 3))
    if not first_few:
        return None
    head = (
        "Found AIMessages with tool_calls that do not have a corresponding ToolMessage. "
        f"Here are the first few of those tool calls: {first_few!r}."
    )
    why = (
        "Every tool call (LLM requesting to call a tool) in the message history MUST have a "
        "corresponding ToolMessage (result of a tool invocation to return to the LLM) - this is "
        "required by most LLM providers."
    )
    message = create_error_message(
        message="\n\n".join([head, why]), error_code=ErrorCode.INVALID_CHAT_HISTORY
    )
    raise ValueError(message)


# Part 2, as one table: each row is a history and whether a correct validator refuses it.
CALL = {"name": "f", "args": {}, "id": "c1"}


def _cases():
    from miniagent.messages import AIMessageChunk, HumanMessage

    bad = {"name": "f", "args": "{", "id": "c9", "error": None}
    return [
        ([AIMessage("", tool_calls=[CALL]), ToolMessage("r", tool_call_id="c1")], False),
        ([AIMessage("", tool_calls=[CALL])], True),
        ([AIMessage("", tool_calls=[CALL]), ToolMessage("r", tool_call_id="c2")], True),
        ([AIMessage("", tool_calls=[CALL]), HumanMessage("q"), AIMessage("done")], True),
        ([ToolMessage("r", tool_call_id="c1"), AIMessage("", tool_calls=[CALL])], False),
        ([AIMessage("", invalid_tool_calls=[bad])], False),
        ([HumanMessage("q"), ToolMessage("r", tool_call_id="zz")], False),
        ([AIMessageChunk("", tool_calls=[CALL])], True),
    ]


def test_the_table(validate):
    for history, refused in _cases():
        try:
            validate(history)
            got = False
        except ValueError:
            got = True
        assert got == refused, [m.type for m in history]


def test_the_error_text(validate):
    calls = [{**CALL, "id": f"c{n}"} for n in range(1, 5)]
    try:
        validate([AIMessage("", tool_calls=calls)])
    except ValueError as error:
        text = str(error)
    assert text.count("'type': 'tool_call'") == 3
    assert text.splitlines()[-1].endswith("/errors/INVALID_CHAT_HISTORY")
