"""The model's answer, its streamed chunks, token usage. Mirrors ``langchain_core/messages/ai.py``.

Streaming: chunks add up with ``+`` (``add_ai_message_chunks``), merging dicts and lists with
``miniagent/utils/_merge.py`` and reading tool-call arguments with ``miniagent/utils/json.py``.
"""

from __future__ import annotations

import json
import operator
from typing import Any, Literal, Optional, Union

from pydantic import Field, model_validator
from typing_extensions import NotRequired, TypedDict

from miniagent.messages.base import BaseMessage, BaseMessageChunk, merge_content
from miniagent.messages.tool import (
    InvalidToolCall,
    ToolCall,
    ToolCallChunk,
    default_tool_chunk_parser,
    default_tool_parser,
    invalid_tool_call,
    tool_call,
    tool_call_chunk,
)
from miniagent.utils._merge import merge_dicts, merge_lists
from miniagent.utils.json import parse_partial_json
from miniagent.utils.usage import _dict_int_op
from miniagent.utils.utils import LC_AUTO_PREFIX, LC_ID_PREFIX


class InputTokenDetails(TypedDict, total=False):
    """Breakdown of input tokens (langchain_core/messages/ai.py:38)."""

    audio: int
    cache_creation: int
    cache_read: int


class OutputTokenDetails(TypedDict, total=False):
    """Breakdown of output tokens (langchain_core/messages/ai.py:74)."""

    audio: int
    reasoning: int


class UsageMetadata(TypedDict):
    """Token counts of one model call (langchain_core/messages/ai.py:104)."""

    input_tokens: int
    output_tokens: int
    total_tokens: int
    input_token_details: NotRequired[InputTokenDetails]
    output_token_details: NotRequired[OutputTokenDetails]


class AIMessage(BaseMessage):
    """A chat model's answer, possibly asking for tool calls (langchain_core/messages/ai.py:160)."""

    tool_calls: list[ToolCall] = Field(default_factory=list)
    invalid_tool_calls: list[InvalidToolCall] = Field(default_factory=list)
    usage_metadata: Optional[UsageMetadata] = None
    type: Literal["ai"] = "ai"

    @model_validator(mode="before")
    @classmethod
    def _backwards_compat_tool_calls(cls, values: dict[str, Any]) -> Any:
        """Give every tool call its ``type`` key (ai.py:309).

        Rebuilding each call through ``tool_call(...)`` is also what rejects a call without an
        ``id`` or with unknown keys, with the ``TypeError`` of the factory. If no tool calls
        were given, OpenAI-format ones in ``additional_kwargs["tool_calls"]`` are parsed.
        """
        check_additional_kwargs = not (
            values.get("tool_calls")
            or values.get("invalid_tool_calls")
            or values.get("tool_call_chunks")
        )
        if check_additional_kwargs and (
            raw_tool_calls := values.get("additional_kwargs", {}).get("tool_calls")
        ):
            try:
                if issubclass(cls, AIMessageChunk):
                    values["tool_call_chunks"] = default_tool_chunk_parser(raw_tool_calls)
                else:
                    values["tool_calls"], values["invalid_tool_calls"] = default_tool_parser(
                        raw_tool_calls
                    )
            except Exception:
                pass  # upstream logs at debug level and keeps the message as it is
        if tool_calls := values.get("tool_calls"):
            values["tool_calls"] = [
                tool_call(**{k: v for k, v in tc.items() if k not in {"type", "extras"}})
                for tc in tool_calls
            ]
        if invalid_tool_calls := values.get("invalid_tool_calls"):
            values["invalid_tool_calls"] = [
                invalid_tool_call(**{k: v for k, v in tc.items() if k != "type"})
                for tc in invalid_tool_calls
            ]
        if tool_call_chunks := values.get("tool_call_chunks"):
            values["tool_call_chunks"] = [
                tool_call_chunk(**{k: v for k, v in tc.items() if k != "type"})
                for tc in tool_call_chunks
            ]
        return values

    def pretty_repr(self, html: bool = False) -> str:
        """The base layout plus a ``Tool Calls:`` section (langchain_core/messages/ai.py:354)."""
        lines = []
        if self.tool_calls:
            lines.append("Tool Calls:")
            for tc in self.tool_calls:
                lines.extend(_format_tool_args(tc))
        if self.invalid_tool_calls:
            lines.append("Invalid Tool Calls:")
            for itc in self.invalid_tool_calls:
                lines.extend(_format_tool_args(itc))
        base = super().pretty_repr(html=html)
        return (base.strip() + "\n" + "\n".join(lines)).strip()


def _format_tool_args(tc: Union[ToolCall, InvalidToolCall]) -> list[str]:
    lines = [f"  {tc.get('name', 'Tool')} ({tc.get('id')})", f" Call ID: {tc.get('id')}"]
    if tc.get("error"):
        lines.append(f"  Error: {tc.get('error')}")
    lines.append("  Args:")
    args = tc.get("args")
    if isinstance(args, str):
        lines.append(f"    {args}")
    elif isinstance(args, dict):
        lines.extend(f"    {arg}: {value}" for arg, value in args.items())
    return lines


class AIMessageChunk(AIMessage, BaseMessageChunk):
    """A piece of a streamed model answer; chunks add up with ``+`` (ai.py:418).

    ``tool_call_chunks`` carry partial JSON; ``tool_calls`` / ``invalid_tool_calls`` are
    derived from them after every construction.
    """

    type: Literal["AIMessageChunk"] = "AIMessageChunk"  # type: ignore[assignment]
    tool_call_chunks: list[ToolCallChunk] = Field(default_factory=list)
    chunk_position: Optional[Literal["last"]] = None

    @model_validator(mode="after")
    def init_tool_calls(self) -> AIMessageChunk:
        """Parse chunk args with ``parse_partial_json`` into tool calls (ai.py:509)."""
        if not self.tool_call_chunks:  # derive the chunks from complete tool calls instead
            if self.tool_calls or self.invalid_tool_calls:
                self.tool_call_chunks = [
                    tool_call_chunk(name=tc["name"], args=json.dumps(tc["args"]), id=tc["id"])
                    for tc in self.tool_calls
                ] + [
                    tool_call_chunk(name=tc["name"], args=tc["args"], id=tc["id"])
                    for tc in self.invalid_tool_calls
                ]
            return self
        tool_calls, invalid_tool_calls = [], []
        for chunk in self.tool_call_chunks:
            try:
                args = parse_partial_json(chunk["args"]) if chunk["args"] else {}
            except Exception:
                args = None
            if isinstance(args, dict):
                tool_calls.append(tool_call(name=chunk["name"] or "", args=args, id=chunk["id"]))
            else:
                invalid_tool_calls.append(
                    invalid_tool_call(name=chunk["name"], args=chunk["args"], id=chunk["id"])
                )
        self.tool_calls = tool_calls
        self.invalid_tool_calls = invalid_tool_calls
        return self

    def __add__(self, other: Any) -> AIMessageChunk:
        """``chunk + chunk`` or ``chunk + [chunks]`` (langchain_core/messages/ai.py:641)."""
        if isinstance(other, AIMessageChunk):
            return add_ai_message_chunks(self, other)
        if isinstance(other, (list, tuple)) and all(isinstance(o, AIMessageChunk) for o in other):
            return add_ai_message_chunks(self, *other)
        raise TypeError(
            'unsupported operand type(s) for +: "'
            f'{self.__class__.__name__}" and "{other.__class__.__name__}"'
        )


def add_ai_message_chunks(left: AIMessageChunk, *others: AIMessageChunk) -> AIMessageChunk:
    """Merge chunks: concatenate content, merge tool-call chunks by ``index`` (ai.py:651)."""
    raw_tool_calls = merge_lists(left.tool_call_chunks, *(o.tool_call_chunks for o in others))
    usage_metadata = left.usage_metadata
    if left.usage_metadata or any(o.usage_metadata is not None for o in others):
        for other in others:
            usage_metadata = add_usage(usage_metadata, other.usage_metadata)
    # Prefer a provider id, then an "lc_run-" id, then any other "lc_" id.
    best_rank, chunk_id = -1, None
    for id_ in [left.id, *(o.id for o in others)]:
        if not id_:
            continue
        if not id_.startswith(LC_AUTO_PREFIX):
            chunk_id = id_
            break
        rank = 1 if id_.startswith(LC_ID_PREFIX) else 0
        if rank > best_rank:
            best_rank, chunk_id = rank, id_
    last = any(x.chunk_position == "last" for x in [left, *others])
    return left.__class__(
        content=merge_content(left.content, *(o.content for o in others)),
        additional_kwargs=merge_dicts(
            left.additional_kwargs, *(o.additional_kwargs for o in others)
        ),
        tool_call_chunks=[
            tool_call_chunk(
                name=rtc.get("name"), args=rtc.get("args"), id=rtc.get("id"), index=rtc.get("index")
            )
            for rtc in raw_tool_calls or []
        ],
        response_metadata=merge_dicts(
            left.response_metadata, *(o.response_metadata for o in others)
        ),
        usage_metadata=usage_metadata,
        id=chunk_id,
        chunk_position="last" if last else None,
    )


def add_usage(left: Optional[UsageMetadata], right: Optional[UsageMetadata]) -> UsageMetadata:
    """Add token counts, recursing into the detail dicts (langchain_core/messages/ai.py:734)."""
    if not (left or right):
        return UsageMetadata(input_tokens=0, output_tokens=0, total_tokens=0)
    if not (left and right):
        return left or right  # type: ignore[return-value]
    return _dict_int_op(left, right, operator.add)  # type: ignore[return-value]
