"""Mutant: compares counts (as many ToolMessages as tool calls) instead of matching ids, so a
ToolMessage with a wrong ``tool_call_id`` passes."""

from miniagent.errors import ErrorCode, create_error_message
from miniagent.messages import AIMessage, ToolMessage


def _validate_chat_history(messages):
    calls = [c for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    results = [m for m in messages if isinstance(m, ToolMessage)]
    orphans = calls[len(results) :]
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
