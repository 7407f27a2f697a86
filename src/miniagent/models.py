"""Chat models: ``BaseChatModel``, the Runnable every agent calls on each turn.

Mirrors ``langchain_core/language_models/chat_models.py`` (langchain-core 1.8.3). A subclass
implements ``_generate(messages, **kwargs) -> AIMessage`` (upstream returns a ``ChatResult``
wrapping the message; we return the message itself) and, optionally, ``_stream`` yielding
``AIMessageChunk``s and ``_agenerate``. Everything else lives here: input coercion, the
callbacks a graph listens to, binding tools, structured output.

Upstream routes every call through callback managers, caches, rate limiters and tracing;
we keep only what changes what a caller sees.
"""

from __future__ import annotations

import uuid
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from miniagent.messages import (
    LC_ID_PREFIX,
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    convert_to_messages,
    message_chunk_to_message,
)
from miniagent.runnables import (
    Runnable,
    RunnableBinding,
    RunnableConfig,
    RunnableLambda,
    ensure_config,
)


class OutputParserException(ValueError):
    """A model reply that cannot be parsed (``langchain_core/exceptions.py:20``).

    A text message gets upstream's troubleshooting line (``exceptions.py:202``).
    """

    def __init__(self, error: Any) -> None:
        if isinstance(error, str):
            error = (
                f"{error}\nFor troubleshooting, visit: https://docs.langchain.com/oss/python/"
                "langchain/errors/OUTPUT_PARSING_FAILURE "
            )
        super().__init__(error)


class BaseChatModel(BaseModel, Runnable, ABC):
    """Base class for chat models (``langchain_core/language_models/chat_models.py:325``).

    A pydantic model, as upstream: declare fields as ``class M(BaseChatModel): x: int = 0``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, defer_build=True)  # schema on first use

    def __repr_args__(self) -> Any:
        """Hide fields that hold their default (``langchain_core/load/serializable.py:221``)."""
        fields = type(self).model_fields
        return [
            (k, v)
            for k, v in super().__repr_args__()
            if k not in fields or _field_default(fields[k]) != v
        ]

    # ---- what a subclass implements -------------------------------------------------------

    @abstractmethod
    def _generate(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        """Produce the reply to ``messages`` (``chat_models.py:2252``)."""

    async def _agenerate(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        """Async ``_generate`` (``chat_models.py:2271``).

        Upstream runs the sync ``_generate`` in a thread pool; we call it directly.
        """
        return self._generate(messages, **kwargs)

    def _stream(self, messages: list[BaseMessage], **kwargs: Any) -> Iterator[AIMessageChunk]:
        """Yield the reply in chunks (``chat_models.py:2298``). Optional."""
        raise NotImplementedError

    async def _astream(
        self, messages: list[BaseMessage], **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        """Async ``_stream``; falls back to the sync one (``chat_models.py:2318``)."""
        for chunk in self._stream(messages, **kwargs):
            yield chunk

    @property
    @abstractmethod
    def _llm_type(self) -> str:
        """A name for the kind of model (``chat_models.py:2374``)."""

    @property
    def _identifying_params(self) -> dict[str, Any]:
        """What identifies this model's settings (``base.py:430`` of ``language_models``)."""
        return {}

    def asdict(self) -> dict[str, Any]:
        """``_identifying_params`` plus ``_type`` (``chat_models.py:2386``)."""
        starter_dict = dict(self._identifying_params)
        starter_dict["_type"] = self._llm_type
        return starter_dict

    def _get_invocation_params(
        self, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """The parameters of one call, as reported to ``on_chat_model_start`` (``chat_models.py:1536``)."""
        params = self.asdict()
        params["stop"] = stop
        return {**params, **kwargs}

    # ---- calling the model ----------------------------------------------------------------

    def _convert_input(self, model_input: Any) -> list[BaseMessage]:
        """Coerce ``invoke``'s input to messages (``chat_models.py:502``).

        A str is one human message; a list (or tuple) of message-likes goes through
        ``convert_to_messages``. Anything else, a single message included, is an error.
        Upstream wraps the messages in a ``PromptValue`` (and accepts one); we have none.
        """
        if isinstance(model_input, str):
            return [HumanMessage(content=model_input)]
        if isinstance(model_input, Sequence):
            return convert_to_messages(model_input)
        msg = (
            f"Invalid input type {type(model_input)}. "
            "Must be a PromptValue, str, or list of BaseMessages."
        )
        raise ValueError(msg)

    def _should_stream(self, *, async_api: bool, handlers: Sequence[Any]) -> bool:
        """Take the streaming path? (``chat_models.py:590``).

        Only if the class implements ``_stream`` (or ``_astream``, for async calls) and a
        callback handler asks for tokens -- a graph streaming ``stream_mode="messages"`` does.
        """
        return self._implements_stream(async_api=async_api) and any(
            getattr(h, "wants_stream", False) for h in handlers
        )

    def _implements_stream(self, *, async_api: bool) -> bool:
        """Does the class override ``_stream`` (or, for async calls, ``_astream``)?"""
        if type(self)._stream is not BaseChatModel._stream:
            return True
        return async_api and type(self)._astream is not BaseChatModel._astream

    # --8<-- [start:invoke]
    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> AIMessage:
        """Call the model on ``input`` and return its reply (``chat_models.py:516``).

        ``kwargs`` (e.g. ``tools`` bound by ``bind_tools``) go to ``_generate`` / ``_stream``.
        On the streaming path each chunk is reported to the callbacks and the chunks are
        merged into the reply (``chat_models.py:2012``) -- so whatever ``_stream`` leaves
        out, the reply lacks (the fake-model "gotcha").
        """
        config = ensure_config(config)
        messages = self._convert_input(input)
        handlers = config.get("callbacks") or ()
        run_id = _on_start(self, messages, handlers, config, kwargs)
        if handlers and self._should_stream(async_api=False, handlers=handlers):
            chunks = [
                _on_chunk(c, run_id, handlers, config) for c in self._stream(messages, **kwargs)
            ]
            _close_stream(chunks, run_id, handlers, config)
            message = _generate_from_stream(chunks)
        else:
            message = self._generate(messages, **kwargs)
            if message.id is None:
                message.id = f"{run_id}-0"  # chat_models.py:2081
        _on_end(message, handlers, config)
        return message

    # --8<-- [end:invoke]

    async def ainvoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AIMessage:
        """Async ``invoke`` (``chat_models.py:543``)."""
        config = ensure_config(config)
        messages = self._convert_input(input)
        handlers = config.get("callbacks") or ()
        run_id = _on_start(self, messages, handlers, config, kwargs)
        if handlers and self._should_stream(async_api=True, handlers=handlers):
            chunks = [
                _on_chunk(c, run_id, handlers, config)
                async for c in self._astream(messages, **kwargs)
            ]
            _close_stream(chunks, run_id, handlers, config)
            message = _generate_from_stream(chunks)
        else:
            message = await self._agenerate(messages, **kwargs)
            if message.id is None:
                message.id = f"{run_id}-0"
        _on_end(message, handlers, config)
        return message

    def stream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        """Yield the reply chunk by chunk (``chat_models.py:770``).

        A model without ``_stream`` yields its whole ``invoke`` reply (an ``AIMessage``) once.
        """
        if not self._implements_stream(async_api=False):
            yield self.invoke(input, config, **kwargs)
            return
        config = ensure_config(config)
        messages = self._convert_input(input)
        handlers = config.get("callbacks") or ()
        run_id = _on_start(self, messages, handlers, config, kwargs)
        chunks: list[AIMessageChunk] = []
        for chunk in self._stream(messages, **kwargs):
            chunks.append(_on_chunk(chunk, run_id, handlers, config))
            yield chunk
        if _close_stream(chunks, run_id, handlers, config):
            yield chunks[-1]
        if not chunks:
            raise ValueError("No generation chunks were returned")
        _on_end(_generate_from_stream(chunks), handlers, config)

    async def astream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[AIMessageChunk]:
        """Async ``stream`` (``chat_models.py:901``)."""
        if not self._implements_stream(async_api=True):
            yield await self.ainvoke(input, config, **kwargs)
            return
        config = ensure_config(config)
        messages = self._convert_input(input)
        handlers = config.get("callbacks") or ()
        run_id = _on_start(self, messages, handlers, config, kwargs)
        chunks: list[AIMessageChunk] = []
        async for chunk in self._astream(messages, **kwargs):
            chunks.append(_on_chunk(chunk, run_id, handlers, config))
            yield chunk
        if _close_stream(chunks, run_id, handlers, config):
            yield chunks[-1]
        if not chunks:
            raise ValueError("No generation chunks were returned")
        _on_end(_generate_from_stream(chunks), handlers, config)

    # ---- tools and structured output ------------------------------------------------------

    # --8<-- [start:bind_tools]
    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | Any],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> RunnableBinding:
        """Bind tools to the model (``chat_models.py:2409``).

        Not abstract: the base class's body only raises ``NotImplementedError``, so a chat model
        that does not override it is built and called like any other, and fails only when
        something binds tools to it. Each provider writes its own (``ChatOpenAI.bind_tools``;
        ``ScriptedChatModel.bind_tools`` in ``miniagent.testing`` does what ``ChatOpenAI``
        does at heart: ``convert_to_openai_tool`` on each tool, dicts pass through, then
        ``self.bind(tools=...)``).
        """
        raise NotImplementedError

    # --8<-- [end:bind_tools]

    def with_structured_output(
        self, schema: dict[str, Any] | type, *, include_raw: bool = False, **kwargs: Any
    ) -> Runnable:
        """A Runnable returning ``schema``, from a forced tool call (``chat_models.py:2428``).

        The schema is bound as the only tool with ``tool_choice="any"``; the first tool call's
        args become a ``schema`` instance (pydantic class) or stay a dict (any other schema).
        With ``include_raw=True`` the output is ``{"raw", "parsed", "parsing_error"}`` and a
        parsing error is returned instead of raised.
        """
        kwargs.pop("method", None)
        kwargs.pop("strict", None)
        if kwargs:
            raise ValueError(f"Received unsupported arguments {kwargs}")
        if type(self).bind_tools is BaseChatModel.bind_tools:
            msg = "with_structured_output is not implemented for this model."
            raise NotImplementedError(msg)
        llm = self.bind_tools([schema], tool_choice="any")
        if isinstance(schema, type) and issubclass(schema, BaseModel):
            parse: Callable[[AIMessage], Any] = _PydanticToolsParser(schema)
        else:
            from miniagent.tools import convert_to_openai_tool

            parse = _JsonOutputKeyToolsParser(convert_to_openai_tool(schema)["function"]["name"])
        if include_raw:
            return llm | RunnableLambda(_IncludeRaw(parse))
        return llm | RunnableLambda(parse)


def _on_start(
    model: BaseChatModel,
    messages: list[BaseMessage],
    handlers: Sequence[Any],
    config: RunnableConfig,
    kwargs: dict[str, Any],
) -> str:
    """Report the call to ``on_chat_model_start`` and return the run's reply id.

    The run id is ``config["run_id"]`` if given, else a fresh uuid (upstream: a uuid7); a
    reply without an id gets ``lc_run--<run id>`` (``chat_models.py:833``). Each handler with
    the method gets upstream's arguments (``callbacks/manager.py:1458``): the model, the
    messages as a batch of one, and the call's ``invocation_params`` (``_get_invocation_params``
    with the bound kwargs, e.g. ``tools``). ``serialized`` is upstream's stand-in for a
    class that cannot be serialized (``load/serializable.py:367``), without its ``repr``.
    """
    run_uuid = config.pop("run_id", None) or uuid.uuid4()
    starts = [h for h in handlers if hasattr(h, "on_chat_model_start")]
    if starts:
        cls = type(model)
        serialized = {
            "lc": 1,
            "type": "not_implemented",
            "id": [*cls.__module__.split("."), cls.__name__],
            "name": cls.__name__,
        }
        stop = kwargs.get("stop")
        params = model._get_invocation_params(**kwargs)
        for handler in starts:
            handler.on_chat_model_start(
                serialized,
                [messages],
                run_id=run_uuid,
                parent_run_id=None,
                tags=config.get("tags"),
                metadata=config.get("metadata"),
                invocation_params=params,
                options={"stop": stop, **kwargs},
                name=config.get("run_name"),
                batch_size=1,
            )
    return f"{LC_ID_PREFIX}-{run_uuid}"


def _field_default(field: Any) -> Any:
    # Upstream treats an un-called default_factory as None (serializable.py:75): [] shows.
    return None if field.default_factory is not None else field.default


# ---- reporting to callbacks -------------------------------------------------------------


def _on_chunk(
    chunk: AIMessageChunk, run_id: str, handlers: Sequence[Any], config: RunnableConfig
) -> AIMessageChunk:
    """Give the chunk the run's id if it has none, and report it (``chat_models.py:838``)."""
    if chunk.id is None:
        chunk.id = run_id
    for handler in handlers:
        if hasattr(handler, "on_chat_model_stream"):
            handler.on_chat_model_stream(chunk, config)
    return chunk


def _on_end(message: AIMessage, handlers: Sequence[Any], config: RunnableConfig) -> None:
    """Report the final message (upstream: ``on_llm_end``)."""
    for handler in handlers:
        if hasattr(handler, "on_chat_model_end"):
            handler.on_chat_model_end(message, config)


def _close_stream(
    chunks: list[AIMessageChunk], run_id: str, handlers: Sequence[Any], config: RunnableConfig
) -> bool:
    """Append (and report) the empty closing chunk upstream adds when ``_stream`` did not
    mark its last chunk ``chunk_position="last"`` (``chat_models.py:2046``)."""
    if not chunks or chunks[-1].chunk_position == "last":
        return False
    content: Any = "" if isinstance(chunks[-1].content, str) else []
    closing = AIMessageChunk(content=content, chunk_position="last", id=run_id)
    chunks.append(_on_chunk(closing, run_id, handlers, config))
    return True


def _generate_from_stream(chunks: list[AIMessageChunk]) -> AIMessage:
    """Merge streamed chunks into one ``AIMessage`` (``chat_models.py:259``)."""
    if not chunks:
        raise ValueError("No generations found in stream.")
    merged = chunks[0] + chunks[1:] if len(chunks) > 1 else chunks[0]
    return message_chunk_to_message(merged)


# ---- output parsers used by with_structured_output ---------------------------------------


class _PydanticToolsParser:
    """``PydanticToolsParser(tools=[schema], first_tool_only=True)``.

    ``langchain_core/output_parsers/openai_tools.py:310``: the first tool call, as ``schema``.
    """

    def __init__(self, schema: type[BaseModel]) -> None:
        self.schema = schema
        self.name = schema.model_config.get("title") or schema.__name__

    def __call__(self, message: AIMessage) -> BaseModel | None:
        if not message.tool_calls:
            return None
        tool_call = message.tool_calls[0]
        if not isinstance(tool_call["args"], dict):
            raise ValueError(
                f"Tool arguments must be specified as a dict, received: {tool_call['args']}"
            )
        if tool_call["name"] != self.name:
            raise OutputParserException(
                f"Unknown tool type: {tool_call['name']!r}. Available tools: {self.name}"
            )
        return self.schema(**tool_call["args"])


class _JsonOutputKeyToolsParser:
    """``JsonOutputKeyToolsParser(key_name=..., first_tool_only=True)``.

    ``langchain_core/output_parsers/openai_tools.py:227``: the args of the first call named
    ``key_name``, or ``None``.
    """

    def __init__(self, key_name: str) -> None:
        self.key_name = key_name

    def __call__(self, message: AIMessage) -> dict[str, Any] | None:
        for tool_call in message.tool_calls:
            if tool_call["name"] == self.key_name:
                return tool_call["args"]
        return None


class _IncludeRaw:
    """``include_raw=True``: upstream's ``RunnableMap(raw=llm) | parser.with_fallbacks(...)``.

    ``chat_models.py:2602``. A parsing error is returned under ``"parsing_error"``.
    """

    def __init__(self, parse: Callable[[AIMessage], Any]) -> None:
        self.parse = parse

    def __call__(self, message: AIMessage) -> dict[str, Any]:
        try:
            return {"raw": message, "parsed": self.parse(message), "parsing_error": None}
        except Exception as e:
            return {"raw": message, "parsing_error": e, "parsed": None}
