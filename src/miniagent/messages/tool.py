"""Tool results and tool calls. Mirrors ``langchain_core/messages/tool.py``.

Tool calls are plain dicts with a fixed set of keys (``TypedDict``); the factories
``tool_call()`` & co. set their ``type`` key. ``InvalidToolCall`` is defined in upstream's
``content.py`` and imported into ``tool.py``; the miniature keeps it here.
"""

from __future__ import annotations

import json
from typing import Any, Literal, Optional, Union
from uuid import UUID

from pydantic import Field, model_validator
from typing_extensions import NotRequired, TypedDict

from miniagent.messages.base import BaseMessage


class ToolMessage(BaseMessage):
    """The result of one tool call, sent back to the model (langchain_core/messages/tool.py:26).

    ``tool_call_id`` is required; leaving it out raises ``KeyError: 'tool_call_id'`` from the
    validator below, before pydantic itself looks at the fields, exactly as upstream.
    """

    tool_call_id: str
    type: Literal["tool"] = "tool"
    artifact: Any = None
    status: Literal["success", "error"] = "success"
    additional_kwargs: dict[Any, Any] = Field(default_factory=dict, repr=False)
    response_metadata: dict[Any, Any] = Field(default_factory=dict, repr=False)

    @model_validator(mode="before")
    @classmethod
    def coerce_args(cls, values: dict[str, Any]) -> dict[str, Any]:
        """Turn any tool output into message content: ``42`` -> ``"42"`` (tool.py:92)."""
        content = values["content"]
        if isinstance(content, tuple):
            content = list(content)
        if not isinstance(content, (str, list)):
            values["content"] = str(content)
        elif isinstance(content, list):
            values["content"] = [x if isinstance(x, (str, dict)) else str(x) for x in content]
        if isinstance(values["tool_call_id"], (UUID, int, float)):
            values["tool_call_id"] = str(values["tool_call_id"])
        return values


class ToolCall(TypedDict):
    """A model's request to call a tool (langchain_core/messages/tool.py:206)."""

    name: str
    args: dict[str, Any]
    id: Optional[str]
    type: NotRequired[Literal["tool_call"]]


def tool_call(*, name: str, args: dict[str, Any], id: Optional[str]) -> ToolCall:
    """Build a ``ToolCall`` with ``type="tool_call"`` (langchain_core/messages/tool.py:242)."""
    return ToolCall(name=name, args=args, id=id, type="tool_call")


class ToolCallChunk(TypedDict):
    """A piece of a tool call while streaming; ``args`` is partial JSON (tool.py:261)."""

    name: Optional[str]
    args: Optional[str]
    id: Optional[str]
    index: Optional[int]
    type: NotRequired[Literal["tool_call_chunk"]]


def tool_call_chunk(
    *,
    name: Optional[str] = None,
    args: Optional[str] = None,
    id: Optional[str] = None,
    index: Optional[int] = None,
) -> ToolCallChunk:
    """Build a ``ToolCallChunk`` (langchain_core/messages/tool.py:303)."""
    return ToolCallChunk(name=name, args=args, id=id, index=index, type="tool_call_chunk")


class InvalidToolCall(TypedDict):
    """A tool call whose arguments did not parse (langchain_core/messages/content.py:336)."""

    type: Literal["invalid_tool_call"]
    id: Optional[str]
    name: Optional[str]
    args: Optional[str]
    error: Optional[str]
    index: NotRequired[Union[int, str]]
    extras: NotRequired[dict[str, Any]]


def invalid_tool_call(
    *,
    name: Optional[str] = None,
    args: Optional[str] = None,
    id: Optional[str] = None,
    error: Optional[str] = None,
) -> InvalidToolCall:
    """Build an ``InvalidToolCall`` (langchain_core/messages/tool.py:326)."""
    return InvalidToolCall(name=name, args=args, id=id, error=error, type="invalid_tool_call")


def default_tool_parser(
    raw_tool_calls: list[dict[str, Any]],
) -> tuple[list[ToolCall], list[InvalidToolCall]]:
    """OpenAI-format tool calls -> (valid, invalid) tool calls (tool.py:349)."""
    tool_calls, invalid_tool_calls = [], []
    for raw in raw_tool_calls:
        if "function" not in raw:
            continue
        name = raw["function"]["name"]
        try:
            args = json.loads(raw["function"]["arguments"])
            tool_calls.append(tool_call(name=name or "", args=args or {}, id=raw.get("id")))
        except json.JSONDecodeError:
            invalid_tool_calls.append(
                invalid_tool_call(name=name, args=raw["function"]["arguments"], id=raw.get("id"))
            )
    return tool_calls, invalid_tool_calls


def default_tool_chunk_parser(raw_tool_calls: list[dict[str, Any]]) -> list[ToolCallChunk]:
    """OpenAI-format streamed tool calls -> tool call chunks (tool.py:386)."""
    chunks = []
    for raw in raw_tool_calls:
        function = raw.get("function", {"arguments": None, "name": None})
        chunks.append(
            tool_call_chunk(
                name=function["name"],
                args=function["arguments"],
                id=raw.get("id"),
                index=raw.get("index"),
            )
        )
    return chunks
