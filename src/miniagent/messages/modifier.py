"""Deleting messages from a history. Mirrors ``langchain_core/messages/modifier.py``.

``REMOVE_ALL_MESSAGES`` is langgraph's (``langgraph/pregel/_messages.py``); it sits here, next to
the message it goes with, so that ``miniagent.messages`` imports nothing from the graph.
"""

from typing import Any, Literal

from miniagent.messages.base import BaseMessage


class RemoveMessage(BaseMessage):
    """Asks ``add_messages`` to delete the message with this id (langchain_core/messages/modifier.py:8)."""

    type: Literal["remove"] = "remove"

    def __init__(self, id: str, **kwargs: Any) -> None:
        if kwargs.pop("content", None):
            raise ValueError("RemoveMessage does not support 'content' field.")
        super().__init__("", id=id, **kwargs)


REMOVE_ALL_MESSAGES = "__remove_all__"
"""``RemoveMessage(id=REMOVE_ALL_MESSAGES)`` clears the history (langgraph/pregel/_messages.py:436)."""
