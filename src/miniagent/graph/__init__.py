"""The mini state graph. Mirrors ``langgraph.graph``.

``StateGraph`` (state.py) declares nodes and edges over a typed state; ``compile()`` gives a
``CompiledStateGraph`` whose super-step loop is in pregel.py; ``get_graph().draw_mermaid()``
(mermaid.py) draws it. ``add_messages``, ``MessagesState`` and ``REMOVE_ALL_MESSAGES`` come from
message.py, loaded on first use: a graph over plain reducers never imports the message classes.
"""

from typing import Any

from miniagent.constants import END, START
from miniagent.graph.state import CompiledStateGraph, StateGraph

__all__ = [
    "StateGraph",
    "CompiledStateGraph",
    "START",
    "END",
    "add_messages",
    "REMOVE_ALL_MESSAGES",
    "MessagesState",
]

_FROM_MESSAGE = ("add_messages", "REMOVE_ALL_MESSAGES", "MessagesState")


def __getattr__(name: str) -> Any:
    """``from miniagent.graph import add_messages`` imports message.py then (PEP 562)."""
    if name in _FROM_MESSAGE:
        from miniagent.graph import message

        return getattr(message, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
