"""Mutant: tells messages apart by their ``type`` field (``m.type == "ai"``, ``m.type ==
"tool"``) instead of ``isinstance``, so an ``AIMessageChunk`` (``type == "AIMessageChunk"``) is
skipped and its calls are never checked. Written as the reference check run on only the
messages such a test would see, which behaves exactly like that wrong answer."""

from miniagent.prebuilt.chat_agent_executor import _validate_chat_history as _reference


def _validate_chat_history(messages):
    return _reference([m for m in messages if m.type in ("ai", "tool")])
