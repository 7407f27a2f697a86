"""Chat messages: the data that flows between a user, a chat model and tools.

Mirrors ``langchain_core/messages/`` (langchain-core 1.8.3): ``base.py``, ``system.py``,
``human.py``, ``ai.py``, ``tool.py``, ``modifier.py`` and the coercion helpers of ``utils.py``.
A message is a pydantic model; its ``repr`` hides fields that still hold their default, exactly
like upstream, so a miniagent message prints the same as a LangChain one.

Left out on purpose: ``FunctionMessage`` / ``ChatMessage`` and the ``*MessageChunk`` classes
other than ``AIMessageChunk``, ``content_blocks`` (the v1 standard-content view) and
``BaseMessage + other`` building a prompt template.
"""

from __future__ import annotations

import json
import operator
import sys
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate
from typing import Annotated, Any, Callable, Literal, Optional, Union
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator
from typing_extensions import NotRequired, TypedDict

__all__ = [
    "AIMessage",
    "AIMessageChunk",
    "AnyMessage",
    "BaseMessage",
    "BaseMessageChunk",
    "HumanMessage",
    "InvalidToolCall",
    "MessageLikeRepresentation",
    "REMOVE_ALL_MESSAGES",
    "RemoveMessage",
    "SystemMessage",
    "ToolCall",
    "ToolCallChunk",
    "ToolMessage",
    "UsageMetadata",
    "convert_to_messages",
    "invalid_tool_call",
    "message_chunk_to_message",
    "tool_call",
    "tool_call_chunk",
]

REMOVE_ALL_MESSAGES = "__remove_all__"
"""``RemoveMessage(id=REMOVE_ALL_MESSAGES)`` clears the history (langgraph/pregel/_messages.py:436)."""


# ---------------------------------------------------------------------------------------------
# Tool calls: plain dicts with a fixed set of keys (TypedDicts)
# ---------------------------------------------------------------------------------------------


class ToolCall(TypedDict):
    """A model's request to call a tool (langchain_core/messages/tool.py:206)."""

    name: str
    args: dict[str, Any]
    id: Optional[str]
    type: NotRequired[Literal["tool_call"]]


class ToolCallChunk(TypedDict):
    """A piece of a tool call while streaming; ``args`` is partial JSON (tool.py:261)."""

    name: Optional[str]
    args: Optional[str]
    id: Optional[str]
    index: Optional[int]
    type: NotRequired[Literal["tool_call_chunk"]]


class InvalidToolCall(TypedDict):
    """A tool call whose arguments did not parse (langchain_core/messages/content.py:336)."""

    type: Literal["invalid_tool_call"]
    id: Optional[str]
    name: Optional[str]
    args: Optional[str]
    error: Optional[str]
    index: NotRequired[Union[int, str]]
    extras: NotRequired[dict[str, Any]]


def tool_call(*, name: str, args: dict[str, Any], id: Optional[str]) -> ToolCall:
    """Build a ``ToolCall`` with ``type="tool_call"`` (langchain_core/messages/tool.py:242)."""
    return ToolCall(name=name, args=args, id=id, type="tool_call")


def tool_call_chunk(
    *,
    name: Optional[str] = None,
    args: Optional[str] = None,
    id: Optional[str] = None,
    index: Optional[int] = None,
) -> ToolCallChunk:
    """Build a ``ToolCallChunk`` (langchain_core/messages/tool.py:303)."""
    return ToolCallChunk(name=name, args=args, id=id, index=index, type="tool_call_chunk")


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


# ---------------------------------------------------------------------------------------------
# Messages
# ---------------------------------------------------------------------------------------------


class BaseMessage(BaseModel):
    """Base class of all messages (langchain_core/messages/base.py:92).

    ``content`` may be given positionally: ``HumanMessage("hi")``. Unknown keyword arguments
    are kept as extra fields (``extra="allow"``), as upstream does.
    """

    content: Union[str, list[Union[str, dict[Any, Any]]]]
    additional_kwargs: dict[Any, Any] = Field(default_factory=dict)
    response_metadata: dict[Any, Any] = Field(default_factory=dict)
    type: str
    name: Optional[str] = None
    id: Optional[str] = Field(default=None, coerce_numbers_to_str=True)

    # Not upstream: defer_build builds the schema on first use, not at import (import time).
    model_config = ConfigDict(extra="allow", defer_build=True)

    def __init__(self, content: Any = None, **kwargs: Any) -> None:
        super().__init__(content=content, **kwargs)

    def __repr_args__(self) -> Any:
        """Hide fields that hold their default (langchain_core/load/serializable.py:221).

        Upstream compares a ``default_factory`` field against ``None``, so
        ``additional_kwargs={}`` and ``tool_calls=[]`` always show; ``name=None`` never does.
        """
        fields = type(self).model_fields
        return [
            (k, v)
            for k, v in super().__repr_args__()
            if k not in fields or _field_default(fields[k]) != v
        ]

    @property
    def text(self) -> str:
        """The string content, or the joined ``text`` blocks of list content (base.py:262)."""
        if isinstance(self.content, str):
            return self.content
        return "".join(
            block if isinstance(block, str) else block["text"]
            for block in self.content
            if isinstance(block, str)
            or (block.get("type") == "text" and isinstance(block.get("text"), str))
        )

    def pretty_repr(self, html: bool = False) -> str:
        """A title bar, the name if any, then the content (base.py:308)."""
        title = get_msg_title_repr(self.type.title() + " Message", bold=html)
        if self.name is not None:
            title += f"\nName: {self.name}"
        return f"{title}\n\n{self.content}"

    def pretty_print(self) -> None:
        """Print ``pretty_repr()``; bold title in Jupyter/IPython (base.py:343)."""
        print(self.pretty_repr(html=hasattr(sys, "ps2")))


def _field_default(field: Any) -> Any:
    # A default_factory is never called here: upstream treats it as None (serializable.py:75).
    return None if field.default_factory is not None else field.default


def get_msg_title_repr(title: str, *, bold: bool = False) -> str:
    """Center ``title`` in an 80-column bar of ``=`` (langchain_core/messages/base.py:503)."""
    padded = " " + title + " "
    sep = "=" * ((80 - len(padded)) // 2)
    second_sep = sep + "=" if len(padded) % 2 else sep
    if bold:
        padded = f"\033[1m{padded}\033[0m"
    return f"{sep}{padded}{second_sep}"


class SystemMessage(BaseMessage):
    """Instructions for the model (langchain_core/messages/system.py:9)."""

    type: Literal["system"] = "system"


class HumanMessage(BaseMessage):
    """A message from the user (langchain_core/messages/human.py:9)."""

    type: Literal["human"] = "human"


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


class RemoveMessage(BaseMessage):
    """Asks ``add_messages`` to delete the message with this id (langchain_core/messages/modifier.py:8)."""

    type: Literal["remove"] = "remove"

    def __init__(self, id: str, **kwargs: Any) -> None:
        if kwargs.pop("content", None):
            raise ValueError("RemoveMessage does not support 'content' field.")
        super().__init__("", id=id, **kwargs)


class BaseMessageChunk(BaseMessage):
    """Marks a streamed piece of a message (langchain_core/messages/base.py:411).

    Upstream has a chunk class per message type; the miniature only streams model output, so
    ``AIMessageChunk`` is the one subclass.
    """


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


def _get_type(v: Any) -> str:
    """Read the ``type`` tag of a message or message dict (langchain_core/messages/utils.py:68)."""
    if isinstance(v, dict) and "type" in v:
        result = v["type"]
    elif hasattr(v, "type"):
        result = v.type
    else:
        raise TypeError(
            "Expected either a dictionary with a 'type' key or an object with a 'type' "
            f"attribute. Instead got type {type(v)}."
        )
    if not isinstance(result, str):
        raise TypeError(f"Expected 'type' to be a str, got {type(result).__name__}")
    return result


AnyMessage = Annotated[
    Union[
        Annotated[AIMessage, Tag(tag="ai")],
        Annotated[HumanMessage, Tag(tag="human")],
        Annotated[SystemMessage, Tag(tag="system")],
        Annotated[ToolMessage, Tag(tag="tool")],
        Annotated[AIMessageChunk, Tag(tag="AIMessageChunk")],
    ],
    Field(discriminator=Discriminator(_get_type)),
]
"""Any concrete message; pydantic picks the class from ``type`` (utils.py:86)."""

MessageLikeRepresentation = Union[
    BaseMessage,
    list[str],
    tuple[str, Union[str, list[Union[str, dict[str, Any]]]]],
    str,
    dict[str, Any],
]
"""Everything ``convert_to_messages`` accepts for one message (utils.py:596)."""


# ---------------------------------------------------------------------------------------------
# Coercion: str / (role, content) / dict -> message
# ---------------------------------------------------------------------------------------------


def _coercion_error(message: str) -> str:
    """Append langchain-core's troubleshooting line (langchain_core/exceptions.py:202)."""
    return (
        f"{message}\n"
        "For troubleshooting, visit: https://docs.langchain.com/oss/python/langchain"
        "/errors/MESSAGE_COERCION_FAILURE "
    )


def _create_message_from_message_type(
    message_type: str,
    content: Union[str, list[Union[str, dict[str, Any]]]],
    name: Optional[str] = None,
    tool_call_id: Optional[str] = None,
    tool_calls: Optional[list[dict[str, Any]]] = None,
    id: Optional[str] = None,
    **additional_kwargs: Any,
) -> BaseMessage:
    """Build the message class named by a role string (langchain_core/messages/utils.py:606)."""
    kwargs: dict[str, Any] = {}
    if name is not None:
        kwargs["name"] = name
    if tool_call_id is not None:
        kwargs["tool_call_id"] = tool_call_id
    if additional_kwargs:  # unknown dict keys end up in additional_kwargs
        if response_metadata := additional_kwargs.pop("response_metadata", None):
            kwargs["response_metadata"] = response_metadata
        kwargs["additional_kwargs"] = additional_kwargs
        additional_kwargs.update(additional_kwargs.pop("additional_kwargs", {}))
    if id is not None:
        kwargs["id"] = id
    if tool_calls is not None:  # OpenAI format: {"id", "function": {"name", "arguments"}}
        kwargs["tool_calls"] = []
        for tc in tool_calls:
            if "function" in tc:
                args = tc["function"]["arguments"]
                if isinstance(args, str):
                    args = json.loads(args, strict=False)
                tc = {
                    "name": tc["function"]["name"],
                    "args": args,
                    "id": tc["id"],
                    "type": "tool_call",
                }
            kwargs["tool_calls"].append(tc)
    extra = kwargs.get("additional_kwargs", {})
    if message_type in {"human", "user"}:
        if example := extra.pop("example", False):
            kwargs["example"] = example
        return HumanMessage(content=content, **kwargs)
    if message_type in {"ai", "assistant"}:
        if example := extra.pop("example", False):
            kwargs["example"] = example
        return AIMessage(content=content, **kwargs)
    if message_type in {"system", "developer"}:
        if message_type == "developer":
            kwargs["additional_kwargs"] = kwargs.get("additional_kwargs") or {}
            kwargs["additional_kwargs"]["__openai_role__"] = "developer"
        return SystemMessage(content=content, **kwargs)
    if message_type == "function":
        raise NotImplementedError(
            "miniagent has no FunctionMessage (OpenAI's legacy function calling); "
            "send tool results as {'role': 'tool', 'content': ..., 'tool_call_id': ...}."
        )
    if message_type == "tool":
        artifact = extra.pop("artifact", None)
        if (status := extra.pop("status", None)) is not None:
            kwargs["status"] = status
        return ToolMessage(content=content, artifact=artifact, **kwargs)
    if message_type == "remove":
        return RemoveMessage(**kwargs)
    raise ValueError(
        _coercion_error(
            f"Unexpected message type: '{message_type}'. Use one of 'human',"
            f" 'user', 'ai', 'assistant', 'function', 'tool', 'system', or 'developer'."
        )
    )


# The class names a serialized {"lc": 1, "type": "constructor", ...} envelope may carry
# (langchain_core/messages/utils.py:704).
_LC_CONSTRUCTOR_NAME_TO_TYPE = {
    "HumanMessage": "human",
    "HumanMessageChunk": "human",
    "AIMessage": "ai",
    "AIMessageChunk": "ai",
    "SystemMessage": "system",
    "SystemMessageChunk": "system",
    "FunctionMessage": "function",
    "FunctionMessageChunk": "function",
    "ToolMessage": "tool",
    "ToolMessageChunk": "tool",
    "RemoveMessage": "remove",
}


# --8<-- [start:convert_to_message]
def _convert_to_message(message: MessageLikeRepresentation) -> BaseMessage:
    """Turn one message-like value into a message (langchain_core/messages/utils.py:719).

    ``"hi"`` -> ``HumanMessage``; ``("ai", "hello")`` -> ``AIMessage``;
    ``{"role": "tool", "content": "42", "tool_call_id": "c1"}`` -> ``ToolMessage``.
    """
    if isinstance(message, BaseMessage):
        return message
    if isinstance(message, str):
        return _create_message_from_message_type("human", message)
    if isinstance(message, Sequence):
        try:
            message_type_str, template = message
        except ValueError as e:
            raise NotImplementedError(
                "Message as a sequence must be (role string, template)"
            ) from e
        return _create_message_from_message_type(message_type_str, template)
    if isinstance(message, dict):
        if (  # the serialized envelope of a message object
            message.get("lc") == 1
            and message.get("type") == "constructor"
            and isinstance(message.get("id"), list)
            and message["id"]
            and isinstance(message.get("kwargs"), dict)
        ):
            mapped = _LC_CONSTRUCTOR_NAME_TO_TYPE.get(message["id"][-1])
            if mapped is not None:
                return _convert_to_message({"type": mapped, **message["kwargs"]})
        msg_kwargs = message.copy()
        try:
            try:
                msg_type = msg_kwargs.pop("role")
            except KeyError:
                msg_type = msg_kwargs.pop("type")
            msg_content = msg_kwargs.pop("content") or ""  # None content becomes ""
        except KeyError as e:
            raise ValueError(
                _coercion_error(
                    f"Message dict must contain 'role' and 'content' keys, got {message}"
                )
            ) from e
        return _create_message_from_message_type(msg_type, msg_content, **msg_kwargs)
    raise NotImplementedError(_coercion_error(f"Unsupported message type: {type(message)}"))


# --8<-- [end:convert_to_message]


def convert_to_messages(messages: Iterable[MessageLikeRepresentation]) -> list[BaseMessage]:
    """Coerce each item with ``_convert_to_message`` (langchain_core/messages/utils.py:799)."""
    # Not in upstream: a chat model gets the whole history on every call, and it is almost
    # always made of messages already. A history from ``add_messages`` whose id index is still
    # valid (graph/message.py, ``_MessageList``) holds only messages; for another list,
    # checking the few distinct types runs at C speed.
    if type(messages) is not list and getattr(messages, "_index", None) is not None:
        return list(messages)
    if isinstance(messages, list) and all(
        issubclass(t, BaseMessage) for t in set(map(type, messages))
    ):
        return list(messages)
    return [_convert_to_message(m) for m in messages]


def message_chunk_to_message(chunk: BaseMessage) -> BaseMessage:
    """``AIMessageChunk`` -> ``AIMessage``; other messages pass through (utils.py:573).

    Like upstream it copies ``__dict__``, so extra (unknown) fields of a chunk are dropped.
    """
    if not isinstance(chunk, BaseMessageChunk):
        return chunk
    ignore_keys = {"type", "tool_call_chunks", "chunk_position"}
    return chunk.__class__.__mro__[1](
        **{k: v for k, v in chunk.__dict__.items() if k not in ignore_keys}
    )


# ---------------------------------------------------------------------------------------------
# Streaming: adding chunks together and reading partial JSON
# ---------------------------------------------------------------------------------------------

LC_AUTO_PREFIX = "lc_"
LC_ID_PREFIX = "lc_run-"


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


def merge_content(first_content: Any, *contents: Any) -> Any:
    """Concatenate string or list contents (langchain_core/messages/base.py:365)."""
    merged = "" if first_content is None else first_content
    if isinstance(merged, list):
        merged = merged.copy()
    for content in contents:
        if isinstance(merged, str):
            merged = merged + content if isinstance(content, str) else [merged, *content]
        elif isinstance(content, list):
            merged = merge_lists(merged, content)
        elif merged and isinstance(merged[-1], str):
            merged[-1] += content
        elif content == "":
            pass
        elif merged:
            merged.append(content)
    return merged


def merge_dicts(left: dict[str, Any], *others: dict[str, Any]) -> dict[str, Any]:
    """Merge dicts key by key: strings concatenate, numbers add (langchain_core/utils/_merge.py:6)."""
    merged = left.copy()
    for right in others:
        for k, right_v in right.items():
            left_v = merged.get(k)
            if k not in merged or (right_v is not None and left_v is None):
                merged[k] = right_v
            elif right_v is None:
                continue
            elif type(left_v) is not type(right_v):
                raise TypeError(
                    f'additional_kwargs["{k}"] already exists in this message,'
                    " but with a different type."
                )
            elif isinstance(left_v, str):
                if (k == "index" and left_v.startswith("lc_")) or (
                    k in {"id", "output_version", "model_provider"} and left_v == right_v
                ):
                    continue
                merged[k] = left_v + right_v
            elif isinstance(left_v, dict):
                merged[k] = merge_dicts(left_v, right_v)
            elif isinstance(left_v, list):
                merged[k] = merge_lists(left_v, right_v)
            elif left_v == right_v:
                continue
            elif isinstance(left_v, int) and not isinstance(left_v, bool):
                merged[k] = right_v if k in {"index", "created", "timestamp"} else left_v + right_v
            else:
                raise TypeError(
                    f"Additional kwargs key {k} already exists in left dict and "
                    f"value has unsupported type {type(left_v)}."
                )
    return merged


def merge_lists(left: Optional[list], *others: Optional[list]) -> Optional[list]:
    """Concatenate lists, merging dicts that share an ``index`` (langchain_core/utils/_merge.py:98).

    Upstream's special case for v1 ``non_standard`` content blocks is left out.
    """
    merged = left.copy() if left is not None else None
    for other in others:
        if other is None:
            continue
        if merged is None:
            merged = other.copy()
            continue
        for e in other:
            index = e.get("index") if isinstance(e, dict) else None
            if not isinstance(index, int) and not (
                isinstance(index, str) and index.startswith("lc_")
            ):
                merged.append(e)
                continue
            to_merge = [
                i
                for i, e_left in enumerate(merged)
                if isinstance(e_left, dict)
                and "index" in e_left
                and e_left["index"] == index
                and (
                    e_left.get("id") in {None, ""}
                    or e.get("id") in {None, ""}
                    or e_left.get("id") == e.get("id")
                )
            ]
            if to_merge:
                new_e = {k: v for k, v in e.items() if k != "type"}
                merged[to_merge[0]] = merge_dicts(merged[to_merge[0]], new_e)
            else:
                merged.append(e)
    return merged


def add_usage(left: Optional[UsageMetadata], right: Optional[UsageMetadata]) -> UsageMetadata:
    """Add token counts, recursing into the detail dicts (langchain_core/messages/ai.py:734)."""
    if not (left or right):
        return UsageMetadata(input_tokens=0, output_tokens=0, total_tokens=0)
    if not (left and right):
        return left or right  # type: ignore[return-value]
    return _dict_int_op(left, right, operator.add)  # type: ignore[return-value]


def _dict_int_op(left: dict, right: dict, op: Callable[[int, int], int]) -> dict:
    """Apply ``op`` to the ints of two nested dicts (langchain_core/utils/usage.py:7)."""
    combined: dict[str, Any] = {}
    for k in set(left).union(right):
        if isinstance(left.get(k, 0), int) and isinstance(right.get(k, 0), int):
            combined[k] = op(left.get(k, 0), right.get(k, 0))
        elif isinstance(left.get(k, {}), dict) and isinstance(right.get(k, {}), dict):
            combined[k] = _dict_int_op(left.get(k, {}), right.get(k, {}), op)
        else:
            types = [type(d[k]) for d in (left, right) if k in d]
            raise ValueError(
                f"Unknown value types: {types}. Only dict and int values are supported."
            )
    return combined


def parse_partial_json(s: str, *, strict: bool = False) -> Any:
    """Parse JSON that may be cut off: ``'{"a": 1'`` -> ``{'a': 1}`` (langchain_core/utils/json.py:60).

    Close any open string and brackets; if that still fails, drop characters from the end until
    it parses (``'{"city":'`` -> ``{}``). A mismatched bracket gives ``None``; when nothing
    parses, the original ``json.JSONDecodeError`` is raised.
    """
    try:
        return json.loads(s, strict=strict)
    except json.JSONDecodeError:
        pass
    new_chars: list[str] = []
    stack: list[str] = []
    is_inside_string = escaped = False
    for char in s:
        new_char = char
        if is_inside_string:
            if char == '"' and not escaped:
                is_inside_string = False
            elif char == "\n" and not escaped:
                new_char = "\\n"  # a raw newline is not allowed inside a JSON string
            elif char == "\\":
                escaped = not escaped
            else:
                escaped = False
        elif char == '"':
            is_inside_string, escaped = True, False
        elif char == "{":
            stack.append("}")
        elif char == "[":
            stack.append("]")
        elif char in "}]":
            if not stack or stack[-1] != char:
                return None
            stack.pop()
        new_chars.append(new_char)
    if is_inside_string:
        if escaped:
            new_chars.pop()
        new_chars.append('"')
    stack.reverse()
    ends = list(accumulate(map(len, new_chars)))  # string offset where each element ends
    while new_chars:
        try:
            return json.loads("".join(new_chars + stack), strict=strict)
        except json.JSONDecodeError as e:
            # Every longer candidate still holds the rejected element: cut right past it.
            idx = bisect_right(ends, e.pos)
            cut = idx if idx < len(new_chars) else len(new_chars) - 1
            del new_chars[cut:], ends[cut:]
    return json.loads(s, strict=strict)
