"""Mutant: an order check -- a call counts as answered only if its ToolMessage comes in the run
of ToolMessages right after its AIMessage (what Anthropic's API demands, not what upstream checks)."""

from miniagent.errors import ErrorCode, create_error_message
from miniagent.messages import AIMessage, ToolMessage


def _validate_chat_history(messages):
    messages = list(messages)
    orphans = []
    for i, message in enumerate(messages):
        if not isinstance(message, AIMessage):
            continue
        answered = set()
        for following in messages[i + 1 :]:
            if not isinstance(following, ToolMessage):
                break
            answered.add(following.tool_call_id)
        orphans += [c for c in message.tool_calls if c["id"] not in answered]
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
