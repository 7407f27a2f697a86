"""Day 14, solved key by key (a correct solution unlike the reference): a table maps each
message class to its role, and the dict grows in upstream's key order; predictions written out
as keywords, in another order.
"""

from __future__ import annotations

from miniagent.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from miniagent.openai.chat_models.base import (
    _format_message_content,
    _lc_invalid_tool_call_to_openai_tool_call,
    _lc_tool_call_to_openai_tool_call,
    _sanitize_chat_completions_content,
)

ROLES = {HumanMessage: "user", AIMessage: "assistant", ToolMessage: "tool"}


def _role(message: BaseMessage) -> str:
    if isinstance(message, SystemMessage):
        return message.additional_kwargs.get("__openai_role__", "system")
    for cls, role in ROLES.items():
        if isinstance(message, cls):
            return role
    raise TypeError("Got unknown type " + str(message))


def _convert_message_to_dict(message: BaseMessage) -> dict:
    role = _role(message)
    out: dict = {"content": _format_message_content(message.content, role=message.type)}
    name = message.name or message.additional_kwargs.get("name")
    if name is not None:
        out["name"] = name
    out["role"] = role
    if role == "tool":
        out["content"] = _sanitize_chat_completions_content(out["content"])
        return {"content": out["content"], "role": "tool", "tool_call_id": message.tool_call_id}
    if role != "assistant":
        return out
    kwargs = message.additional_kwargs
    valid = list(map(_lc_tool_call_to_openai_tool_call, message.tool_calls))
    invalid = list(map(_lc_invalid_tool_call_to_openai_tool_call, message.invalid_tool_calls))
    if valid or invalid:
        out["tool_calls"] = valid + invalid
    elif "tool_calls" in kwargs:
        out["tool_calls"] = [
            {key: value for key, value in call.items() if key in ("id", "type", "function")}
            for call in kwargs["tool_calls"]
        ]
    elif "function_call" in kwargs:
        out["function_call"] = kwargs["function_call"]
    if "tool_calls" in out or "function_call" in out:
        out["content"] = out["content"] if out["content"] else None
    return out


def predictions() -> dict:
    return dict(
        mixed_run=3,  # the first call going back that shares an id, though T(z) stays an orphan
        orphan_after_a_pair=4,  # only T(z) and after: no call matches, so past the results
        orphan_first=1,
        orphans=3,
        past_another_call=3,
        past_a_plain_reply=1,
        at_the_second_result=3,
        at_a_result=1,
        at_the_call=3,  # not a ToolMessage: the cut stays
        at_the_end=5,
        at_a_question=4,
    )
