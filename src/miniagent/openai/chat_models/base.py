"""A chat model for OpenAI-compatible endpoints. Mirrors ``langchain_openai/chat_models/base.py``.

langchain-openai 1.7.4, Chat Completions only. Read in this order:

* ``_convert_message_to_dict`` -- a message as the API receives it (the request),
* ``ChatOpenAI._get_request_payload`` -- the whole request: settings, call kwargs, messages,
* ``_convert_dict_to_message`` / ``_create_chat_result`` -- the reply as a message,
* ``_convert_delta_to_message_chunk`` / ``_convert_chunk_to_generation_chunk`` -- streaming,
* ``ChatOpenAI.bind_tools`` -- tools and ``tool_choice``.

The transport is the official ``openai`` SDK, called as langchain-openai calls it
(``client.with_raw_response.create(**payload)``, ``client.create(**payload)`` when streaming).
It is imported only when a request is sent: building a payload needs no SDK, no key and no
network, which is how the course's tracer shows an offline fake's request.

Deviations (the miniature's ``_generate`` returns the message, not a ``ChatResult``):
no Responses API (a request that would need it raises ``NotImplementedError``), no
``response_format`` / ``strict`` / structured-output methods of its own, no async client (async
calls run the sync one), no LangSmith gateway, proxy or custom HTTP client, no
``FunctionMessage`` / ``ChatMessage`` roles; the SDK client is built on the first request
(upstream: in the validator), except that a missing key fails at construction as upstream's
does.

Errors are upstream's: ``_generate`` and ``_stream`` catch the SDK's errors and re-raise them as
``OpenAIAuthenticationError``, ``OpenAIRateLimitError``, ``OpenAIContextOverflowError``... (same
message, ``response``, ``body``; the SDK error as ``__cause__``), each a subclass of the SDK's
class and of a ``miniagent.exceptions.ModelError`` whose ``is_retryable`` the retry middleware
asks. Since the SDK is imported on the first request, those classes are defined then
(``_define_openai_errors``; upstream: at import).
"""

from __future__ import annotations

import json
import os
import re
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict, Field, SecretStr, model_validator

from miniagent.exceptions import (
    ContextOverflowError,
    ModelAPIError,
    ModelAuthenticationError,
    ModelConnectionError,
    ModelInvalidRequestError,
    ModelNotFoundError,
    ModelPermissionDeniedError,
    ModelRateLimitError,
    ModelTimeoutError,
)
from miniagent.messages import (
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    InputTokenDetails,
    OutputTokenDetails,
    SystemMessage,
    ToolMessage,
    UsageMetadata,
    invalid_tool_call,
    tool_call,
    tool_call_chunk,
)
from miniagent.models import BaseChatModel
from miniagent.runnables import RunnableBinding
from miniagent.tools import BaseTool, convert_to_openai_tool

if TYPE_CHECKING:
    import openai

WellKnownTools = (
    "file_search",
    "web_search_preview",
    "web_search",
    "computer_use_preview",
    "code_interpreter",
    "mcp",
    "image_generation",
    "tool_search",
    "apply_patch",
)

_TOOL_EXTRAS_PASSTHROUGH = ("defer_loading", "async")

_RESPONSES_API_ONLY_PREFIXES = (
    "gpt-5-pro",
    "gpt-5.2-pro",
    "gpt-5.4-pro",
    "gpt-5.5-pro",
    "gpt-5.6-sol",
)

_DATA_CONTENT_BLOCK_TYPES = ("image", "video", "audio", "text-plain", "file")
"""The ``type`` of langchain-core's data content blocks (``messages/content.py:913``)."""


# ---- the request: messages ----------------------------------------------------------------


# --8<-- [start:convert_message_to_dict]
def _convert_message_to_dict(message: BaseMessage) -> dict:
    """A message as Chat Completions receives it (``base.py:476``).

    Keys in upstream's order: ``content``, ``name`` (if any), ``role``, then the role's
    extras. Never sent: ``id``, ``response_metadata``, ``usage_metadata``, other
    ``additional_kwargs``; a tool message keeps only ``content``, ``role``, ``tool_call_id``.
    """
    message_dict: dict[str, Any] = {
        "content": _format_message_content(message.content, role=message.type)
    }
    if (name := message.name or message.additional_kwargs.get("name")) is not None:
        message_dict["name"] = name

    # populate role and additional message data
    if isinstance(message, HumanMessage):
        message_dict["role"] = "user"
    elif isinstance(message, AIMessage):
        message_dict["role"] = "assistant"
        if message.tool_calls or message.invalid_tool_calls:
            message_dict["tool_calls"] = [
                _lc_tool_call_to_openai_tool_call(tc) for tc in message.tool_calls
            ] + [_lc_invalid_tool_call_to_openai_tool_call(tc) for tc in message.invalid_tool_calls]
        elif "tool_calls" in message.additional_kwargs:
            message_dict["tool_calls"] = message.additional_kwargs["tool_calls"]
            tool_call_supported_props = {"id", "type", "function"}
            message_dict["tool_calls"] = [
                {k: v for k, v in tool_call.items() if k in tool_call_supported_props}
                for tool_call in message_dict["tool_calls"]
            ]
        elif "function_call" in message.additional_kwargs:
            # OpenAI raises 400 if both function_call and tool_calls are present.
            message_dict["function_call"] = message.additional_kwargs["function_call"]
        else:
            pass
        # With tool calls, an empty content is sent as null, not "".
        if "function_call" in message_dict or "tool_calls" in message_dict:
            message_dict["content"] = message_dict["content"] or None

        audio: dict[str, Any] | None = None
        for block in message.content:
            if (
                isinstance(block, dict)
                and block.get("type") == "audio"
                and (id_ := block.get("id"))
            ):
                audio = {"id": id_}  # the API takes back only the id of its own audio
        if not audio and "audio" in message.additional_kwargs:
            raw_audio = message.additional_kwargs["audio"]
            audio = (
                {"id": message.additional_kwargs["audio"]["id"]} if "id" in raw_audio else raw_audio
            )
        if audio:
            message_dict["audio"] = audio
    elif isinstance(message, SystemMessage):
        message_dict["role"] = message.additional_kwargs.get("__openai_role__", "system")
    elif isinstance(message, ToolMessage):
        message_dict["role"] = "tool"
        message_dict["tool_call_id"] = message.tool_call_id
        message_dict["content"] = _sanitize_chat_completions_content(message_dict["content"])
        supported_props = {"content", "role", "tool_call_id"}
        message_dict = {k: v for k, v in message_dict.items() if k in supported_props}
    else:
        msg = f"Got unknown type {message}"
        raise TypeError(msg)
    return message_dict


# --8<-- [end:convert_message_to_dict]


def _format_message_content(content: Any, role: str | None = None) -> Any:
    """List content for Chat Completions (``base.py:385``).

    Blocks of other providers' reasoning and tool use are dropped; langchain's standard
    image / file / audio blocks become OpenAI's; Anthropic image blocks become ``image_url``;
    anything else passes verbatim. Upstream first rejects ``additional_tools`` blocks and
    keeps prompt-cache breakpoints; neither is in the miniature.
    """
    if content and isinstance(content, list):
        formatted_content = []
        for block in content:
            # Remove unexpected block types
            if (
                isinstance(block, dict)
                and "type" in block
                and block["type"]
                in (
                    "tool_use",
                    "thinking",
                    "reasoning_content",
                    "function_call",
                    "code_interpreter_call",
                )
            ):
                continue
            if isinstance(block, dict) and _is_data_content_block(block):
                formatted_content.append(_convert_to_openai_data_block(block))
            # Anthropic image blocks
            elif (
                isinstance(block, dict)
                and block.get("type") == "image"
                and (source := block.get("source"))
                and isinstance(source, dict)
            ):
                if source.get("type") == "base64" and (
                    (media_type := source.get("media_type")) and (data := source.get("data"))
                ):
                    formatted_content.append(
                        {
                            "type": "image_url",
                            "image_url": {"url": f"data:{media_type};base64,{data}"},
                        }
                    )
                elif source.get("type") == "url" and (url := source.get("url")):
                    formatted_content.append({"type": "image_url", "image_url": {"url": url}})
                else:
                    continue
            else:
                formatted_content.append(block)
    else:
        formatted_content = content
    return formatted_content


def _is_data_content_block(block: dict[str, Any]) -> bool:
    """Is ``block`` an image / audio / file block? (``langchain_core/messages/content.py:937``)."""
    if block.get("type") not in _DATA_CONTENT_BLOCK_TYPES:
        return False
    if any(key in block for key in ("url", "base64", "file_id", "text")):
        # a "text" block is a data block only in the old style, with a source_type
        return not (block["type"] == "text" and "source_type" not in block)
    if "source_type" in block:
        source_type = block["source_type"]
        if (source_type == "url" and "url" in block) or (
            source_type == "base64" and "data" in block
        ):
            return True
        if (source_type == "id" and "id" in block) or (source_type == "text" and "url" in block):
            return True
    return False


def _convert_to_openai_data_block(block: dict[str, Any]) -> dict[str, Any]:
    """A standard data block in Chat Completions' format.

    ``langchain_core/messages/block_translators/openai.py:58`` (``api="chat/completions"``).
    """
    if block["type"] == "image":
        if "url" in block:
            return {"type": "image_url", "image_url": {"url": block["url"]}}
        if "base64" in block or block.get("source_type") == "base64":
            if "mime_type" not in block:
                raise ValueError("mime_type key is required for base64 data.")
            base64_data = block["data"] if "data" in block else block["base64"]
            return {
                "type": "image_url",
                "image_url": {"url": f"data:{block['mime_type']};base64,{base64_data}"},
            }
        raise ValueError("Unsupported source type. Only 'url' and 'base64' are supported.")
    if block["type"] == "file":
        if block.get("source_type") == "base64" or "base64" in block:
            base64_data = block["data"] if "source_type" in block else block["base64"]
            file = {"file_data": f"data:{block['mime_type']};base64,{base64_data}"}
            if filename := block.get("filename"):
                file["filename"] = filename
            elif (extras := block.get("extras")) and ("filename" in extras):
                file["filename"] = extras["filename"]
            elif (extras := block.get("metadata")) and ("filename" in extras):
                file["filename"] = extras["filename"]
            else:
                file["filename"] = "LC_AUTOGENERATED"
                warnings.warn(
                    "OpenAI may require a filename for file uploads. Specify a filename"
                    " in the content block, e.g.: {'type': 'file', 'mime_type': "
                    "'...', 'base64': '...', 'filename': 'my-file.pdf'}. "
                    "Using placeholder filename 'LC_AUTOGENERATED'.",
                    stacklevel=1,
                )
            return {"type": "file", "file": file}
        if block.get("source_type") == "id" or "file_id" in block:
            file_id = block["id"] if "source_type" in block else block["file_id"]
            return {"type": "file", "file": {"file_id": file_id}}
        if "url" in block:
            raise ValueError("OpenAI Chat Completions does not support file URLs.")
        raise ValueError("Keys base64, url, or file_id required for file blocks.")
    if block["type"] == "audio":
        if "base64" in block or block.get("source_type") == "base64":
            base64_data = block["data"] if "source_type" in block else block["base64"]
            audio_format = block["mime_type"].split("/")[-1]
            return {
                "type": "input_audio",
                "input_audio": {"data": base64_data, "format": audio_format},
            }
        raise ValueError("Key base64 is required for audio blocks.")
    raise ValueError(f"Block of type {block['type']} is not supported.")


def _sanitize_chat_completions_content(content: str | list[dict]) -> str | list[dict]:
    """A tool message's text blocks keep only ``type`` and ``text`` (``base.py:309``)."""
    if isinstance(content, list):
        sanitized = []
        for block in content:
            if isinstance(block, dict) and block.get("type") == "text" and "text" in block:
                sanitized.append({"type": "text", "text": block["text"]})
            else:
                sanitized.append(block)
        return sanitized
    return content


def _convert_from_v1_to_chat_completions(message: AIMessage) -> AIMessage:
    """An AI message's list content, cut to what Chat Completions takes (``_compat.py:169``).

    Text blocks lose their annotations; ``reasoning`` and tool-call blocks are dropped (the
    tool calls travel in ``tool_calls``).
    """
    if isinstance(message.content, list):
        new_content: list = []
        for block in message.content:
            if isinstance(block, dict):
                block_type = block.get("type")
                if block_type == "text":
                    new_content.append({"type": "text", "text": block["text"]})  # no annotations
                elif block_type == "refusal":
                    if block.get("refusal"):  # a refusal without text has nothing to send
                        new_content.append({"type": "refusal", "refusal": block["refusal"]})
                elif block_type in ("reasoning", "tool_call", "invalid_tool_call"):
                    pass
                else:
                    new_content.append(block)
            else:
                new_content.append(block)
        return message.model_copy(update={"content": new_content})
    return message


def _lc_tool_call_to_openai_tool_call(tool_call: dict) -> dict:
    """``{"type": "function", "id", "function": {"name", "arguments"}}`` (``base.py:4299``).

    The arguments are ``json.dumps``'d with its default separators (``", "``, ``": "``).
    """
    return {
        "type": "function",
        "id": tool_call["id"],
        "function": {
            "name": tool_call["name"],
            "arguments": json.dumps(tool_call["args"], ensure_ascii=False),
        },
    }


def _lc_invalid_tool_call_to_openai_tool_call(invalid_tool_call: dict) -> dict:
    """An invalid tool call goes back with its raw arguments string (``base.py:4310``)."""
    return {
        "type": "function",
        "id": invalid_tool_call["id"],
        "function": {"name": invalid_tool_call["name"], "arguments": invalid_tool_call["args"]},
    }


# ---- the reply ------------------------------------------------------------------------------


# --8<-- [start:convert_dict_to_message]
def _convert_dict_to_message(_dict: Mapping[str, Any]) -> BaseMessage:
    """A Chat Completions message as a message (``base.py:220``).

    An assistant's tool calls are parsed from their JSON ``arguments``; a call whose arguments
    are not JSON becomes an ``invalid_tool_call`` carrying the parser's error.
    """
    role = _dict.get("role")
    name = _dict.get("name")
    id_ = _dict.get("id")
    if role == "user":
        return HumanMessage(content=_dict.get("content", ""), id=id_, name=name)
    if role == "assistant":
        # OpenAI returns None content for tool invocations
        content = _dict.get("content", "") or ""
        additional_kwargs: dict = {}
        if function_call := _dict.get("function_call"):
            additional_kwargs["function_call"] = dict(function_call)
        tool_calls = []
        invalid_tool_calls = []
        if raw_tool_calls := _dict.get("tool_calls"):
            for raw_tool_call in raw_tool_calls:
                try:
                    tool_calls.append(parse_tool_call(raw_tool_call, return_id=True))
                except Exception as e:
                    invalid_tool_calls.append(make_invalid_tool_call(raw_tool_call, str(e)))
        if audio := _dict.get("audio"):
            additional_kwargs["audio"] = audio
        if refusal := _dict.get("refusal"):
            additional_kwargs["refusal"] = refusal
        return AIMessage(
            content=content,
            additional_kwargs=additional_kwargs,
            name=name,
            id=id_,
            tool_calls=tool_calls,
            invalid_tool_calls=invalid_tool_calls,
        )
    if role in ("system", "developer"):
        additional_kwargs = {"__openai_role__": role} if role == "developer" else {}
        return SystemMessage(
            content=_dict.get("content", ""),
            name=name,
            id=id_,
            additional_kwargs=additional_kwargs,
        )
    if role == "tool":
        additional_kwargs = {}
        if "name" in _dict:
            additional_kwargs["name"] = _dict["name"]
        return ToolMessage(
            content=_dict.get("content", ""),
            tool_call_id=_dict.get("tool_call_id"),
            additional_kwargs=additional_kwargs,
            name=name,
            id=id_,
        )
    # upstream: FunctionMessage for "function", ChatMessage for any other role
    msg = f"miniagent has no message class for the role {role!r} (upstream: ChatMessage)"
    raise NotImplementedError(msg)


# --8<-- [end:convert_dict_to_message]


def parse_tool_call(raw_tool_call: dict[str, Any], *, return_id: bool = True) -> dict | None:
    """One raw tool call -> a tool call (``langchain_core/output_parsers/openai_tools.py:27``).

    Empty arguments (or JSON ``null``) give ``{}``; arguments that are not JSON raise
    ``OutputParserException``.
    """
    from miniagent.models import OutputParserException

    if "function" not in raw_tool_call:
        return None
    arguments = raw_tool_call["function"]["arguments"]
    function_name = raw_tool_call["function"]["name"]
    if not arguments:  # a tool without parameters
        function_args = {}
    else:
        try:
            function_args = json.loads(arguments, strict=False)
        except json.JSONDecodeError as e:
            msg = (
                f"Function {function_name} arguments:\n\n{arguments}\n\n"
                f"are not valid JSON. Received JSONDecodeError {e}"
            )
            raise OutputParserException(msg) from e
    parsed = {"name": function_name or "", "args": function_args or {}}
    if return_id:
        parsed["id"] = raw_tool_call.get("id")
        parsed = tool_call(**parsed)
    return parsed


def make_invalid_tool_call(raw_tool_call: dict[str, Any], error_msg: str | None) -> dict:
    """A raw tool call that did not parse (``langchain_core/output_parsers/openai_tools.py:81``)."""
    return invalid_tool_call(
        name=raw_tool_call["function"]["name"],
        args=raw_tool_call["function"]["arguments"],
        id=raw_tool_call.get("id"),
        error=error_msg,
    )


def _create_usage_metadata(oai_token_usage: dict, service_tier: str | None = None) -> UsageMetadata:
    """OpenAI's ``usage`` as ``UsageMetadata`` (``base.py:4529``).

    ``None`` counts are 0, the total defaults to their sum, details with ``None`` are dropped;
    the ``priority``/``flex`` tiers prefix their detail keys and add their own count.
    """
    _input = oai_token_usage.get("prompt_tokens")
    input_tokens = _input if _input is not None else 0
    _output = oai_token_usage.get("completion_tokens")
    output_tokens = _output if _output is not None else 0
    _total = oai_token_usage.get("total_tokens")
    total_tokens = _total if _total is not None else input_tokens + output_tokens
    if service_tier not in {"priority", "flex"}:
        service_tier = None
    service_tier_prefix = f"{service_tier}_" if service_tier else ""
    prompt_tokens_details = oai_token_usage.get("prompt_tokens_details") or {}
    input_token_details: dict = {
        "audio": prompt_tokens_details.get("audio_tokens"),
        f"{service_tier_prefix}cache_read": prompt_tokens_details.get("cached_tokens"),
        f"{service_tier_prefix}cache_creation": prompt_tokens_details.get("cache_write_tokens"),
    }
    output_token_details: dict = {
        "audio": (oai_token_usage.get("completion_tokens_details") or {}).get("audio_tokens"),
        f"{service_tier_prefix}reasoning": (
            oai_token_usage.get("completion_tokens_details") or {}
        ).get("reasoning_tokens"),
    }
    if service_tier is not None:
        # cache reads and reasoning are priced apart from the tier's own tokens
        input_token_details[service_tier] = input_tokens - (
            input_token_details.get(f"{service_tier_prefix}cache_read", 0) or 0
        )
        output_token_details[service_tier] = output_tokens - (
            output_token_details.get(f"{service_tier_prefix}reasoning", 0) or 0
        )
    return UsageMetadata(
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        total_tokens=total_tokens,
        input_token_details=InputTokenDetails(
            **{k: v for k, v in input_token_details.items() if v is not None}
        ),
        output_token_details=OutputTokenDetails(
            **{k: v for k, v in output_token_details.items() if v is not None}
        ),
    )


# ---- streaming ------------------------------------------------------------------------------


# --8<-- [start:convert_delta_to_message_chunk]
def _convert_delta_to_message_chunk(
    _dict: Mapping[str, Any], default_class: type[AIMessageChunk]
) -> AIMessageChunk:
    """One streamed ``delta`` as a chunk (``base.py:558``).

    Each streamed tool call becomes a ``tool_call_chunk`` with its ``index``: chunks with the
    same index merge when added, their ``args`` strings concatenated. A delta whose tool
    calls lack an ``index`` keeps none (the ``KeyError`` is swallowed, as upstream).
    The miniature has only ``AIMessageChunk`` (upstream picks the class from the role).
    """
    id_ = _dict.get("id")
    content = _dict.get("content") or ""
    additional_kwargs: dict = {}
    if _dict.get("function_call"):
        function_call = dict(_dict["function_call"])
        if "name" in function_call and function_call["name"] is None:
            function_call["name"] = ""
        additional_kwargs["function_call"] = function_call
    tool_call_chunks = []
    if raw_tool_calls := _dict.get("tool_calls"):
        try:
            tool_call_chunks = [
                tool_call_chunk(
                    name=rtc["function"].get("name"),
                    args=rtc["function"].get("arguments"),
                    id=rtc.get("id"),
                    index=rtc["index"],
                )
                for rtc in raw_tool_calls
            ]
        except KeyError:
            pass
    return default_class(
        content=content,
        additional_kwargs=additional_kwargs,
        id=id_,
        tool_call_chunks=tool_call_chunks,
    )


# --8<-- [end:convert_delta_to_message_chunk]


def _use_responses_api(payload: dict) -> bool:
    """Would this payload need the Responses API? (``base.py:4629``)."""
    uses_builtin_tools = "tools" in payload and any(
        "type" in tool and tool["type"] != "function" for tool in payload["tools"]
    )
    responses_only_args = {
        "context_management",
        "include",
        "previous_response_id",
        "reasoning",
        "text",
        "truncation",
    }
    return bool(uses_builtin_tools or responses_only_args.intersection(payload))


def _model_prefers_responses_api(model_name: str | None) -> bool:
    """Models served only by the Responses API (``base.py:776``)."""
    if not model_name:
        return False
    return model_name.startswith(_RESPONSES_API_ONLY_PREFIXES) or "codex" in model_name


# ---- errors: the SDK's, re-raised as langchain-core's model errors --------------------------

_OPENAI_ERRORS = (
    "OpenAIContextOverflowError",
    "OpenAIAPIContextOverflowError",
    "OpenAIAuthenticationError",
    "OpenAIPermissionDeniedError",
    "OpenAIInvalidRequestError",
    "OpenAIModelNotFoundError",
    "OpenAIRateLimitError",
    "OpenAIAPIError",
    "OpenAIConnectionError",
    "OpenAITimeoutError",
)
"""Upstream's error classes (``base.py:642``-``681``), defined once the SDK is imported."""


# --8<-- [start:define_openai_errors]
def _define_openai_errors() -> None:
    """Define upstream's ten error classes (``base.py:642``), each an SDK error and a model error.

    Not upstream: langchain-openai imports ``openai`` and defines them at module level. The
    miniature imports the SDK on the first request, so it does both then
    (``_ensure_sync_client_available``), or when a class is looked up by name
    (``from miniagent.openai.chat_models.base import OpenAIRateLimitError``); ``global`` makes
    the import and each class statement bind the module-level name, as upstream's do.
    """
    global OpenAIContextOverflowError, OpenAIAPIContextOverflowError, OpenAIAuthenticationError
    global OpenAIPermissionDeniedError, OpenAIInvalidRequestError, OpenAIModelNotFoundError
    global OpenAIRateLimitError, OpenAIAPIError, OpenAIConnectionError, OpenAITimeoutError
    global openai  # the module-level name the handlers below use, as upstream's
    if "OpenAITimeoutError" in globals():
        return
    import openai

    class OpenAIContextOverflowError(openai.BadRequestError, ContextOverflowError):
        """BadRequestError raised when input exceeds OpenAI's context limit."""

    class OpenAIAPIContextOverflowError(openai.APIError, ContextOverflowError):
        """APIError raised when input exceeds OpenAI's context limit."""

    class OpenAIAuthenticationError(openai.AuthenticationError, ModelAuthenticationError):
        """OpenAI authentication error classified as a LangChain model error."""

    class OpenAIPermissionDeniedError(openai.PermissionDeniedError, ModelPermissionDeniedError):
        """OpenAI permission error classified as a LangChain model error."""

    class OpenAIInvalidRequestError(openai.BadRequestError, ModelInvalidRequestError):
        """OpenAI bad-request error classified as a LangChain model error."""

    class OpenAIModelNotFoundError(openai.NotFoundError, ModelNotFoundError):
        """OpenAI not-found error classified as a LangChain model error."""

    class OpenAIRateLimitError(openai.RateLimitError, ModelRateLimitError):
        """OpenAI rate-limit error classified as a LangChain model error."""

    class OpenAIAPIError(openai.InternalServerError, ModelAPIError):
        """OpenAI server error classified as a LangChain model error."""

    class OpenAIConnectionError(openai.APIConnectionError, ModelConnectionError):
        """OpenAI connection error classified as a LangChain model error."""

    class OpenAITimeoutError(openai.APITimeoutError, ModelTimeoutError):
        """OpenAI timeout error classified as a LangChain model error."""


# --8<-- [end:define_openai_errors]


def __getattr__(name: str) -> Any:
    """``OpenAIRateLimitError`` & co. by name: defined on first access (imports the SDK)."""
    if name in _OPENAI_ERRORS:
        _define_openai_errors()
        return globals()[name]
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


# --8<-- [start:handle_openai_errors]
def _handle_openai_bad_request(e: openai.BadRequestError) -> None:
    """A 400 as a context overflow or an invalid request (``base.py:684``)."""
    if (
        "context_length_exceeded" in str(e)
        or "Input tokens exceed the configured limit" in e.message
        or "prompt is too long" in e.message
        or "ContextWindowExceededError" in e.message
    ):
        raise OpenAIContextOverflowError(message=e.message, response=e.response, body=e.body) from e
    if ("'response_format' of type 'json_schema' is not supported with this model") in e.message:
        message = (
            "This model does not support OpenAI's structured output feature, which "
            "is the default method for `with_structured_output` as of "
            "langchain-openai==0.3. To use `with_structured_output` with this model, "
            'specify `method="function_calling"`.'
        )
        warnings.warn(message)  # noqa: B028 (upstream: no stacklevel)
        raise OpenAIInvalidRequestError(message=e.message, response=e.response, body=e.body) from e
    if "Invalid schema for response_format" in e.message:
        message = (
            "Invalid schema for OpenAI's structured output feature, which is the "
            "default method for `with_structured_output` as of langchain-openai==0.3. "
            'Specify `method="function_calling"` instead or update your schema. '
            "See supported schemas: "
            "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas"
        )
        warnings.warn(message)  # noqa: B028 (upstream: no stacklevel)
    raise OpenAIInvalidRequestError(message=e.message, response=e.response, body=e.body) from e


def _handle_openai_api_error(e: openai.APIError) -> None:
    """Any other SDK error by its class; one upstream does not classify is re-raised
    as it is (a 422, a 409...) (``base.py:721``)."""
    error_message = str(e)
    if "exceeds the context window" in error_message:
        raise OpenAIAPIContextOverflowError(
            message=e.message, request=e.request, body=e.body
        ) from e
    if isinstance(e, openai.AuthenticationError):
        raise OpenAIAuthenticationError(message=e.message, response=e.response, body=e.body) from e
    if isinstance(e, openai.PermissionDeniedError):
        raise OpenAIPermissionDeniedError(
            message=e.message, response=e.response, body=e.body
        ) from e
    if isinstance(e, openai.NotFoundError):
        raise OpenAIModelNotFoundError(message=e.message, response=e.response, body=e.body) from e
    if isinstance(e, openai.RateLimitError):
        raise OpenAIRateLimitError(message=e.message, response=e.response, body=e.body) from e
    if isinstance(e, openai.InternalServerError):
        raise OpenAIAPIError(message=e.message, response=e.response, body=e.body) from e
    if isinstance(e, openai.APITimeoutError):
        raise OpenAITimeoutError(e.request) from e
    if isinstance(e, openai.APIConnectionError):
        raise OpenAIConnectionError(message=e.message, request=e.request) from e
    raise


# --8<-- [end:handle_openai_errors]


# ---- the model ------------------------------------------------------------------------------


class BaseChatOpenAI(BaseChatModel):
    """A chat model behind an OpenAI-compatible endpoint (``base.py:787``).

    ``model``, ``api_key``, ``base_url``, ``timeout`` and ``max_retries`` are the fields'
    aliases, as upstream. The key lives in a ``SecretStr``: it never shows in ``repr``,
    ``str`` or the callbacks' parameters, and is read out only to build the SDK client.
    """

    model_config = ConfigDict(populate_by_name=True)

    client: Any = Field(default=None, exclude=True)
    root_client: Any = Field(default=None, exclude=True)
    model_name: str = Field(default="gpt-3.5-turbo", alias="model")
    temperature: float | None = None
    model_kwargs: dict[str, Any] = Field(default_factory=dict)
    openai_api_key: SecretStr | None = Field(alias="api_key", default=None)
    openai_api_base: str | None = Field(default=None, alias="base_url")
    openai_organization: str | None = Field(default=None, alias="organization")
    request_timeout: float | tuple[float, float] | Any | None = Field(default=None, alias="timeout")
    stream_usage: bool | None = None
    max_retries: int | None = None
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    seed: int | None = None
    logprobs: bool | None = None
    top_logprobs: int | None = None
    logit_bias: dict[int, int] | None = None
    streaming: bool = False
    n: int | None = None
    top_p: float | None = None
    max_tokens: int | None = Field(default=None)
    reasoning_effort: str | None = None
    verbosity: str | None = None
    default_headers: Mapping[str, str] | None = None
    default_query: Mapping[str, object] | None = None
    stop: list[str] | str | None = Field(default=None, alias="stop_sequences")
    extra_body: Mapping[str, Any] | None = None
    service_tier: str | None = None
    store: bool | None = None
    use_responses_api: bool | None = None

    @model_validator(mode="before")
    @classmethod
    def build_extra(cls, values: dict[str, Any]) -> Any:
        """Unknown constructor arguments move to ``model_kwargs``, with a warning (``base.py:1328``).

        ``langchain_core/utils/utils.py:216``.
        """
        all_required_field_names = set(cls.model_fields) | {
            f.alias for f in cls.model_fields.values() if f.alias
        }
        extra_kwargs = values.get("model_kwargs", {})
        for field_name in list(values):
            if field_name in extra_kwargs:
                raise ValueError(f"Found {field_name} supplied twice.")
            if field_name not in all_required_field_names:
                warnings.warn(
                    f"""WARNING! {field_name} is not default parameter.
                {field_name} was transferred to model_kwargs.
                Please confirm that {field_name} is what you intended.""",
                    stacklevel=7,
                )
                extra_kwargs[field_name] = values.pop(field_name)
        invalid_model_kwargs = all_required_field_names.intersection(extra_kwargs.keys())
        if invalid_model_kwargs:
            warnings.warn(
                f"Parameters {invalid_model_kwargs} should be specified explicitly. "
                f"Instead they were passed in as part of `model_kwargs` parameter.",
                stacklevel=7,
            )
            for k in invalid_model_kwargs:
                values[k] = extra_kwargs.pop(k)
        values["model_kwargs"] = extra_kwargs
        return values

    @model_validator(mode="before")
    @classmethod
    def validate_temperature(cls, values: dict[str, Any]) -> Any:
        """``o1`` defaults to ``temperature=1``; ``gpt-5`` (not chat) drops any other (``base.py:1356``)."""
        model = values.get("model_name") or values.get("model") or ""
        model_lower = model.lower()
        if model_lower.startswith("o1") and "temperature" not in values:
            values["temperature"] = 1
        if (
            model_lower.startswith("gpt-5")
            and ("chat" not in model_lower)
            and values.get("reasoning_effort") != "none"
            and (values.get("reasoning") or {}).get("effort") != "none"
        ):
            temperature = values.get("temperature")
            if temperature is not None and temperature != 1:
                values.pop("temperature", None)
        return values

    # --8<-- [start:validate_environment]
    @model_validator(mode="after")
    def validate_environment(self) -> BaseChatOpenAI:
        """Resolve the key, the endpoint and the organisation (``base.py:1408``).

        First wins: the argument, then ``OPENAI_API_KEY`` / ``OPENAI_API_BASE`` (the SDK itself
        reads ``OPENAI_BASE_URL``) / ``OPENAI_ORG_ID`` or ``OPENAI_ORGANIZATION``. Usage is
        streamed by default only against OpenAI itself: a custom endpoint may not support it.
        """
        if self.n is not None and self.n < 1:
            raise ValueError("n must be at least 1.")
        if self.n is not None and self.n > 1 and self.streaming:
            raise ValueError("n must be 1 when streaming.")
        self.openai_organization = (
            self.openai_organization
            or os.getenv("OPENAI_ORG_ID")
            or os.getenv("OPENAI_ORGANIZATION")
        )
        self.openai_api_base = self.openai_api_base or os.getenv("OPENAI_API_BASE") or None
        if self.openai_api_key is None and (env_key := os.getenv("OPENAI_API_KEY")):
            self.openai_api_key = SecretStr(env_key)
        if all(getattr(self, key, None) is None for key in ("stream_usage", "client")) and (
            self.openai_api_base is None and "OPENAI_BASE_URL" not in os.environ
        ):
            self.stream_usage = True
        if self.openai_api_key is None:
            self._build_client()  # the SDK raises its "Missing credentials" error, as upstream
        return self

    # --8<-- [end:validate_environment]

    def _build_client(self) -> None:
        """``openai.OpenAI(...)`` and its ``chat.completions`` (``base.py:1526``, ``1527``)."""
        try:
            import openai
        except ImportError as e:
            msg = (
                "miniagent's ChatOpenAI sends requests with the openai package. "
                'Please install it with `pip install "miniagent[openai]"`'
            )
            raise ImportError(msg) from e
        client_params: dict = {
            "organization": self.openai_organization,
            "base_url": self.openai_api_base,
            "timeout": self.request_timeout,
            "default_headers": self.default_headers,
            "default_query": self.default_query,
        }
        if self.max_retries is not None:
            client_params["max_retries"] = self.max_retries
        api_key = self.openai_api_key.get_secret_value() if self.openai_api_key else None
        self.root_client = openai.OpenAI(**client_params, api_key=api_key)
        self.client = self.root_client.chat.completions

    def _ensure_sync_client_available(self) -> None:
        """Build the SDK client on the first request (upstream builds it in the validator),
        and define the error classes its errors are re-raised as."""
        if self.client is None:
            self._build_client()
        _define_openai_errors()

    @property
    def _default_params(self) -> dict[str, Any]:
        """The settings every request carries (``base.py:1564``): ``model``, ``stream``, then
        the non-``None`` ones, then ``model_kwargs``."""
        exclude_if_none = {
            "presence_penalty": self.presence_penalty,
            "frequency_penalty": self.frequency_penalty,
            "seed": self.seed,
            "top_p": self.top_p,
            "logprobs": self.logprobs,
            "top_logprobs": self.top_logprobs,
            "logit_bias": self.logit_bias,
            "stop": self.stop or None,  # Also exclude empty list for this
            "max_tokens": self.max_tokens,
            "extra_body": self.extra_body,
            "n": self.n,
            "temperature": self.temperature,
            "reasoning_effort": self.reasoning_effort,
            "verbosity": self.verbosity,
            "service_tier": self.service_tier,
            "store": self.store,
        }
        return {
            "model": self.model_name,
            "stream": self.streaming,
            **{k: v for k, v in exclude_if_none.items() if v is not None},
            **self.model_kwargs,
        }

    @property
    def _identifying_params(self) -> dict[str, Any]:
        """``model_name`` and the default parameters (``base.py:2323``)."""
        return {"model_name": self.model_name, **self._default_params}

    def _get_invocation_params(
        self, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """The parameters of one call, for the callbacks (``base.py:2327``).

        Upstream also redacts the headers of remote MCP tools, which only the Responses API takes.
        """
        return {
            "model": self.model_name,
            **super()._get_invocation_params(stop=stop),
            **self._default_params,
            **kwargs,
        }

    @property
    def _llm_type(self) -> str:
        return "openai-chat"

    def _use_responses_api(self, payload: dict) -> bool:
        """Does this request need the Responses API? (``base.py:2016``)."""
        if isinstance(self.use_responses_api, bool):
            return self.use_responses_api
        if _model_prefers_responses_api(self.model_name) or (
            (self.model_name or "").lower().startswith("gpt-6") and payload.get("tools")
        ):
            return True
        return _use_responses_api(payload)

    # --8<-- [start:get_request_payload]
    def _get_request_payload(
        self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict:
        """The request body, as a dict (``base.py:2035``).

        The model's settings, then the call's kwargs (``tools``, ``tool_choice``,
        ``parallel_tool_calls`` bound by ``bind_tools``; ``stream``), then ``messages`` last.
        """
        messages = self._convert_input(input_)
        if stop is not None:
            kwargs["stop"] = stop

        payload = {**self._default_params, **kwargs}

        if self._use_responses_api(payload):
            msg = (
                "miniagent's ChatOpenAI speaks Chat Completions only; this request needs "
                "OpenAI's Responses API (langchain_openai.ChatOpenAI routes it there)."
            )
            raise NotImplementedError(msg)
        payload["messages"] = [
            _convert_message_to_dict(_convert_from_v1_to_chat_completions(m))
            if isinstance(m, AIMessage)
            else _convert_message_to_dict(m)
            for m in messages
        ]
        return payload

    # --8<-- [end:get_request_payload]

    # --8<-- [start:generate]
    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, **kwargs: Any
    ) -> AIMessage:
        """Send the request, parse the reply (``base.py:1944``); the SDK's errors are re-raised
        as upstream's (``_handle_openai_bad_request``, ``_handle_openai_api_error``)."""
        self._ensure_sync_client_available()  # and binds `openai`, imported on the first request
        payload = self._get_request_payload(messages, stop=stop, **kwargs)
        raw_response = None
        try:
            raw_response = self.client.with_raw_response.create(**payload)
            response = raw_response.parse()
        except openai.BadRequestError as e:
            _handle_openai_bad_request(e)
        except openai.APIError as e:
            _handle_openai_api_error(e)
        except Exception as e:
            if raw_response is not None and hasattr(raw_response, "http_response"):
                e.response = raw_response.http_response  # type: ignore[attr-defined]
            raise e
        return self._create_chat_result(response)

    # --8<-- [end:generate]

    def _create_chat_result(
        self, response: dict | Any, generation_info: dict | None = None
    ) -> AIMessage:
        """The reply as a message (``base.py:2066``).

        Upstream returns a ``ChatResult``; the core merges its ``llm_output`` and each
        choice's ``generation_info`` into ``response_metadata`` (``chat_models.py:2082``), so
        we do that here and return the first choice's message.
        """
        import openai

        if not isinstance(response, dict | openai.BaseModel):
            # parse() gives a str for a body that is not JSON, e.g. an HTML error page
            preview = repr(response)
            if len(preview) > 200:
                preview = f"{preview[:200]}..."
            msg = (
                "Unexpected response type from OpenAI-compatible endpoint. "
                "Expected a dict or openai.BaseModel, got "
                f"{type(response).__name__}: {preview}"
            )
            raise ValueError(msg)

        response_dict = (
            response
            if isinstance(response, dict)
            else response.model_dump(
                exclude={"choices": {"__all__": {"message": {"parsed"}}}}, warnings=False
            )
        )
        if response_dict.get("error"):
            raise ValueError(response_dict.get("error"))
        try:
            choices = response_dict["choices"]
        except KeyError as e:
            msg = f"Response missing 'choices' key: {response_dict.keys()}"
            raise KeyError(msg) from e
        if choices is None:
            msg = (
                "Received response with null value for 'choices'. "
                "This can happen when using OpenAI-compatible APIs (e.g., vLLM) "
                "that return a response in an unexpected format. "
                f"Full response keys: {list(response_dict.keys())}"
            )
            raise TypeError(msg)

        token_usage = response_dict.get("usage")
        service_tier = response_dict.get("service_tier")
        generations = []
        for res in choices:
            message = _convert_dict_to_message(res["message"])
            if token_usage and isinstance(message, AIMessage):
                message.usage_metadata = _create_usage_metadata(token_usage, service_tier)
            generation_info = generation_info or {}
            generation_info["finish_reason"] = (
                res.get("finish_reason")
                if res.get("finish_reason") is not None
                else generation_info.get("finish_reason")
            )
            if "logprobs" in res:
                generation_info["logprobs"] = res["logprobs"]
            generations.append((message, generation_info))
        llm_output = {
            "token_usage": token_usage,
            "model_provider": "openai",
            "model_name": response_dict.get("model", self.model_name),
            "system_fingerprint": response_dict.get("system_fingerprint", ""),
        }
        if "id" in response_dict:
            llm_output["id"] = response_dict["id"]
        if service_tier:
            llm_output["service_tier"] = service_tier

        if isinstance(response, openai.BaseModel) and getattr(response, "choices", None):
            sdk_message = response.choices[0].message
            if hasattr(sdk_message, "parsed"):
                generations[0][0].additional_kwargs["parsed"] = sdk_message.parsed
            if hasattr(sdk_message, "refusal"):
                generations[0][0].additional_kwargs["refusal"] = sdk_message.refusal

        message, generation_info = generations[0]
        message.response_metadata = {**generation_info, **message.response_metadata}
        if len(generations) == 1:
            message.response_metadata = {**llm_output, **message.response_metadata}
        return message

    def _should_stream_usage(self, stream_usage: bool | None = None, **kwargs: Any) -> bool:
        """Ask for a final usage chunk? The first bool wins (``base.py:1848``)."""
        stream_usage_sources = [  # order of precedence
            stream_usage,
            kwargs.get("stream_options", {}).get("include_usage"),
            self.model_kwargs.get("stream_options", {}).get("include_usage"),
            self.stream_usage,
        ]
        for source in stream_usage_sources:
            if isinstance(source, bool):
                return source
        return self.stream_usage or False

    def _convert_chunk_to_generation_chunk(
        self, chunk: dict, default_chunk_class: type, base_generation_info: dict | None
    ) -> AIMessageChunk | None:
        """One streamed ``chat.completion.chunk`` as a message chunk (``base.py:1622``).

        Only the chunk with a ``finish_reason`` carries ``model_name`` & co.; a chunk without
        choices (the final usage chunk) has only ``usage_metadata``. Upstream returns a
        ``ChatGenerationChunk``; the core then merges its ``generation_info`` into the message's
        ``response_metadata`` (``chat_models.py:840``), which we do here.
        """
        if chunk.get("type") == "content.delta":  # from beta.chat.completions.stream
            return None
        token_usage = chunk.get("usage")
        choices = chunk.get("choices", []) or chunk.get("chunk", {}).get("choices", [])
        usage_metadata: UsageMetadata | None = (
            _create_usage_metadata(token_usage, chunk.get("service_tier")) if token_usage else None
        )
        if len(choices) == 0:
            message = default_chunk_class(content="", usage_metadata=usage_metadata)
            message.response_metadata = {**(base_generation_info or {})}
            return message

        choice = choices[0]
        if choice["delta"] is None:
            return None
        message_chunk = _convert_delta_to_message_chunk(choice["delta"], default_chunk_class)
        generation_info = {**base_generation_info} if base_generation_info else {}
        if finish_reason := choice.get("finish_reason"):
            generation_info["finish_reason"] = finish_reason
            if model_name := chunk.get("model"):
                generation_info["model_name"] = model_name
            if system_fingerprint := chunk.get("system_fingerprint"):
                generation_info["system_fingerprint"] = system_fingerprint
            if service_tier := chunk.get("service_tier"):
                generation_info["service_tier"] = service_tier
        logprobs = choice.get("logprobs")
        if logprobs:
            generation_info["logprobs"] = logprobs
        if usage_metadata and isinstance(message_chunk, AIMessageChunk):
            message_chunk.usage_metadata = usage_metadata
        message_chunk.response_metadata["model_provider"] = "openai"
        message_chunk.response_metadata = {**generation_info, **message_chunk.response_metadata}
        return message_chunk

    # --8<-- [start:stream]
    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        *,
        stream_usage: bool | None = None,
        **kwargs: Any,
    ) -> Iterator[AIMessageChunk]:
        """Send a streamed request and yield its chunks (``base.py:1867``)."""
        self._ensure_sync_client_available()  # and binds `openai`, imported on the first request
        kwargs["stream"] = True
        stream_usage = self._should_stream_usage(stream_usage, **kwargs)
        if stream_usage:
            kwargs["stream_options"] = {"include_usage": stream_usage}
        payload = self._get_request_payload(messages, stop=stop, **kwargs)
        default_chunk_class: type[AIMessageChunk] = AIMessageChunk
        try:
            response = self.client.create(**payload)
            context_manager = response
            with context_manager as response:
                for chunk in response:
                    if not isinstance(chunk, dict):
                        chunk = chunk.model_dump()
                    generation_chunk = self._convert_chunk_to_generation_chunk(
                        chunk, default_chunk_class, {}
                    )
                    if generation_chunk is None:
                        continue
                    default_chunk_class = generation_chunk.__class__
                    yield generation_chunk
        except openai.BadRequestError as e:
            _handle_openai_bad_request(e)
        except openai.APIError as e:
            _handle_openai_api_error(e)

    # --8<-- [end:stream]

    # --8<-- [start:bind_tools]
    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable | BaseTool],
        *,
        tool_choice: dict | str | bool | None = None,
        strict: bool | None = None,
        parallel_tool_calls: bool | None = None,
        response_format: Any = None,
        **kwargs: Any,
    ) -> RunnableBinding:
        """Bind tools in OpenAI's format, and ``tool_choice`` as the API spells it (``base.py:2511``).

        ``"any"`` and ``True`` become ``"required"``; a bound tool's name becomes
        ``{"type": "function", "function": {"name": ...}}``; other strings pass unchanged.
        """
        if strict is not None or response_format:
            msg = "miniagent's ChatOpenAI.bind_tools has no strict schemas or response_format"
            raise NotImplementedError(msg)
        if parallel_tool_calls is not None:
            kwargs["parallel_tool_calls"] = parallel_tool_calls
        formatted_tools = [convert_to_openai_tool(tool) for tool in tools]
        for original, formatted in zip(tools, formatted_tools, strict=False):
            if isinstance(original, BaseTool) and isinstance(
                getattr(original, "extras", None), dict
            ):
                for key in _TOOL_EXTRAS_PASSTHROUGH:
                    if key in original.extras:
                        formatted[key] = original.extras[key]
        tool_names = []
        for tool in formatted_tools:
            if "function" in tool:
                tool_names.append(tool["function"]["name"])
            elif "name" in tool:
                tool_names.append(tool["name"])
        if tool_choice:
            if isinstance(tool_choice, str):
                if tool_choice in tool_names:  # a tool's name
                    tool_choice = {"type": "function", "function": {"name": tool_choice}}
                elif tool_choice in WellKnownTools:
                    tool_choice = {"type": tool_choice}
                elif tool_choice == "any":  # not OpenAI's word; other providers use it
                    tool_choice = "required"
            elif isinstance(tool_choice, bool):
                tool_choice = "required"
            elif isinstance(tool_choice, dict):
                pass
            else:
                msg = (
                    f"Unrecognized tool_choice type. Expected str, bool or dict. "
                    f"Received: {tool_choice}"
                )
                raise ValueError(msg)
            kwargs["tool_choice"] = tool_choice
        return self.bind(tools=formatted_tools, **kwargs)

    # --8<-- [end:bind_tools]


class ChatOpenAI(BaseChatOpenAI):
    """OpenAI's chat models, and any endpoint that speaks Chat Completions (``base.py:2928``).

    Ollama, vLLM, DeepSeek, Qwen & co.: set ``base_url`` (or ``OPENAI_BASE_URL``) and a key
    (any string for a local server). ``max_tokens`` is sent as ``max_completion_tokens``.
    """

    max_tokens: int | None = Field(default=None, alias="max_completion_tokens")

    @property
    def _default_params(self) -> dict[str, Any]:
        """``max_tokens`` travels as ``max_completion_tokens``, last (``base.py:3837``)."""
        params = super()._default_params
        if "max_tokens" in params:
            params["max_completion_tokens"] = params.pop("max_tokens")
        return params

    def _get_request_payload(
        self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict:
        """A call's ``max_tokens`` too; ``o1``/``o3``... models get ``developer`` for ``system``
        (``base.py:3845``)."""
        payload = super()._get_request_payload(input_, stop=stop, **kwargs)
        # max_tokens was deprecated in favor of max_completion_tokens (September 2024)
        if "max_tokens" in payload:
            payload["max_completion_tokens"] = payload.pop("max_tokens")
        if self.model_name and re.match(r"^o\d", self.model_name):
            for message in payload.get("messages", []):
                if message["role"] == "system":
                    message["role"] = "developer"
        return payload


__all__ = ["BaseChatOpenAI", "ChatOpenAI"]
