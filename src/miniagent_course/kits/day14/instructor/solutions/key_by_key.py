"""Day 14, solved key by key (a correct solution unlike the reference): a table maps each
message class to its role, and the dict grows in upstream's key order; predictions written out
literally.
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
    return {
        "plain": [
            ("user", "Move it to tomorrow"),
        ],
        "system_prompt": [
            ("system", "You handle work orders."),
            ("user", "Move it to tomorrow"),
        ],
        "dynamic_prompt": [
            ("system", "You handle work orders.\nCurrent order: WO-7: fix the pump, due Friday"),
            ("user", "Move it to tomorrow"),
        ],
        "tool_round": [
            ("system", "You handle work orders."),
            ("user", "Open WO-7"),
            ("assistant", None),
            ("tool", "WO-7: fix the pump, due Friday"),
            ("assistant", "Checking."),
            ("tool", "open"),
            ("user", "Move it to tomorrow"),
        ],
        "trimmed": [
            ("system", "You handle work orders."),
            ("user", "Open WO-7"),
            ("assistant", None),
            ("tool", "[cleared]"),
            ("assistant", "Checking."),
            ("tool", "open"),
            ("user", "Move it to tomorrow"),
        ],
        "prompt_outside_trim": [
            ("system", "First tool result: WO-7: fix the pump, due Friday"),
            ("user", "Open WO-7"),
            ("assistant", None),
            ("tool", "[cleared]"),
            ("assistant", "Checking."),
            ("tool", "open"),
            ("user", "Move it to tomorrow"),
        ],
        "prompt_inside_trim": [
            ("system", "First tool result: [cleared]"),
            ("user", "Open WO-7"),
            ("assistant", None),
            ("tool", "[cleared]"),
            ("assistant", "Checking."),
            ("tool", "open"),
            ("user", "Move it to tomorrow"),
        ],
    }
