"""Mutant: also demands a ToolMessage for every entry of ``invalid_tool_calls``."""

from miniagent.errors import ErrorCode, create_error_message
from miniagent.messages import AIMessage, ToolMessage


def _validate_chat_history(messages):
    calls = [
        c
        for m in messages
        if isinstance(m, AIMessage)
        for c in [*m.tool_calls, *m.invalid_tool_calls]
    ]
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    orphans = [c for c in calls if c["id"] not in answered]
    if not orphans:
        return
    raise ValueError(
        create_error_message(
            message="Found AIMessages with tool_calls that do not have a corresponding ToolMessage. "
            f"Here are the first few of those tool calls: {orphans[:3]}.\n\n"
            "Every tool call (LLM requesting to call a tool) in the message history MUST have a corresponding ToolMessage "
            "(result of a tool invocation to return to the LLM) - this is required by most LLM providers.",
            error_code=ErrorCode.INVALID_CHAT_HISTORY,
        )
    )
