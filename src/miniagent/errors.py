"""Graph errors with upstream's exact texts. Mirrors ``langgraph/errors.py``."""

from __future__ import annotations

from enum import Enum

__all__ = [
    "ErrorCode",
    "create_error_message",
    "GraphRecursionError",
    "InvalidUpdateError",
    "GraphBubbleUp",
    "EmptyInputError",
]


class ErrorCode(Enum):
    """Codes that point to a troubleshooting page (langgraph/errors.py:36)."""

    GRAPH_RECURSION_LIMIT = "GRAPH_RECURSION_LIMIT"
    INVALID_CONCURRENT_GRAPH_UPDATE = "INVALID_CONCURRENT_GRAPH_UPDATE"
    INVALID_GRAPH_NODE_RETURN_VALUE = "INVALID_GRAPH_NODE_RETURN_VALUE"
    MULTIPLE_SUBGRAPHS = "MULTIPLE_SUBGRAPHS"
    INVALID_CHAT_HISTORY = "INVALID_CHAT_HISTORY"


def create_error_message(*, message: str, error_code: ErrorCode) -> str:
    """Append upstream's troubleshooting line to ``message`` (langgraph/errors.py:44)."""
    return (
        f"{message}\n"
        "For troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/"
        f"errors/{error_code.value}"
    )


class GraphBubbleUp(Exception):
    """Base for exceptions that must always propagate out of tools (langgraph/errors.py:52)."""


class GraphRecursionError(RecursionError):
    """Raised when the graph runs out of super-steps (langgraph/errors.py:69)."""


class InvalidUpdateError(Exception):
    """Raised when a node returns an update the graph cannot apply (langgraph/errors.py:92)."""


class EmptyInputError(Exception):
    """Raised when a graph gets no input and has nothing to resume (langgraph/errors.py:138)."""
