"""Types for middleware and agents. Mirrors ``langchain/agents/middleware/types.py`` (1.5.2).

What a middleware is (``AgentMiddleware``: six hooks and their async twins), what the model
hooks see (``ModelRequest``, ``ModelResponse``, ``ExtendedModelResponse``), the agent's state
(``AgentState``) and the decorators that turn one function into a middleware.

Left out: ``TracePolicy`` / ``omit_payload`` and the ``trace_policy`` attribute (no LangSmith
tracing in the miniature), the ``transformers`` attribute (no stream transformers), and the
``@overload`` stubs of the decorators (types only).
"""

from __future__ import annotations

import warnings
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from inspect import iscoroutinefunction
from typing import TYPE_CHECKING, Annotated, Any, Generic, Literal, cast

from typing_extensions import NotRequired, Required, TypedDict, TypeVar

# Needed at run time: the state graph reads AgentState's annotations
from miniagent.graph.message import add_messages
from miniagent.graph.state import EphemeralValue
from miniagent.messages import AIMessage, AnyMessage, BaseMessage, SystemMessage, ToolMessage
from miniagent.prebuilt.tool_node import ToolCallRequest, ToolCallWrapper
from miniagent.runtime import Runtime
from miniagent.types import Command

if TYPE_CHECKING:
    from miniagent.agents.structured_output import ResponseFormat
    from miniagent.models import BaseChatModel
    from miniagent.tools import BaseTool

__all__ = [
    "AgentMiddleware",
    "AgentState",
    "ContextT",
    "ExtendedModelResponse",
    "InputAgentState",
    "ModelCallResult",
    "ModelRequest",
    "ModelResponse",
    "OmitFromSchema",
    "OutputAgentState",
    "ResponseT",
    "StateT_co",
    "ToolCallRequest",
    "ToolCallWrapper",
    "after_agent",
    "after_model",
    "before_agent",
    "before_model",
    "dynamic_prompt",
    "hook_config",
    "wrap_model_call",
    "wrap_tool_call",
]

JumpTo = Literal["tools", "model", "end"]
"""Destination to jump to when a middleware node returns (types.py:70)."""

ResponseT = TypeVar("ResponseT", default=Any)

ContextT = TypeVar("ContextT", default=None)
"""The runtime context's type (``langgraph.typing.ContextT``, default ``None``)."""


@dataclass(init=False)
class ModelRequest(Generic[ContextT]):
    """What ``wrap_model_call`` receives: everything the model call will use (types.py:90).

    ``messages`` exclude the system message, which travels apart in ``system_message``.
    Change a request with ``request.override(...)``; assigning an attribute still works
    but warns.
    """

    model: BaseChatModel
    messages: list[AnyMessage]  # excluding system message
    system_message: SystemMessage | None
    tool_choice: Any | None
    tools: list[BaseTool | dict[str, Any]]
    response_format: ResponseFormat[Any] | None
    state: AgentState[Any]
    runtime: Runtime[ContextT]
    model_settings: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        *,
        model: BaseChatModel,
        messages: list[AnyMessage],
        system_message: SystemMessage | None = None,
        system_prompt: str | None = None,
        tool_choice: Any | None = None,
        tools: list[BaseTool | dict[str, Any]] | None = None,
        response_format: ResponseFormat[Any] | None = None,
        state: AgentState[Any] | None = None,
        runtime: Runtime[ContextT] | None = None,
        model_settings: dict[str, Any] | None = None,
    ) -> None:
        """``system_prompt`` (a str, deprecated) or ``system_message``, not both (l.109)."""
        # Handle system_prompt/system_message conversion and validation
        if system_prompt is not None and system_message is not None:
            msg = "Cannot specify both system_prompt and system_message"
            raise ValueError(msg)

        if system_prompt is not None:
            system_message = SystemMessage(content=system_prompt)

        object.__setattr__(self, "model", model)
        object.__setattr__(self, "messages", messages)
        object.__setattr__(self, "system_message", system_message)
        object.__setattr__(self, "tool_choice", tool_choice)
        object.__setattr__(self, "tools", tools if tools is not None else [])
        object.__setattr__(self, "response_format", response_format)
        object.__setattr__(self, "state", state if state is not None else {"messages": []})
        object.__setattr__(self, "runtime", runtime)
        object.__setattr__(
            self, "model_settings", model_settings if model_settings is not None else {}
        )

    @property
    def system_prompt(self) -> str | None:
        """The system message's text, or ``None`` (l.161)."""
        if self.system_message is None:
            return None
        return self.system_message.text

    def __setattr__(self, name: str, value: Any) -> None:
        """Direct assignment is deprecated: warn, then set (l.171)."""
        # Special handling for system_prompt - convert to system_message
        if name == "system_prompt":
            warnings.warn(
                "Direct attribute assignment to ModelRequest.system_prompt is deprecated. "
                "Use request.override(system_message=SystemMessage(...)) instead to create "
                "a new request with the modified system message.",
                DeprecationWarning,
                stacklevel=2,
            )
            if value is None:
                object.__setattr__(self, "system_message", None)
            else:
                object.__setattr__(self, "system_message", SystemMessage(content=value))
            return

        warnings.warn(
            f"Direct attribute assignment to ModelRequest.{name} is deprecated. "
            f"Use request.override({name}=...) instead to create a new request "
            f"with the modified attribute.",
            DeprecationWarning,
            stacklevel=2,
        )
        object.__setattr__(self, name, value)

    def override(self, **overrides: Any) -> ModelRequest[ContextT]:
        """A new request with ``overrides`` applied; this one is unchanged (l.205)."""
        # Handle system_prompt/system_message conversion
        if "system_prompt" in overrides and "system_message" in overrides:
            msg = "Cannot specify both system_prompt and system_message"
            raise ValueError(msg)

        if "system_prompt" in overrides:
            system_prompt = cast("str | None", overrides.pop("system_prompt"))
            if system_prompt is None:
                overrides["system_message"] = None
            else:
                overrides["system_message"] = SystemMessage(content=system_prompt)

        return replace(self, **overrides)


@dataclass
class ModelResponse(Generic[ResponseT]):
    """The model call's messages (an AIMessage, maybe a structured-output ToolMessage) and
    the parsed structured response, if any (types.py:275)."""

    result: list[BaseMessage]
    structured_response: ResponseT | None = None


@dataclass
class ExtendedModelResponse(Generic[ResponseT]):
    """A ``ModelResponse`` plus a ``Command`` applied as an extra state update after the
    model node (types.py:293)."""

    model_response: ModelResponse[ResponseT]
    command: Command | None = None


ModelCallResult = ModelResponse[ResponseT] | AIMessage | ExtendedModelResponse[ResponseT]
"""What a ``wrap_model_call`` handler may return (types.py:317)."""


@dataclass
class OmitFromSchema:
    """Marks a state field as left out of the input and/or output schema (types.py:331)."""

    input: bool = True
    output: bool = True


OmitFromInput = OmitFromSchema(input=True, output=False)
OmitFromOutput = OmitFromSchema(input=False, output=True)
PrivateStateAttr = OmitFromSchema(input=True, output=True)


class AgentState(TypedDict, Generic[ResponseT]):
    """State schema for the agent (types.py:351)."""

    messages: Required[Annotated[list[AnyMessage], add_messages]]
    jump_to: NotRequired[Annotated[JumpTo | None, EphemeralValue, PrivateStateAttr]]
    structured_response: NotRequired[Annotated[ResponseT, OmitFromInput]]


class InputAgentState(TypedDict):
    """Input state schema for the agent (types.py:359)."""

    messages: Required[Annotated[list[AnyMessage | dict[str, Any]], add_messages]]


class OutputAgentState(TypedDict, Generic[ResponseT]):
    """Output state schema for the agent (types.py:365)."""

    messages: Required[Annotated[list[AnyMessage], add_messages]]
    structured_response: NotRequired[ResponseT]


StateT = TypeVar("StateT", bound=AgentState[Any], default=AgentState[Any])
StateT_co = TypeVar("StateT_co", bound=AgentState[Any], default=AgentState[Any], covariant=True)
StateT_contra = TypeVar("StateT_contra", bound=AgentState[Any], contravariant=True)


class _DefaultAgentState(AgentState[Any]):
    """AgentMiddleware default state."""


# --8<-- [start:agent_middleware]
class AgentMiddleware(Generic[StateT, ContextT, ResponseT]):
    """Base middleware class for an agent (types.py:387).

    Override any hook. ``before_*``/``after_*`` become graph nodes named
    ``"{name}.{hook}"``; ``wrap_model_call`` and ``wrap_tool_call`` wrap the call inside the
    ``model`` and ``tools`` nodes. A hook exists if its sync or its async variant is overridden.
    """

    state_schema: type[StateT] = cast("type[StateT]", _DefaultAgentState)
    """The schema for state passed to the middleware nodes."""

    tools: Sequence[BaseTool]
    """Additional tools registered by the middleware."""

    @property
    def name(self) -> str:
        """The class name, unless a subclass says otherwise (l.426)."""
        return self.__class__.__name__

    def before_agent(self, state: StateT, runtime: Runtime[ContextT]) -> dict[str, Any] | None:
        """Once per invocation, before the loop (l.433)."""

    async def abefore_agent(
        self, state: StateT, runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """Async ``before_agent`` (l.444)."""

    def before_model(self, state: StateT, runtime: Runtime[ContextT]) -> dict[str, Any] | None:
        """Before every model call (l.457)."""

    async def abefore_model(
        self, state: StateT, runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """Async ``before_model`` (l.468)."""

    def after_model(self, state: StateT, runtime: Runtime[ContextT]) -> dict[str, Any] | None:
        """After every model call (l.481)."""

    async def aafter_model(
        self, state: StateT, runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """Async ``after_model`` (l.492)."""

    def wrap_model_call(
        self,
        request: ModelRequest[ContextT],
        handler: Callable[[ModelRequest[ContextT]], ModelResponse[ResponseT]],
    ) -> ModelResponse[ResponseT] | AIMessage | ExtendedModelResponse[ResponseT]:
        """Around the model call: ``handler(request)`` runs the inner layers and the model;
        call it once, several times (retry) or never (short-circuit) (l.505)."""
        msg = (
            "Synchronous implementation of wrap_model_call is not available. "
            "You are likely encountering this error because you defined only the async version "
            "(awrap_model_call) and invoked your agent in a synchronous context "
            "(e.g., using `stream()` or `invoke()`). "
            "To resolve this, either: "
            "(1) subclass AgentMiddleware and implement the synchronous wrap_model_call method, "
            "(2) use the @wrap_model_call decorator on a standalone sync function, or "
            "(3) invoke your agent asynchronously using `astream()` or `ainvoke()`."
        )
        raise NotImplementedError(msg)

    async def awrap_model_call(
        self,
        request: ModelRequest[ContextT],
        handler: Callable[[ModelRequest[ContextT]], Awaitable[ModelResponse[ResponseT]]],
    ) -> ModelResponse[ResponseT] | AIMessage | ExtendedModelResponse[ResponseT]:
        """Async ``wrap_model_call`` (l.600)."""
        msg = (
            "Asynchronous implementation of awrap_model_call is not available. "
            "You are likely encountering this error because you defined only the sync version "
            "(wrap_model_call) and invoked your agent in an asynchronous context "
            "(e.g., using `astream()` or `ainvoke()`). "
            "To resolve this, either: "
            "(1) subclass AgentMiddleware and implement the asynchronous awrap_model_call method, "
            "(2) use the @wrap_model_call decorator on a standalone async function, or "
            "(3) invoke your agent synchronously using `stream()` or `invoke()`."
        )
        raise NotImplementedError(msg)

    def after_agent(self, state: StateT, runtime: Runtime[ContextT]) -> dict[str, Any] | None:
        """Once, at the end (l.652)."""

    async def aafter_agent(
        self, state: StateT, runtime: Runtime[ContextT]
    ) -> dict[str, Any] | None:
        """Async ``after_agent`` (l.663)."""

    def wrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
    ) -> ToolMessage | Command[Any]:
        """Around each tool call, inside the ``tools`` node (l.676)."""
        msg = (
            "Synchronous implementation of wrap_tool_call is not available. "
            "You are likely encountering this error because you defined only the async version "
            "(awrap_tool_call) and invoked your agent in a synchronous context "
            "(e.g., using `stream()` or `invoke()`). "
            "To resolve this, either: "
            "(1) subclass AgentMiddleware and implement the synchronous wrap_tool_call method, "
            "(2) use the @wrap_tool_call decorator on a standalone sync function, or "
            "(3) invoke your agent asynchronously using `astream()` or `ainvoke()`."
        )
        raise NotImplementedError(msg)

    async def awrap_tool_call(
        self,
        request: ToolCallRequest,
        handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
    ) -> ToolMessage | Command[Any]:
        """Async ``wrap_tool_call`` (l.758)."""
        msg = (
            "Asynchronous implementation of awrap_tool_call is not available. "
            "You are likely encountering this error because you defined only the sync version "
            "(wrap_tool_call) and invoked your agent in an asynchronous context "
            "(e.g., using `astream()` or `ainvoke()`). "
            "To resolve this, either: "
            "(1) subclass AgentMiddleware and implement the asynchronous awrap_tool_call method, "
            "(2) use the @wrap_tool_call decorator on a standalone async function, or "
            "(3) invoke your agent synchronously using `stream()` or `invoke()`."
        )
        raise NotImplementedError(msg)


# --8<-- [end:agent_middleware]

CallableT = TypeVar("CallableT", bound=Callable[..., Any])


# --8<-- [start:hook_config]
def hook_config(
    *,
    can_jump_to: list[JumpTo] | None = None,
) -> Callable[[CallableT], CallableT]:
    """Mark a hook method with where it may jump: ``"tools"``, ``"model"``, ``"end"``;
    ``create_agent`` then gives its node a conditional edge (types.py:881)."""

    def decorator(func: CallableT) -> CallableT:
        if can_jump_to is not None:
            func.__can_jump_to__ = can_jump_to  # type: ignore[attr-defined]
        return func

    return decorator


# --8<-- [end:hook_config]


# --8<-- [start:before_model]
def before_model(
    func: Callable[..., Any] | None = None,
    *,
    state_schema: type[StateT] | None = None,
    tools: list[BaseTool] | None = None,
    can_jump_to: list[JumpTo] | None = None,
    name: str | None = None,
) -> Callable[[Callable[..., Any]], AgentMiddleware[StateT, ContextT]] | AgentMiddleware:
    """A middleware whose ``before_model`` (or ``abefore_model``, for an ``async def``) is
    ``func(state, runtime)``; named after the function (types.py:954).

    Returns an *instance* of a one-off ``AgentMiddleware`` subclass.
    """

    def decorator(
        func: Callable[..., Any],
    ) -> AgentMiddleware[StateT, ContextT]:
        is_async = iscoroutinefunction(func)

        func_can_jump_to = (
            can_jump_to if can_jump_to is not None else getattr(func, "__can_jump_to__", [])
        )

        if is_async:

            async def async_wrapped(
                _self: AgentMiddleware[StateT, ContextT],
                state: StateT,
                runtime: Runtime[ContextT],
            ) -> dict[str, Any] | Command[Any] | None:
                return await func(state, runtime)

            # Preserve can_jump_to metadata on the wrapped function
            if func_can_jump_to:
                async_wrapped.__can_jump_to__ = func_can_jump_to  # type: ignore[attr-defined]

            middleware_name = name or cast(
                "str", getattr(func, "__name__", "BeforeModelMiddleware")
            )

            return cast(
                "AgentMiddleware[StateT, ContextT]",
                type(
                    middleware_name,
                    (AgentMiddleware,),
                    {
                        "state_schema": state_schema or AgentState,
                        "tools": tools or [],
                        "abefore_model": async_wrapped,
                    },
                )(),
            )

        def wrapped(
            _self: AgentMiddleware[StateT, ContextT],
            state: StateT,
            runtime: Runtime[ContextT],
        ) -> dict[str, Any] | Command[Any] | None:
            return func(state, runtime)

        # Preserve can_jump_to metadata on the wrapped function
        if func_can_jump_to:
            wrapped.__can_jump_to__ = func_can_jump_to  # type: ignore[attr-defined]

        # Use function name as default if no name provided
        middleware_name = name or cast("str", getattr(func, "__name__", "BeforeModelMiddleware"))

        return cast(
            "AgentMiddleware[StateT, ContextT]",
            type(
                middleware_name,
                (AgentMiddleware,),
                {
                    "state_schema": state_schema or AgentState,
                    "tools": tools or [],
                    "before_model": wrapped,
                },
            )(),
        )

    if func is not None:
        return decorator(func)
    return decorator


# --8<-- [end:before_model]


# --8<-- [start:after_model]
def after_model(
    func: Callable[..., Any] | None = None,
    *,
    state_schema: type[StateT] | None = None,
    tools: list[BaseTool] | None = None,
    can_jump_to: list[JumpTo] | None = None,
    name: str | None = None,
) -> Callable[[Callable[..., Any]], AgentMiddleware[StateT, ContextT]] | AgentMiddleware:
    """A middleware whose ``after_model`` (or ``aafter_model``, for an ``async def``) is
    ``func(state, runtime)``; named after the function (types.py:1143).

    Returns an *instance* of a one-off ``AgentMiddleware`` subclass.
    """

    def decorator(
        func: Callable[..., Any],
    ) -> AgentMiddleware[StateT, ContextT]:
        is_async = iscoroutinefunction(func)

        func_can_jump_to = (
            can_jump_to if can_jump_to is not None else getattr(func, "__can_jump_to__", [])
        )

        if is_async:

            async def async_wrapped(
                _self: AgentMiddleware[StateT, ContextT],
                state: StateT,
                runtime: Runtime[ContextT],
            ) -> dict[str, Any] | Command[Any] | None:
                return await func(state, runtime)

            # Preserve can_jump_to metadata on the wrapped function
            if func_can_jump_to:
                async_wrapped.__can_jump_to__ = func_can_jump_to  # type: ignore[attr-defined]

            middleware_name = name or cast("str", getattr(func, "__name__", "AfterModelMiddleware"))

            return cast(
                "AgentMiddleware[StateT, ContextT]",
                type(
                    middleware_name,
                    (AgentMiddleware,),
                    {
                        "state_schema": state_schema or AgentState,
                        "tools": tools or [],
                        "aafter_model": async_wrapped,
                    },
                )(),
            )

        def wrapped(
            _self: AgentMiddleware[StateT, ContextT],
            state: StateT,
            runtime: Runtime[ContextT],
        ) -> dict[str, Any] | Command[Any] | None:
            return func(state, runtime)

        # Preserve can_jump_to metadata on the wrapped function
        if func_can_jump_to:
            wrapped.__can_jump_to__ = func_can_jump_to  # type: ignore[attr-defined]

        # Use function name as default if no name provided
        middleware_name = name or cast("str", getattr(func, "__name__", "AfterModelMiddleware"))

        return cast(
            "AgentMiddleware[StateT, ContextT]",
            type(
                middleware_name,
                (AgentMiddleware,),
                {
                    "state_schema": state_schema or AgentState,
                    "tools": tools or [],
                    "after_model": wrapped,
                },
            )(),
        )

    if func is not None:
        return decorator(func)
    return decorator


# --8<-- [end:after_model]


# --8<-- [start:before_agent]
def before_agent(
    func: Callable[..., Any] | None = None,
    *,
    state_schema: type[StateT] | None = None,
    tools: list[BaseTool] | None = None,
    can_jump_to: list[JumpTo] | None = None,
    name: str | None = None,
) -> Callable[[Callable[..., Any]], AgentMiddleware[StateT, ContextT]] | AgentMiddleware:
    """A middleware whose ``before_agent`` (or ``abefore_agent``, for an ``async def``) is
    ``func(state, runtime)``; named after the function (types.py:1320).

    Returns an *instance* of a one-off ``AgentMiddleware`` subclass.
    """

    def decorator(
        func: Callable[..., Any],
    ) -> AgentMiddleware[StateT, ContextT]:
        is_async = iscoroutinefunction(func)

        func_can_jump_to = (
            can_jump_to if can_jump_to is not None else getattr(func, "__can_jump_to__", [])
        )

        if is_async:

            async def async_wrapped(
                _self: AgentMiddleware[StateT, ContextT],
                state: StateT,
                runtime: Runtime[ContextT],
            ) -> dict[str, Any] | Command[Any] | None:
                return await func(state, runtime)

            # Preserve can_jump_to metadata on the wrapped function
            if func_can_jump_to:
                async_wrapped.__can_jump_to__ = func_can_jump_to  # type: ignore[attr-defined]

            middleware_name = name or cast(
                "str", getattr(func, "__name__", "BeforeAgentMiddleware")
            )

            return cast(
                "AgentMiddleware[StateT, ContextT]",
                type(
                    middleware_name,
                    (AgentMiddleware,),
                    {
                        "state_schema": state_schema or AgentState,
                        "tools": tools or [],
                        "abefore_agent": async_wrapped,
                    },
                )(),
            )

        def wrapped(
            _self: AgentMiddleware[StateT, ContextT],
            state: StateT,
            runtime: Runtime[ContextT],
        ) -> dict[str, Any] | Command[Any] | None:
            return func(state, runtime)

        # Preserve can_jump_to metadata on the wrapped function
        if func_can_jump_to:
            wrapped.__can_jump_to__ = func_can_jump_to  # type: ignore[attr-defined]

        # Use function name as default if no name provided
        middleware_name = name or cast("str", getattr(func, "__name__", "BeforeAgentMiddleware"))

        return cast(
            "AgentMiddleware[StateT, ContextT]",
            type(
                middleware_name,
                (AgentMiddleware,),
                {
                    "state_schema": state_schema or AgentState,
                    "tools": tools or [],
                    "before_agent": wrapped,
                },
            )(),
        )

    if func is not None:
        return decorator(func)
    return decorator


# --8<-- [end:before_agent]


# --8<-- [start:after_agent]
def after_agent(
    func: Callable[..., Any] | None = None,
    *,
    state_schema: type[StateT] | None = None,
    tools: list[BaseTool] | None = None,
    can_jump_to: list[JumpTo] | None = None,
    name: str | None = None,
) -> Callable[[Callable[..., Any]], AgentMiddleware[StateT, ContextT]] | AgentMiddleware:
    """A middleware whose ``after_agent`` (or ``aafter_agent``, for an ``async def``) is
    ``func(state, runtime)``; named after the function (types.py:1532).

    Returns an *instance* of a one-off ``AgentMiddleware`` subclass.
    """

    def decorator(
        func: Callable[..., Any],
    ) -> AgentMiddleware[StateT, ContextT]:
        is_async = iscoroutinefunction(func)

        func_can_jump_to = (
            can_jump_to if can_jump_to is not None else getattr(func, "__can_jump_to__", [])
        )

        if is_async:

            async def async_wrapped(
                _self: AgentMiddleware[StateT, ContextT],
                state: StateT,
                runtime: Runtime[ContextT],
            ) -> dict[str, Any] | Command[Any] | None:
                return await func(state, runtime)

            # Preserve can_jump_to metadata on the wrapped function
            if func_can_jump_to:
                async_wrapped.__can_jump_to__ = func_can_jump_to  # type: ignore[attr-defined]

            middleware_name = name or cast("str", getattr(func, "__name__", "AfterAgentMiddleware"))

            return cast(
                "AgentMiddleware[StateT, ContextT]",
                type(
                    middleware_name,
                    (AgentMiddleware,),
                    {
                        "state_schema": state_schema or AgentState,
                        "tools": tools or [],
                        "aafter_agent": async_wrapped,
                    },
                )(),
            )

        def wrapped(
            _self: AgentMiddleware[StateT, ContextT],
            state: StateT,
            runtime: Runtime[ContextT],
        ) -> dict[str, Any] | Command[Any] | None:
            return func(state, runtime)

        # Preserve can_jump_to metadata on the wrapped function
        if func_can_jump_to:
            wrapped.__can_jump_to__ = func_can_jump_to  # type: ignore[attr-defined]

        # Use function name as default if no name provided
        middleware_name = name or cast("str", getattr(func, "__name__", "AfterAgentMiddleware"))

        return cast(
            "AgentMiddleware[StateT, ContextT]",
            type(
                middleware_name,
                (AgentMiddleware,),
                {
                    "state_schema": state_schema or AgentState,
                    "tools": tools or [],
                    "after_agent": wrapped,
                },
            )(),
        )

    if func is not None:
        return decorator(func)
    return decorator


# --8<-- [end:after_agent]


# --8<-- [start:dynamic_prompt]
def dynamic_prompt(
    func: Callable[..., Any] | None = None,
) -> Callable[[Callable[..., Any]], AgentMiddleware[StateT, ContextT]] | AgentMiddleware:
    """A ``wrap_model_call`` middleware that sets the system message to ``func(request)``
    (a str or a ``SystemMessage``) before calling the handler (types.py:1706).

    It replaces the agent's ``system_prompt``; of several, the innermost (last) wins. A sync
    ``func`` serves the async path too (``async_wrapped_from_sync``).
    """

    def decorator(
        func: Callable[..., Any],
    ) -> AgentMiddleware[StateT, ContextT]:
        is_async = iscoroutinefunction(func)

        if is_async:

            async def async_wrapped(
                _self: AgentMiddleware[StateT, ContextT],
                request: ModelRequest[ContextT],
                handler: Callable[[ModelRequest[ContextT]], Awaitable[ModelResponse[Any]]],
            ) -> ModelResponse[Any] | AIMessage:
                prompt = await func(request)
                if isinstance(prompt, SystemMessage):
                    request = request.override(system_message=prompt)
                else:
                    request = request.override(system_message=SystemMessage(content=prompt))
                return await handler(request)

            middleware_name = cast("str", getattr(func, "__name__", "DynamicPromptMiddleware"))

            return cast(
                "AgentMiddleware[StateT, ContextT]",
                type(
                    middleware_name,
                    (AgentMiddleware,),
                    {
                        "state_schema": AgentState,
                        "tools": [],
                        "awrap_model_call": async_wrapped,
                    },
                )(),
            )

        def wrapped(
            _self: AgentMiddleware[StateT, ContextT],
            request: ModelRequest[ContextT],
            handler: Callable[[ModelRequest[ContextT]], ModelResponse[Any]],
        ) -> ModelResponse[Any] | AIMessage:
            prompt = func(request)
            if isinstance(prompt, SystemMessage):
                request = request.override(system_message=prompt)
            else:
                request = request.override(system_message=SystemMessage(content=prompt))
            return handler(request)

        async def async_wrapped_from_sync(
            _self: AgentMiddleware[StateT, ContextT],
            request: ModelRequest[ContextT],
            handler: Callable[[ModelRequest[ContextT]], Awaitable[ModelResponse[Any]]],
        ) -> ModelResponse[Any] | AIMessage:
            # Delegate to sync function
            prompt = func(request)
            if isinstance(prompt, SystemMessage):
                request = request.override(system_message=prompt)
            else:
                request = request.override(system_message=SystemMessage(content=prompt))
            return await handler(request)

        middleware_name = cast("str", getattr(func, "__name__", "DynamicPromptMiddleware"))

        return cast(
            "AgentMiddleware[StateT, ContextT]",
            type(
                middleware_name,
                (AgentMiddleware,),
                {
                    "state_schema": AgentState,
                    "tools": [],
                    "wrap_model_call": wrapped,
                    "awrap_model_call": async_wrapped_from_sync,
                },
            )(),
        )

    if func is not None:
        return decorator(func)
    return decorator


# --8<-- [end:dynamic_prompt]


# --8<-- [start:wrap_model_call]
def wrap_model_call(
    func: Callable[..., Any] | None = None,
    *,
    state_schema: type[StateT] | None = None,
    tools: list[BaseTool] | None = None,
    name: str | None = None,
) -> Callable[[Callable[..., Any]], AgentMiddleware[StateT, ContextT]] | AgentMiddleware:
    """A middleware whose ``wrap_model_call`` (or ``awrap_model_call``, for an ``async def``)
    is ``func(request, handler)`` -- only that variant (types.py:1866)."""

    def decorator(
        func: Callable[..., Any],
    ) -> AgentMiddleware[StateT, ContextT]:
        is_async = iscoroutinefunction(func)

        if is_async:

            async def async_wrapped(
                _self: AgentMiddleware[StateT, ContextT],
                request: ModelRequest[ContextT],
                handler: Callable[[ModelRequest[ContextT]], Awaitable[ModelResponse[ResponseT]]],
            ) -> ModelCallResult[ResponseT]:
                return await func(request, handler)

            middleware_name = name or cast(
                "str", getattr(func, "__name__", "WrapModelCallMiddleware")
            )

            return cast(
                "AgentMiddleware[StateT, ContextT]",
                type(
                    middleware_name,
                    (AgentMiddleware,),
                    {
                        "state_schema": state_schema or AgentState,
                        "tools": tools or [],
                        "awrap_model_call": async_wrapped,
                    },
                )(),
            )

        def wrapped(
            _self: AgentMiddleware[StateT, ContextT],
            request: ModelRequest[ContextT],
            handler: Callable[[ModelRequest[ContextT]], ModelResponse[ResponseT]],
        ) -> ModelCallResult[ResponseT]:
            return func(request, handler)

        middleware_name = name or cast("str", getattr(func, "__name__", "WrapModelCallMiddleware"))

        return cast(
            "AgentMiddleware[StateT, ContextT]",
            type(
                middleware_name,
                (AgentMiddleware,),
                {
                    "state_schema": state_schema or AgentState,
                    "tools": tools or [],
                    "wrap_model_call": wrapped,
                },
            )(),
        )

    if func is not None:
        return decorator(func)
    return decorator


# --8<-- [end:wrap_model_call]


# --8<-- [start:wrap_tool_call]
def wrap_tool_call(
    func: Callable[..., Any] | None = None,
    *,
    state_schema: type[StateT] | None = None,
    tools: list[BaseTool] | None = None,
    name: str | None = None,
) -> Callable[[Callable[..., Any]], AgentMiddleware[StateT, ContextT]] | AgentMiddleware:
    """A middleware whose ``wrap_tool_call`` (or ``awrap_tool_call``, for an ``async def``)
    is ``func(request, handler)`` -- only that variant (types.py:2039)."""

    def decorator(
        func: Callable[..., Any],
    ) -> AgentMiddleware[StateT, ContextT]:
        is_async = iscoroutinefunction(func)

        if is_async:

            async def async_wrapped(
                _self: AgentMiddleware[StateT, ContextT],
                request: ToolCallRequest,
                handler: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
            ) -> ToolMessage | Command[Any]:
                return await func(request, handler)

            middleware_name = name or cast(
                "str", getattr(func, "__name__", "WrapToolCallMiddleware")
            )

            return cast(
                "AgentMiddleware[StateT, ContextT]",
                type(
                    middleware_name,
                    (AgentMiddleware,),
                    {
                        "state_schema": state_schema or AgentState,
                        "tools": tools or [],
                        "awrap_tool_call": async_wrapped,
                    },
                )(),
            )

        def wrapped(
            _self: AgentMiddleware[StateT, ContextT],
            request: ToolCallRequest,
            handler: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
        ) -> ToolMessage | Command[Any]:
            return func(request, handler)

        middleware_name = name or cast("str", getattr(func, "__name__", "WrapToolCallMiddleware"))

        return cast(
            "AgentMiddleware[StateT, ContextT]",
            type(
                middleware_name,
                (AgentMiddleware,),
                {
                    "state_schema": state_schema or AgentState,
                    "tools": tools or [],
                    "wrap_tool_call": wrapped,
                },
            )(),
        )

    if func is not None:
        return decorator(func)
    return decorator


# --8<-- [end:wrap_tool_call]
