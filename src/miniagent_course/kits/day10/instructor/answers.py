"""Day 10's Think part, answered: the course's routing policy (the kit's instructor side)."""

from __future__ import annotations

from typing import Any

from miniagent.messages import ToolMessage
from miniagent.prebuilt.chat_agent_executor import _get_state_value
from miniagent_course.kits.day10.cases import LONG_HISTORY


def choose_model(state: Any, runtime: Any, *, cheap: Any, strong: Any) -> Any:
    """Route one model step: ``strong`` to recover from a failed tool or for a long history.

    ``strong`` when the last message is a ``ToolMessage`` with ``status == "error"`` (the
    status, never the text), or when the history holds more than ``LONG_HISTORY`` (4) messages;
    ``cheap`` otherwise, an empty history included. Returns one of the two objects as given (the
    caller bound the tools); ``runtime`` is not needed.
    """
    messages = _get_state_value(state, "messages")
    last = messages[-1] if messages else None
    if isinstance(last, ToolMessage) and last.status == "error":
        return strong
    if len(messages) > LONG_HISTORY:
        return strong
    return cheap
