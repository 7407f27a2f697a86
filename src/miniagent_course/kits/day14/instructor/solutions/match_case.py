"""Day 14, solved with a match statement on the message class (a correct solution unlike the
reference): the role and its extras are decided first, the dict is assembled once at the end.
The table is computed: the reading of ``_find_safe_cutoff_point`` written out on the notation of
the day's cuts.
"""

from __future__ import annotations

from typing import Any

from miniagent.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from miniagent.openai.chat_models.base import (
    _format_message_content,
    _lc_invalid_tool_call_to_openai_tool_call,
    _lc_tool_call_to_openai_tool_call,
    _sanitize_chat_completions_content,
)
from miniagent_course.kits.day14.cases import CUTS

RAW_CALL_KEYS = ("id", "type", "function")


def _assistant_extras(message: AIMessage) -> dict[str, Any]:
    """``tool_calls`` or ``function_call``, whichever the message carries first."""
    if message.tool_calls or message.invalid_tool_calls:
        calls = [_lc_tool_call_to_openai_tool_call(c) for c in message.tool_calls]
        calls += [_lc_invalid_tool_call_to_openai_tool_call(c) for c in message.invalid_tool_calls]
        return {"tool_calls": calls}
    if "tool_calls" in message.additional_kwargs:
        raw = message.additional_kwargs["tool_calls"]
        return {"tool_calls": [{k: c[k] for k in c if k in RAW_CALL_KEYS} for c in raw]}
    if "function_call" in message.additional_kwargs:
        return {"function_call": message.additional_kwargs["function_call"]}
    return {}


def _convert_message_to_dict(message: BaseMessage) -> dict:
    content = _format_message_content(message.content, role=message.type)
    name = message.name if message.name else message.additional_kwargs.get("name")
    extras: dict[str, Any] = {}
    match message:
        case HumanMessage():
            role = "user"
        case AIMessage():
            role = "assistant"
            extras = _assistant_extras(message)
            if extras:
                content = content or None
        case SystemMessage():
            role = message.additional_kwargs.get("__openai_role__", "system")
        case ToolMessage():
            content = _sanitize_chat_completions_content(content)
            return {"content": content, "role": "tool", "tool_call_id": message.tool_call_id}
        case _:
            raise TypeError(f"Got unknown type {message}")
    named = {} if name is None else {"name": name}
    return {"content": content, **named, "role": role, **extras}


def _kept_from(tokens: list[str], cut: int) -> int:
    """Where the kept part starts, as read in ``_find_safe_cutoff_point``, on the notation."""
    run: set[str] = set()
    end = cut
    while end < len(tokens) and tokens[end].startswith("T("):
        run.add(tokens[end][2:-1])
        end += 1
    if not run:
        return cut
    for index in range(cut - 1, -1, -1):
        match tokens[index]:
            case str(token) if token.startswith("A[") and run & set(token[2:-1].split(",")):
                return index
            case _:
                continue
    return end


def predictions() -> dict[str, int]:
    return {key: _kept_from(history.split(), cut) for key, (history, cut) in CUTS.items()}
