"""Day 03, solved without ``add_messages``: convert the input once, give ids by hand, append.

The loop counts the calls it has left; ``match`` picks the answer of each tool call. Part 2 is
built from the pieces a reader keeps apart: what is fed back, and what raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any
from uuid import uuid4

from miniagent.messages import AIMessage, BaseMessage, ToolMessage, convert_to_messages
from miniagent.prebuilt.tool_node import INVALID_TOOL_NAME_ERROR_TEMPLATE, TOOL_CALL_ERROR_TEMPLATE


def _with_id(message: BaseMessage) -> BaseMessage:
    """What the state's reducer does to a message without an id."""
    if message.id is None:
        message.id = str(uuid4())
    return message


def _failed(call: dict[str, Any], text: str) -> ToolMessage:
    return ToolMessage(text, name=call["name"], tool_call_id=call["id"], status="error")


def _run_one(registry: dict[str, Any], call: dict[str, Any]) -> BaseMessage:
    match registry.get(call["name"]):
        case None:
            names = ", ".join(registry)
            return _failed(
                call,
                INVALID_TOOL_NAME_ERROR_TEMPLATE.format(
                    requested_tool=call["name"], available_tools=names
                ),
            )
        case tool:
            try:
                return tool.invoke({**call, "type": "tool_call"})
            except Exception as error:
                return _failed(call, TOOL_CALL_ERROR_TEMPLATE.format(error=repr(error)))


def run_loop(
    model: Any, tools: Sequence[Any], messages: Sequence[Any], max_steps: int
) -> list[BaseMessage]:
    registry = {tool.name: tool for tool in tools}
    bound = model.bind_tools(list(tools))
    history = [_with_id(m) for m in convert_to_messages(list(messages))]
    for left in range(max_steps - 1, -1, -1):  # model calls left after this one
        reply = bound.invoke(history)
        if left == 0 and reply.tool_calls:
            reply = AIMessage(
                id=reply.id, content="Sorry, need more steps to process this request."
            )
        history.append(_with_id(reply))
        if not reply.tool_calls:
            break
        history.extend(map(_with_id, map(partial(_run_one, registry), reply.tool_calls)))
    return history


def predictions() -> dict[str, str]:
    fed_back = "human ai tool-error ai"  # ToolNode answers it with an error ToolMessage
    table = {
        name: "human ai tool ai" for name in ("one_call", "answer_at_the_cap")
    }  # one round, then the answer
    table |= {
        "parallel_calls": "human ai tool tool ai",
        "two_rounds": "human ai tool ai tool ai",
        "endless_calls": " ".join(["human"] + ["ai", "tool"] * 2 + ["ai"]),  # the last ai: Sorry
        "unknown_tool": fed_back,
        "bad_arguments": fed_back,
    }
    table |= {name: "raises ValueError" for name in ("tool_raises", "raises_beside_a_good_call")}
    table["tool_exception"] = "raises ToolException"
    return table
