"""Mutant: checks only the tool calls of the last AIMessage, so an earlier orphan goes unseen."""

from miniagent.errors import ErrorCode, create_error_message
from miniagent.messages import AIMessage, ToolMessage


def _validate_chat_history(messages):
    last_ai = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    orphans = [c for c in (last_ai.tool_calls if last_ai else []) if c["id"] not in answered]
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
