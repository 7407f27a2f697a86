"""Turning message-like values into messages. Mirrors ``langchain_core/messages/utils.py``.

``AnyMessage`` (a tagged union for pydantic states), ``convert_to_messages`` (str /
``(role, content)`` / dict -> message) and ``message_chunk_to_message``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Annotated, Any, Optional, Union

from pydantic import Discriminator, Field, Tag

from miniagent.messages.ai import AIMessage, AIMessageChunk
from miniagent.messages.base import BaseMessage, BaseMessageChunk
from miniagent.messages.function import FunctionMessage
from miniagent.messages.human import HumanMessage
from miniagent.messages.modifier import RemoveMessage
from miniagent.messages.system import SystemMessage
from miniagent.messages.tool import ToolMessage


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
        Annotated[FunctionMessage, Tag(tag="function")],
        Annotated[ToolMessage, Tag(tag="tool")],
        Annotated[AIMessageChunk, Tag(tag="AIMessageChunk")],
    ],
    Field(discriminator=Discriminator(_get_type)),
]
"""Any concrete message; pydantic picks the class from ``type`` (utils.py:86)."""


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


MessageLikeRepresentation = Union[
    BaseMessage,
    list[str],
    tuple[str, Union[str, list[Union[str, dict[str, Any]]]]],
    str,
    dict[str, Any],
]
"""Everything ``convert_to_messages`` accepts for one message (utils.py:596)."""


class ErrorCode(Enum):
    """langchain-core's troubleshooting pages (langchain_core/exceptions.py:190), the one the
    message coercion points to (langgraph's own codes are ``miniagent.errors.ErrorCode``)."""

    MESSAGE_COERCION_FAILURE = "MESSAGE_COERCION_FAILURE"


def create_message(*, message: str, error_code: ErrorCode) -> str:
    """Append langchain-core's troubleshooting line (langchain_core/exceptions.py:202)."""
    return (
        f"{message}\n"
        "For troubleshooting, visit: https://docs.langchain.com/oss/python/langchain"
        f"/errors/{error_code.value} "
    )


# --8<-- [start:create_message_from_message_type]
def _create_message_from_message_type(
    message_type: str,
    content: Union[str, list[Union[str, dict[str, Any]]]],
    name: Optional[str] = None,
    tool_call_id: Optional[str] = None,
    tool_calls: Optional[list[dict[str, Any]]] = None,
    id: Optional[str] = None,
    **additional_kwargs: Any,
) -> BaseMessage:
    """Build the message class named by a role string (langchain_core/messages/utils.py:606).

    Keys it does not know end up in ``additional_kwargs``; OpenAI-format tool calls
    (``{"id", "function": {"name", "arguments"}}``) become LangChain tool calls.
    """
    kwargs: dict[str, Any] = {}
    if name is not None:
        kwargs["name"] = name
    if tool_call_id is not None:
        kwargs["tool_call_id"] = tool_call_id
    if additional_kwargs:
        if response_metadata := additional_kwargs.pop("response_metadata", None):
            kwargs["response_metadata"] = response_metadata
        kwargs["additional_kwargs"] = additional_kwargs
        additional_kwargs.update(additional_kwargs.pop("additional_kwargs", {}))
    if id is not None:
        kwargs["id"] = id
    if tool_calls is not None:
        kwargs["tool_calls"] = []
        for tool_call in tool_calls:
            # Convert OpenAI-format tool call to LangChain format.
            if "function" in tool_call:
                args = tool_call["function"]["arguments"]
                if isinstance(args, str):
                    args = json.loads(args, strict=False)
                kwargs["tool_calls"].append(
                    {
                        "name": tool_call["function"]["name"],
                        "args": args,
                        "id": tool_call["id"],
                        "type": "tool_call",
                    }
                )
            else:
                kwargs["tool_calls"].append(tool_call)
    if message_type in {"human", "user"}:
        if example := kwargs.get("additional_kwargs", {}).pop("example", False):
            kwargs["example"] = example
        message: BaseMessage = HumanMessage(content=content, **kwargs)
    elif message_type in {"ai", "assistant"}:
        if example := kwargs.get("additional_kwargs", {}).pop("example", False):
            kwargs["example"] = example
        message = AIMessage(content=content, **kwargs)
    elif message_type in {"system", "developer"}:
        if message_type == "developer":
            kwargs["additional_kwargs"] = kwargs.get("additional_kwargs") or {}
            kwargs["additional_kwargs"]["__openai_role__"] = "developer"
        message = SystemMessage(content=content, **kwargs)
    elif message_type == "function":
        message = FunctionMessage(content=content, **kwargs)
    elif message_type == "tool":
        artifact = kwargs.get("additional_kwargs", {}).pop("artifact", None)
        status = kwargs.get("additional_kwargs", {}).pop("status", None)
        if status is not None:
            kwargs["status"] = status
        message = ToolMessage(content=content, artifact=artifact, **kwargs)
    elif message_type == "remove":
        message = RemoveMessage(**kwargs)
    else:
        msg = (
            f"Unexpected message type: '{message_type}'. Use one of 'human',"
            f" 'user', 'ai', 'assistant', 'function', 'tool', 'system', or 'developer'."
        )
        msg = create_message(message=msg, error_code=ErrorCode.MESSAGE_COERCION_FAILURE)
        raise ValueError(msg)
    return message


# --8<-- [end:create_message_from_message_type]


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
        message_ = message
    elif isinstance(message, Sequence):
        if isinstance(message, str):
            message_ = _create_message_from_message_type("human", message)
        else:
            try:
                message_type_str, template = message
            except ValueError as e:
                msg = "Message as a sequence must be (role string, template)"
                raise NotImplementedError(msg) from e
            message_ = _create_message_from_message_type(message_type_str, template)
    elif isinstance(message, dict):
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
            msg = f"Message dict must contain 'role' and 'content' keys, got {message}"
            msg = create_message(message=msg, error_code=ErrorCode.MESSAGE_COERCION_FAILURE)
            raise ValueError(msg) from e
        message_ = _create_message_from_message_type(msg_type, msg_content, **msg_kwargs)
    else:
        msg = f"Unsupported message type: {type(message)}"
        msg = create_message(message=msg, error_code=ErrorCode.MESSAGE_COERCION_FAILURE)
        raise NotImplementedError(msg)

    return message_


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


def _get_message_openai_role(message: BaseMessage) -> str:
    """The OpenAI role of a message (langchain_core/messages/utils.py:2227); the miniature has
    no ``ChatMessage``, so its branch is left out."""
    if isinstance(message, AIMessage):
        return "assistant"
    if isinstance(message, HumanMessage):
        return "user"
    if isinstance(message, ToolMessage):
        return "tool"
    if isinstance(message, SystemMessage):
        role = message.additional_kwargs.get("__openai_role__", "system")
        if not isinstance(role, str):
            msg = f"Expected '__openai_role__' to be a str, got {type(role).__name__}"
            raise TypeError(msg)
        return role
    if isinstance(message, FunctionMessage):
        return "function"
    msg = f"Unknown BaseMessage type {message.__class__}."
    raise ValueError(msg)


def count_tokens_approximately(
    messages: Iterable[MessageLikeRepresentation],
    *,
    chars_per_token: float = 4.0,
    extra_tokens_per_message: float = 3.0,
    count_name: bool = True,
    tokens_per_image: int = 85,
    use_usage_metadata_scaling: bool = False,
    tools: list[Any] | None = None,
) -> int:
    """About four characters a token, plus 3 per message (langchain_core/messages/utils.py:2262).

    Counts each message's text (an image block costs ``tokens_per_image``), an AI message's
    ``repr(tool_calls)``, a tool message's ``tool_call_id``, the OpenAI role and the name;
    rounds up per message. With ``tools``, their JSON schemas count too. The default token
    counter of ``ContextEditingMiddleware`` and ``SummarizationMiddleware``.
    """
    converted_messages = convert_to_messages(messages)

    token_count = 0.0

    ai_model_provider: str | None = None
    invalid_model_provider = False
    last_ai_total_tokens: int | None = None
    approx_at_last_ai: float | None = None

    # Count tokens for tools if provided
    if tools:
        tools_chars = 0
        for tool in tools:
            if isinstance(tool, dict):
                tool_dict = tool
            else:
                schema = tool.tool_call_schema
                if isinstance(schema, dict):
                    parameters = dict(schema)
                else:
                    parameters = dict(schema.model_json_schema())
                # Drop the schema's own title/description: they are at the top level already
                parameters.pop("title", None)
                parameters.pop("description", None)
                tool_dict = {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": parameters,
                }
            tools_chars += len(json.dumps(tool_dict))
        token_count += math.ceil(tools_chars / chars_per_token)

    for message in converted_messages:
        message_chars = 0

        if isinstance(message.content, str):
            message_chars += len(message.content)
        # Handle multimodal content (list of content blocks)
        elif isinstance(message.content, list):
            for block in message.content:
                if isinstance(block, str):
                    message_chars += len(block)
                elif isinstance(block, dict):
                    block_type = block.get("type", "")

                    # Apply fixed penalty for image blocks
                    if block_type in {"image", "image_url"}:
                        token_count += tokens_per_image
                    # Count text blocks normally
                    elif block_type == "text":
                        text = block.get("text", "")
                        message_chars += len(text)
                    # Conservative estimate for unknown block types
                    else:
                        message_chars += len(repr(block))
                else:
                    message_chars += len(repr(block))
        else:
            content = repr(message.content)
            message_chars += len(content)

        if (
            isinstance(message, AIMessage)
            # exclude Anthropic format as tool calls are already included in the content
            and not isinstance(message.content, list)
            and message.tool_calls
        ):
            tool_calls_content = repr(message.tool_calls)
            message_chars += len(tool_calls_content)

        if isinstance(message, ToolMessage):
            message_chars += len(message.tool_call_id)

        role = _get_message_openai_role(message)
        message_chars += len(role)

        if message.name and count_name:
            message_chars += len(message.name)

        # rounding up per message, so the counts of single messages add up to the total
        token_count += math.ceil(message_chars / chars_per_token)

        # add extra tokens per message
        token_count += extra_tokens_per_message

        if use_usage_metadata_scaling and isinstance(message, AIMessage):
            model_provider = message.response_metadata.get("model_provider")
            if ai_model_provider is None:
                ai_model_provider = model_provider
            elif model_provider != ai_model_provider:
                invalid_model_provider = True

            if message.usage_metadata and isinstance(
                (total_tokens := message.usage_metadata.get("total_tokens")), int
            ):
                last_ai_total_tokens = total_tokens
                approx_at_last_ai = token_count

    if (
        use_usage_metadata_scaling
        and len(converted_messages) > 1
        and not invalid_model_provider
        and ai_model_provider is not None
        and last_ai_total_tokens is not None
        and approx_at_last_ai
        and approx_at_last_ai > 0
    ):
        scale_factor = last_ai_total_tokens / approx_at_last_ai
        token_count *= min(1.25, max(1.0, scale_factor))

    # round up once more time in case extra_tokens_per_message is a float
    return math.ceil(token_count)
