"""Day 03, solved with a ``while`` loop that counts model calls, and one helper per tool call.

Part 2 is written out as the table a careful reader of ``_default_handle_tool_errors`` predicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from miniagent.graph.message import add_messages
from miniagent.messages import AIMessage, BaseMessage, ToolMessage
from miniagent.prebuilt.tool_node import INVALID_TOOL_NAME_ERROR_TEMPLATE, TOOL_CALL_ERROR_TEMPLATE

SORRY = "Sorry, need more steps to process this request."


def _answer(by_name: dict[str, Any], call: dict[str, Any]) -> ToolMessage:
    """The ToolMessage that answers one call: the tool's own, or an error."""
    if call["name"] not in by_name:
        text = INVALID_TOOL_NAME_ERROR_TEMPLATE.format(
            requested_tool=call["name"], available_tools=", ".join(by_name)
        )
        return ToolMessage(text, name=call["name"], tool_call_id=call["id"], status="error")
    try:
        return by_name[call["name"]].invoke({**call, "type": "tool_call"})
    except Exception as e:
        text = TOOL_CALL_ERROR_TEMPLATE.format(error=repr(e))
        return ToolMessage(text, name=call["name"], tool_call_id=call["id"], status="error")


def run_loop(
    model: Any, tools: Sequence[Any], messages: Sequence[Any], max_steps: int
) -> list[BaseMessage]:
    by_name = {t.name: t for t in tools}
    llm = model.bind_tools(tools)
    history = add_messages([], [*messages])
    calls = 0
    while True:
        calls += 1
        reply = llm.invoke(history)
        if reply.tool_calls and calls >= max_steps:
            reply = AIMessage(content=SORRY, id=reply.id)
        history = add_messages(history, reply)  # add_messages takes a single message too
        if not reply.tool_calls:
            return history
        history = add_messages(history, [_answer(by_name, c) for c in reply.tool_calls])


def predictions() -> dict[str, str]:
    return {
        "one_call": "human ai tool ai",
        "parallel_calls": "human ai tool tool ai",
        "two_rounds": "human ai tool ai tool ai",
        "tool_raises": "raises ValueError",
        "raises_beside_a_good_call": "raises ValueError",
        "tool_exception": "raises ToolException",
        "unknown_tool": "human ai tool-error ai",
        "endless_calls": "human ai tool ai tool ai",
        "answer_at_the_cap": "human ai tool ai",
        "bad_arguments": "human ai tool-error ai",
    }
