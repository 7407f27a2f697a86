"""Fake chat models for tests and notebooks, and helpers that make traces deterministic.

* ``FakeToolCallingModel`` -- the fake langgraph's own agent tests use (langgraph-prebuilt
  1.1.3, ``tests/model.py:22``): echoes the prompt, numbers its replies, cycles tool calls.
* ``ScriptedChatModel`` -- replies from a script, records every call, binds tools in OpenAI
  format (the base class's ``bind_tools`` only raises, as upstream's), and streams tool calls
  (``next_scripted_response`` and ``script_chunks`` do the work; the upstream twin in the
  differential tests uses them too).
* ``GenericFakeChatModel`` -- ``langchain_core/language_models/fake_chat_models.py:227``,
  including its streaming gotcha: ``_stream`` drops tool calls.
* ``normalize_ids`` / ``message_trace`` -- replace random uuids by ``<id-1>``, ``<id-2>``, ...
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Sequence
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, Field

from miniagent.messages import AIMessage, AIMessageChunk, BaseMessage, ToolCall
from miniagent.models import BaseChatModel
from miniagent.runnables import Runnable, RunnableBinding, RunnableLambda

StructuredResponse = Union[dict, BaseModel]
"""What ``with_structured_output`` returns (``langgraph/prebuilt/chat_agent_executor.py:49``)."""


class FakeToolCallingModel(BaseChatModel):
    """The fake model of langgraph's agent tests (langgraph-prebuilt 1.1.3, ``tests/model.py:22``).

    Reply number ``i`` (from 0) has ``content`` = the input messages' contents joined by
    ``"-"``, ``id = str(i)`` and the tool calls ``tool_calls[i % len(tool_calls)]`` -- the list
    cycles, so end it with ``[]`` to let an agent stop.
    """

    tool_calls: Optional[list[list[ToolCall]]] = None
    structured_response: Optional[StructuredResponse] = None
    index: int = 0
    tool_style: Literal["openai", "anthropic"] = "openai"

    # --8<-- [start:generate]
    def _generate(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        """Echo the prompt and return the next scripted tool calls (``tests/model.py:28``)."""
        messages_string = "-".join([m.content for m in messages])
        tool_calls = self.tool_calls[self.index % len(self.tool_calls)] if self.tool_calls else []
        message = AIMessage(
            content=messages_string, id=str(self.index), tool_calls=tool_calls.copy()
        )
        self.index += 1
        return message

    # --8<-- [end:generate]

    @property
    def _llm_type(self) -> str:
        return "fake-tool-call-model"

    def with_structured_output(self, schema: Any) -> Runnable:
        """A Runnable that returns ``structured_response`` (``tests/model.py:52``)."""
        if self.structured_response is None:
            raise ValueError("Structured response is not set")
        return RunnableLambda(lambda x: self.structured_response)

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> RunnableBinding:
        """Bind simplified tool specs; other ``kwargs`` are ignored (``tests/model.py:60``).

        ``{"type": "function", "function": {"name": ...}}`` (openai style) or
        ``{"name": ...}`` (anthropic style) per tool; dicts pass through.
        """
        from miniagent.tools import BaseTool

        if len(tools) == 0:
            raise ValueError("Must provide at least one tool")
        tool_dicts = []
        for tool in tools:
            if isinstance(tool, dict):
                tool_dicts.append(tool)
                continue
            if not isinstance(tool, BaseTool):
                raise TypeError(
                    "Only BaseTool and dict is supported by FakeToolCallingModel.bind_tools"
                )
            if self.tool_style == "openai":
                tool_dicts.append({"type": "function", "function": {"name": tool.name}})
            elif self.tool_style == "anthropic":
                tool_dicts.append({"name": tool.name})
        return self.bind(tools=tool_dicts)


class ScriptedChatModel(BaseChatModel):
    """Replies with deep copies of ``responses``, in order; records each call in ``calls``.

    ``calls[i]`` is ``{"messages": [...], "kwargs": {...}}`` -- the messages the model saw and
    the keyword arguments of the call (``tools``, ``tool_choice`` from ``bind_tools``). Its
    ``_stream`` carries the tool calls as tool-call chunks, so a graph streaming
    ``stream_mode="messages"`` keeps them (compare ``GenericFakeChatModel``).
    """

    responses: list[AIMessage]
    calls: list[dict[str, Any]] = Field(default_factory=list)

    def __init__(self, responses: Sequence[AIMessage], **data: Any) -> None:
        super().__init__(responses=list(responses), **data)

    def _next_response(self, messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        return next_scripted_response(self.responses, self.calls, messages, kwargs)

    def _generate(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        return self._next_response(messages, kwargs)

    def _stream(self, messages: list[BaseMessage], **kwargs: Any) -> Iterator[AIMessageChunk]:
        """Content split on whitespace, then one chunk per tool call; the last is marked."""
        yield from script_chunks(self._next_response(messages, kwargs), AIMessageChunk)

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    def bind_tools(
        self,
        tools: Sequence[Any],
        *,
        tool_choice: Optional[str] = None,
        **kwargs: Any,
    ) -> RunnableBinding:
        """Bind tools as ``ChatOpenAI`` does at heart: each tool in OpenAI format
        (``convert_to_openai_tool``; dicts pass through), and ``tool_choice`` when given.
        The base class's ``bind_tools`` only raises ``NotImplementedError``, as upstream's.
        """
        from miniagent.tools import convert_to_openai_tool

        formatted = [t if isinstance(t, dict) else convert_to_openai_tool(t) for t in tools]
        if tool_choice:
            kwargs["tool_choice"] = tool_choice
        return self.bind(tools=formatted, **kwargs)


def next_scripted_response(
    responses: list[Any], calls: list[dict[str, Any]], messages: list[Any], kwargs: dict[str, Any]
) -> Any:
    """Record a call in ``calls`` and return a deep copy of the next of ``responses``.

    Shared with the upstream twin of ``ScriptedChatModel`` in the differential tests, so both
    libraries run one script the same way.
    """
    n = len(calls) + 1
    calls.append({"messages": list(messages), "kwargs": dict(kwargs)})
    if n > len(responses):
        raise ValueError(
            f"ScriptedChatModel ran out of responses: call #{n}, "
            f"but only {len(responses)} response(s) were scripted."
        )
    return copy.deepcopy(responses[n - 1])


def script_chunks(message: Any, chunk_class: type) -> list[Any]:
    """A scripted reply as stream chunks of ``chunk_class``: the content split on whitespace,
    then one tool-call chunk per tool call (invalid ones too); the last is marked ``"last"``.
    """
    chunks: list[Any] = []
    if isinstance(message.content, str) and message.content:
        for token in re.split(r"(\s)", message.content):
            chunks.append(chunk_class(content=token, id=message.id))
    elif message.content:
        chunks.append(chunk_class(content=message.content, id=message.id))
    calls = [(c["name"], json.dumps(c["args"]), c["id"]) for c in message.tool_calls]
    calls += [(c["name"], c["args"], c["id"]) for c in message.invalid_tool_calls]
    for i, (name, args, call_id) in enumerate(calls):
        tool_call_chunk = {"name": name, "args": args, "id": call_id, "index": i}
        chunks.append(chunk_class(content="", id=message.id, tool_call_chunks=[tool_call_chunk]))
    if not chunks:
        chunks.append(chunk_class(content="", id=message.id))
    chunks[-1].chunk_position = "last"
    return chunks


class GenericFakeChatModel(BaseChatModel):
    """Replies with ``next(messages)`` (``langchain_core/language_models/fake_chat_models.py:227``).

    Pass an iterator: ``GenericFakeChatModel(messages=iter(["hi", AIMessage("bye")]))``.
    Its ``_stream`` splits the content on whitespace and re-emits ``additional_kwargs`` --
    but not ``tool_calls``: on the streaming path (``stream_mode="messages"``) they are lost.
    """

    messages: Iterator[Union[AIMessage, str]]

    def _generate(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        message = next(self.messages)
        return AIMessage(content=message) if isinstance(message, str) else message

    def _stream(self, messages: list[BaseMessage], **kwargs: Any) -> Iterator[AIMessageChunk]:
        """``fake_chat_models.py:266``; a ``function_call`` kwarg is not split on commas here."""
        message = self._generate(messages, **kwargs)
        content = message.content
        if content:
            if not isinstance(content, str):
                raise ValueError("Expected content to be a string.")
            tokens = re.split(r"(\s)", content)
            for idx, token in enumerate(tokens):
                chunk = AIMessageChunk(content=token, id=message.id)
                if idx == len(tokens) - 1 and not message.additional_kwargs:
                    chunk.chunk_position = "last"
                yield chunk
        for key, value in message.additional_kwargs.items():
            yield AIMessageChunk(id=message.id, content="", additional_kwargs={key: value})

    @property
    def _llm_type(self) -> str:
        return "generic-fake-chat-model"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> RunnableBinding:
        """Not supported: upstream's base class raises (``chat_models.py:2409``)."""
        raise NotImplementedError

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable:
        """Not supported: upstream's error for a model without tools (``chat_models.py:2428``)."""
        raise NotImplementedError("with_structured_output is not implemented for this model.")


# ---- deterministic traces -----------------------------------------------------------------

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def normalize_ids(obj: Any, _seen: dict[str, str] | None = None) -> Any:
    """A copy of ``obj`` with every uuid replaced by ``<id-1>``, ``<id-2>``, ... (first seen first).

    Walks pydantic models (messages of miniagent or of langchain-core), dicts, lists, tuples
    and strings; the same uuid gets the same placeholder everywhere in ``obj``, so two runs
    give equal results exactly when they differ only in their random ids.
    """
    seen = {} if _seen is None else _seen
    if isinstance(obj, str):
        return _UUID.sub(lambda m: seen.setdefault(m.group(0), f"<id-{len(seen) + 1}>"), obj)
    if isinstance(obj, BaseModel):
        return obj.model_copy(update={k: normalize_ids(v, seen) for k, v in obj.__dict__.items()})
    if isinstance(obj, dict):
        return {k: normalize_ids(v, seen) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(normalize_ids(v, seen) for v in obj)
    return obj


def message_trace(messages: Sequence[Any]) -> list[dict[str, Any]]:
    """One small dict per message -- type, content, id, tool calls -- with ids normalised.

    >>> message_trace([HumanMessage("hi", id="5f0f2b8e-33a1-4c53-9d0e-6c1f7f3e2a10")])
    [{'type': 'human', 'content': 'hi', 'id': '<id-1>'}]
    """
    return normalize_ids([_trace_entry(m) for m in messages])


def _trace_entry(message: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": message.type, "content": message.content}
    if message.name is not None:
        entry["name"] = message.name
    entry["id"] = message.id
    if getattr(message, "tool_calls", None):
        entry["tool_calls"] = [
            {"name": tc["name"], "args": tc["args"], "id": tc["id"]} for tc in message.tool_calls
        ]
    if getattr(message, "invalid_tool_calls", None):
        entry["invalid_tool_calls"] = [
            {"name": tc["name"], "args": tc["args"], "id": tc["id"]}
            for tc in message.invalid_tool_calls
        ]
    if message.type == "tool":
        entry["tool_call_id"] = message.tool_call_id
        if message.status != "success":
            entry["status"] = message.status
    return entry
