"""``create_agent``: an agent graph with middleware. Mirrors ``langchain/agents/factory.py`` (1.5.2).

The graph: a ``model`` node, a ``tools`` node (a ``ToolNode``) when there is something to run,
and one node per middleware hook ``"{name}.before_agent"``, ``.before_model``,
``.after_model``, ``.after_agent``. ``wrap_model_call`` / ``wrap_tool_call`` are no nodes:
they are composed into one handler each (first middleware outermost) and run inside the
``model`` and ``tools`` nodes.

Upstream's ``create_agent`` is one long function. Here its inner functions (the model node
and its helpers) stay inside it, under upstream's names; its straight-line setup and wiring
are cut into helpers named after what they set up (``_setup_*``, ``_add_*``), each made of
upstream's statements. Left out: LangSmith tracing of the wrap hooks (``traceable``,
``trace_policy``), stream ``transformers``, the node ``cache`` and model profiles.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Generic,
    NotRequired,
    Required,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

from typing_extensions import TypedDict

from miniagent.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ContextT,
    ExtendedModelResponse,
    JumpTo,
    ModelRequest,
    ModelResponse,
    OmitFromSchema,
    ResponseT,
    ToolCallRequest,
)
from miniagent.agents.structured_output import (
    AutoStrategy,
    MultipleStructuredOutputsError,
    OutputToolBinding,
    ProviderStrategy,
    ProviderStrategyBinding,
    ResponseFormat,
    StructuredOutputError,
    StructuredOutputValidationError,
    ToolStrategy,
)
from miniagent.constants import END, START
from miniagent.graph.message import REMOVE_ALL_MESSAGES
from miniagent.graph.state import StateGraph
from miniagent.messages import AIMessage, AnyMessage, RemoveMessage, SystemMessage, ToolMessage
from miniagent.models import BaseChatModel
from miniagent.prebuilt.tool_node import ToolNode
from miniagent.runnables.callable import RunnableCallable
from miniagent.tools import BaseTool
from miniagent.types import Command, Send

if TYPE_CHECKING:
    from miniagent.graph.state import CompiledStateGraph
    from miniagent.messages import InvalidToolCall
    from miniagent.prebuilt.tool_node import ToolCallWrapper
    from miniagent.runtime import Runtime

__all__ = ["create_agent"]


@dataclass
class _ComposedExtendedModelResponse(Generic[ResponseT]):
    """What the composed ``wrap_model_call`` stack returns: the response and the commands
    of every layer, inner first (factory.py:78)."""

    model_response: ModelResponse[ResponseT]
    commands: list[Command[Any]] = field(default_factory=list)


STRUCTURED_OUTPUT_ERROR_TEMPLATE = "Error: {error}\n Please fix your mistakes."

DYNAMIC_TOOL_ERROR_TEMPLATE = """
Middleware added tools that the agent doesn't know how to execute.

Unknown tools: {unknown_tool_names}
Registered tools: {available_tool_names}

This happens when middleware modifies `request.tools` in `wrap_model_call` to include
tools that weren't passed to `create_agent()`.

How to fix this:

Option 1: Register tools at agent creation (recommended for most cases)
    Pass the tools to `create_agent(tools=[...])` or set them on `middleware.tools`.
    This makes tools available for every agent invocation.

Option 2: Handle dynamic tools in middleware (for tools created at runtime)
    Implement `wrap_tool_call` to execute tools that are added dynamically:

    class MyMiddleware(AgentMiddleware):
        def wrap_tool_call(self, request, handler):
            if request.tool_call["name"] == "dynamic_tool":
                # Execute the dynamic tool yourself or override with tool instance
                return handler(request.override(tool=my_dynamic_tool))
            return handler(request)
""".strip()

FALLBACK_MODELS_WITH_STRUCTURED_OUTPUT = [
    # If model profile data are not available, model names matching these patterns
    # are assumed to support provider-native structured output (factory.py:185).
    r"(^|[/:.])gpt-4\.1($|[-/:])",
    r"(^|[/:.])gpt-4o($|[-/:])",
    r"(^|[/:.])gpt-5($|[-/:])",
    r"(^|[/:.])gpt-5\.1($|[-/:])",
    r"(^|[/:.])gpt-5\.2(-\d{4}-\d{2}-\d{2})?($|[/:])",
    r"(^|[/:.])gpt-5\.2-(chat|codex)($|[-/:])",
    r"(^|[/:.])gpt-5\.3($|[-/:])",
    r"(^|[/:.])gpt-5\.4(-\d{4}-\d{2}-\d{2})?($|[/:])",
    r"(^|[/:.])gpt-5\.4-(mini|nano)($|[-/:])",
    r"(^|[/:.])gpt-5\.5($|[-/:])",
    r"(^|[/:.])gpt-6-(astra|luna|sol)($|[-/:])",
    r"(^|[/:.])claude-(fable|mythos)-5(?:-\d{8})?(?:-v\d(?::\d)?)?($|[/:])",
    r"(^|[/:.])claude-haiku-4-5(?:-\d{8})?(?:-v\d(?::\d)?)?($|[/:])",
    r"(^|[/:.])claude-opus-4-(5|6|7|8)(?:-\d{8})?(?:-v\d(?::\d)?)?($|[/:])",
    r"(^|[/:.])claude-sonnet-4-(5|6)(?:-\d{8})?(?:-v\d(?::\d)?)?($|[/:])",
    r"(^|[/:.])grok-4($|[-.:/])",
    r"(^|[/:.])grok-build($|[-/:])",
]

_NODE_HOOKS = ("before_agent", "before_model", "after_model", "after_agent")


def _init_chat_model(model: str) -> BaseChatModel:
    """``"provider:model"`` -> a chat model: ``init_chat_model`` (factory.py:1051), imported
    on first use so the OpenAI-compatible model is loaded only when a string names it."""
    from miniagent.chat_models import init_chat_model

    return init_chat_model(model)


# --8<-- [start:normalize_to_model_response]
def _normalize_to_model_response(
    result: ModelResponse | AIMessage | ExtendedModelResponse,
) -> ModelResponse:
    """A bare ``AIMessage`` becomes ``ModelResponse([msg])``; an extended response is
    unwrapped (factory.py:209)."""
    if isinstance(result, AIMessage):
        return ModelResponse(result=[result], structured_response=None)
    if isinstance(result, ExtendedModelResponse):
        return result.model_response
    return result


# --8<-- [end:normalize_to_model_response]


# --8<-- [start:build_commands]
def _build_commands(
    model_response: ModelResponse,
    middleware_commands: list[Command[Any]] | None = None,
    *,
    has_structured_output: bool = False,
    repaired_messages: list[AnyMessage] | None = None,
) -> list[Command[Any]]:
    """The model node's return value: one ``Command`` with the response, then the
    middleware's commands (factory.py:225).

    A repaired history replaces the whole history (``RemoveMessage(REMOVE_ALL_MESSAGES)``);
    with a response format and no structured response, ``structured_response`` is reset.
    """
    messages = model_response.result
    if repaired_messages is not None:
        messages = [
            RemoveMessage(id=REMOVE_ALL_MESSAGES),
            *repaired_messages,
            *model_response.result,
        ]
    state: dict[str, Any] = {"messages": messages}

    if model_response.structured_response is not None:
        state["structured_response"] = model_response.structured_response
    elif has_structured_output:
        state["structured_response"] = None

    for cmd in middleware_commands or []:
        if cmd.goto:
            msg = (
                "Command goto is not yet supported in wrap_model_call middleware. "
                "Use the jump_to state field with before_model/after_model hooks instead."
            )
            raise NotImplementedError(msg)
        if cmd.resume:
            msg = "Command resume is not yet supported in wrap_model_call middleware."
            raise NotImplementedError(msg)
        if cmd.graph:
            msg = "Command graph is not yet supported in wrap_model_call middleware."
            raise NotImplementedError(msg)

    commands: list[Command[Any]] = [Command(update=state)]
    commands.extend(middleware_commands or [])
    return commands


# --8<-- [end:build_commands]


# --8<-- [start:chain_model_call_handlers]
def _chain_model_call_handlers(
    handlers: Sequence[Callable[..., Any]],
) -> Callable[..., _ComposedExtendedModelResponse] | None:
    """Compose ``wrap_model_call`` handlers, the first outermost: ``h0(h1(h2(model)))``
    (factory.py:284). Each layer's ``ExtendedModelResponse`` command is kept, inner first."""
    if not handlers:
        return None

    def _to_composed_result(
        result: ModelResponse | AIMessage | ExtendedModelResponse | _ComposedExtendedModelResponse,
        extra_commands: list[Command[Any]] | None = None,
    ) -> _ComposedExtendedModelResponse:
        """Normalize any handler result to _ComposedExtendedModelResponse."""
        commands: list[Command[Any]] = list(extra_commands or [])
        if isinstance(result, _ComposedExtendedModelResponse):
            commands.extend(result.commands)
            model_response = result.model_response
        elif isinstance(result, ExtendedModelResponse):
            model_response = result.model_response
            if result.command is not None:
                commands.append(result.command)
        else:
            model_response = _normalize_to_model_response(result)

        return _ComposedExtendedModelResponse(model_response=model_response, commands=commands)

    if len(handlers) == 1:
        single_handler = handlers[0]

        def normalized_single(
            request: ModelRequest[ContextT],
            handler: Callable[[ModelRequest[ContextT]], ModelResponse],
        ) -> _ComposedExtendedModelResponse:
            return _to_composed_result(single_handler(request, handler))

        return normalized_single

    def compose_two(
        outer: Callable[..., Any],
        inner: Callable[..., Any],
    ) -> Callable[..., _ComposedExtendedModelResponse]:
        """Compose two handlers where outer wraps inner."""

        def composed(
            request: ModelRequest[ContextT],
            handler: Callable[[ModelRequest[ContextT]], ModelResponse],
        ) -> _ComposedExtendedModelResponse:
            # Closure variable to capture inner's commands before normalizing
            accumulated_commands: list[Command[Any]] = []

            def inner_handler(req: ModelRequest[ContextT]) -> ModelResponse:
                # Clear on each call for retry safety
                accumulated_commands.clear()
                inner_result = inner(req, handler)
                if isinstance(inner_result, _ComposedExtendedModelResponse):
                    accumulated_commands.extend(inner_result.commands)
                    return inner_result.model_response
                if isinstance(inner_result, ExtendedModelResponse):
                    if inner_result.command is not None:
                        accumulated_commands.append(inner_result.command)
                    return inner_result.model_response
                return _normalize_to_model_response(inner_result)

            outer_result = outer(request, inner_handler)
            return _to_composed_result(
                outer_result,
                extra_commands=accumulated_commands or None,
            )

        return composed

    # Compose right-to-left: outer(inner(innermost(handler)))
    composed_handler = compose_two(handlers[-2], handlers[-1])
    for h in reversed(handlers[:-2]):
        composed_handler = compose_two(h, composed_handler)

    return composed_handler


# --8<-- [end:chain_model_call_handlers]


def _chain_async_model_call_handlers(
    handlers: Sequence[Callable[..., Awaitable[Any]]],
) -> Callable[..., Awaitable[_ComposedExtendedModelResponse]] | None:
    """``_chain_model_call_handlers`` with ``await`` (factory.py:376)."""
    if not handlers:
        return None

    def _to_composed_result(
        result: ModelResponse | AIMessage | ExtendedModelResponse | _ComposedExtendedModelResponse,
        extra_commands: list[Command[Any]] | None = None,
    ) -> _ComposedExtendedModelResponse:
        """Normalize any handler result to _ComposedExtendedModelResponse."""
        commands: list[Command[Any]] = list(extra_commands or [])
        if isinstance(result, _ComposedExtendedModelResponse):
            commands.extend(result.commands)
            model_response = result.model_response
        elif isinstance(result, ExtendedModelResponse):
            model_response = result.model_response
            if result.command is not None:
                commands.append(result.command)
        else:
            model_response = _normalize_to_model_response(result)

        return _ComposedExtendedModelResponse(model_response=model_response, commands=commands)

    if len(handlers) == 1:
        single_handler = handlers[0]

        async def normalized_single(
            request: ModelRequest[ContextT],
            handler: Callable[[ModelRequest[ContextT]], Awaitable[ModelResponse]],
        ) -> _ComposedExtendedModelResponse:
            return _to_composed_result(await single_handler(request, handler))

        return normalized_single

    def compose_two(
        outer: Callable[..., Awaitable[Any]],
        inner: Callable[..., Awaitable[Any]],
    ) -> Callable[..., Awaitable[_ComposedExtendedModelResponse]]:
        """Compose two async handlers where outer wraps inner."""

        async def composed(
            request: ModelRequest[ContextT],
            handler: Callable[[ModelRequest[ContextT]], Awaitable[ModelResponse]],
        ) -> _ComposedExtendedModelResponse:
            # Closure variable to capture inner's commands before normalizing
            accumulated_commands: list[Command[Any]] = []

            async def inner_handler(req: ModelRequest[ContextT]) -> ModelResponse:
                # Clear on each call for retry safety
                accumulated_commands.clear()
                inner_result = await inner(req, handler)
                if isinstance(inner_result, _ComposedExtendedModelResponse):
                    accumulated_commands.extend(inner_result.commands)
                    return inner_result.model_response
                if isinstance(inner_result, ExtendedModelResponse):
                    if inner_result.command is not None:
                        accumulated_commands.append(inner_result.command)
                    return inner_result.model_response
                return _normalize_to_model_response(inner_result)

            outer_result = await outer(request, inner_handler)
            return _to_composed_result(
                outer_result,
                extra_commands=accumulated_commands or None,
            )

        return composed

    # Compose right-to-left: outer(inner(innermost(handler)))
    composed_handler = compose_two(handlers[-2], handlers[-1])
    for h in reversed(handlers[:-2]):
        composed_handler = compose_two(h, composed_handler)

    return composed_handler


@functools.lru_cache(maxsize=100)
def _get_schema_type_hints(schema: type) -> dict[str, Any]:
    """Return cached type hints for a schema (factory.py:468)."""
    return get_type_hints(schema, include_extras=True)


# --8<-- [start:resolve_schemas]
def _resolve_schemas(schemas: list[type]) -> tuple[type, type, type]:
    """State, input and output schemas merged from ``schemas``, later ones winning a
    field both declare (factory.py:473)."""
    schema_hints: dict[type, dict[str, Any]] = {}
    for schema in schemas:
        # Reinsert duplicates so dict iteration reflects their final position.
        schema_hints.pop(schema, None)
        schema_hints[schema] = _get_schema_type_hints(schema)
    return (
        _resolve_schema(schema_hints, "StateSchema", None),
        _resolve_schema(schema_hints, "InputSchema", "input"),
        _resolve_schema(schema_hints, "OutputSchema", "output"),
    )


def _resolve_schema(
    schema_hints: dict[type, dict[str, Any]],
    schema_name: str,
    omit_flag: str | None = None,
) -> type:
    """One merged ``TypedDict``, without the fields ``OmitFromSchema`` marks for
    ``omit_flag`` (``"input"``/``"output"``) (factory.py:492)."""
    all_annotations = {}

    for hints in schema_hints.values():
        for field_name, field_type in hints.items():
            should_omit = False

            if omit_flag:
                metadata = _extract_metadata(field_type)
                for meta in metadata:
                    if isinstance(meta, OmitFromSchema) and getattr(meta, omit_flag) is True:
                        should_omit = True
                        break

            if not should_omit:
                all_annotations[field_name] = field_type

    return cast("type", TypedDict(schema_name, all_annotations))  # type: ignore[operator]


# --8<-- [end:resolve_schemas]


def _extract_metadata(type_: type) -> list[Any]:
    """The ``Annotated`` metadata, under ``Required``/``NotRequired`` too (factory.py:529)."""
    # Handle Required[Annotated[...]] or NotRequired[Annotated[...]]
    if get_origin(type_) in {Required, NotRequired}:
        inner_type = get_args(type_)[0]
        if get_origin(inner_type) is Annotated:
            return list(get_args(inner_type)[1:])

    # Handle direct Annotated[...]
    elif get_origin(type_) is Annotated:
        return list(get_args(type_)[1:])

    return []


# --8<-- [start:get_can_jump_to]
def _get_can_jump_to(middleware: AgentMiddleware[Any, Any], hook_name: str) -> list[JumpTo]:
    """Where a hook may jump: the ``__can_jump_to__`` that ``@hook_config`` or a decorator's
    ``can_jump_to=`` set on the overriding sync or async method (factory.py:544)."""
    # Get the base class method for comparison
    base_sync_method = getattr(AgentMiddleware, hook_name, None)
    base_async_method = getattr(AgentMiddleware, f"a{hook_name}", None)

    # Try sync method first - only if it's overridden from base class
    sync_method = getattr(middleware.__class__, hook_name, None)
    if (
        sync_method
        and sync_method is not base_sync_method
        and hasattr(sync_method, "__can_jump_to__")
    ):
        return cast("list[JumpTo]", sync_method.__can_jump_to__)

    # Try async method - only if it's overridden from base class
    async_method = getattr(middleware.__class__, f"a{hook_name}", None)
    if (
        async_method
        and async_method is not base_async_method
        and hasattr(async_method, "__can_jump_to__")
    ):
        return cast("list[JumpTo]", async_method.__can_jump_to__)

    return []


# --8<-- [end:get_can_jump_to]


def _supports_provider_strategy(
    model: str | BaseChatModel, tools: list[BaseTool | dict[str, Any]] | None = None
) -> bool:
    """Does the model do JSON-mode structured output? Its profile says so, or its name
    matches ``FALLBACK_MODELS_WITH_STRUCTURED_OUTPUT`` (factory.py:581)."""
    model_name: str | None = None
    if isinstance(model, str):
        model_name = model
    elif isinstance(model, BaseChatModel):
        model_name = (
            getattr(model, "model_name", None)
            or getattr(model, "model", None)
            or getattr(model, "model_id", "")
        )
        # the miniature's chat models carry no profile (langchain_core's ModelProfile)
        model_profile = getattr(model, "profile", None)
        if (
            model_profile is not None
            and model_profile.get("structured_output")
            # We make an exception for Gemini < 3-series models, which currently do not support
            # simultaneous tool use with structured output; 3-series can.
            and not (
                tools
                and isinstance(model_name, str)
                and "gemini" in model_name.lower()
                and "gemini-3" not in model_name.lower()
            )
        ):
            return True

    return (
        any(
            re.search(pattern, model_name.lower())
            for pattern in FALLBACK_MODELS_WITH_STRUCTURED_OUTPUT
        )
        if model_name
        else False
    )


def _is_openai_compatible_model(model: BaseChatModel) -> bool:
    """Is the model an OpenAI-compatible chat model (``miniagent.openai``)? Then a provider
    strategy also binds ``strict=True`` (factory.py:629; upstream checks langchain-openai's)."""
    try:
        base_chat_openai = importlib.import_module("miniagent.openai.chat_models.base")
    except ImportError:
        return False
    return isinstance(model, base_chat_openai.BaseChatOpenAI)


def _handle_structured_output_error(
    exception: Exception,
    response_format: ResponseFormat[Any],
) -> tuple[bool, str]:
    """``(should_retry, retry_tool_message)`` from ``ToolStrategy.handle_errors``
    (factory.py:649)."""
    if not isinstance(response_format, ToolStrategy):
        return False, ""

    handle_errors = response_format.handle_errors

    if handle_errors is False:
        return False, ""
    if handle_errors is True:
        return True, STRUCTURED_OUTPUT_ERROR_TEMPLATE.format(error=str(exception))
    if isinstance(handle_errors, str):
        return True, handle_errors
    if isinstance(handle_errors, type):
        if issubclass(handle_errors, Exception) and isinstance(exception, handle_errors):
            return True, STRUCTURED_OUTPUT_ERROR_TEMPLATE.format(error=str(exception))
        return False, ""
    if isinstance(handle_errors, tuple):
        if any(isinstance(exception, exc_type) for exc_type in handle_errors):
            return True, STRUCTURED_OUTPUT_ERROR_TEMPLATE.format(error=str(exception))
        return False, ""
    return True, handle_errors(exception)


# --8<-- [start:patch_invalid_tool_calls]
def _invalid_tool_call_message(tool_call: InvalidToolCall) -> ToolMessage | None:
    """The error ToolMessage that answers a malformed tool call with an id (factory.py:679)."""
    tool_call_id = tool_call.get("id")
    if tool_call_id is None:
        return None
    name = tool_call.get("name") or "unknown"
    return ToolMessage(
        content=(
            f"Tool call {name} with id {tool_call_id} could not be executed - "
            "arguments were malformed or truncated."
        ),
        name=name,
        tool_call_id=tool_call_id,
        status="error",
    )


def _patch_invalid_tool_calls(messages: Sequence[AnyMessage]) -> list[AnyMessage]:
    """A new history where every unanswered invalid tool call is answered right after its
    AIMessage (factory.py:695)."""
    answered_ids = {
        message.tool_call_id for message in messages if isinstance(message, ToolMessage)
    }
    patched_messages: list[AnyMessage] = []
    for message in messages:
        patched_messages.append(message)
        if not isinstance(message, AIMessage):
            continue
        for tool_call in message.invalid_tool_calls:
            if tool_call.get("id") in answered_ids:
                continue
            if tool_message := _invalid_tool_call_message(tool_call):
                patched_messages.append(tool_message)
                answered_ids.add(tool_message.tool_call_id)
    return patched_messages


# --8<-- [end:patch_invalid_tool_calls]


# --8<-- [start:chain_tool_call_wrappers]
def _chain_tool_call_wrappers(
    wrappers: Sequence[ToolCallWrapper],
) -> ToolCallWrapper | None:
    """Compose ``wrap_tool_call`` wrappers, the first outermost (factory.py:713)."""
    if not wrappers:
        return None

    if len(wrappers) == 1:
        return wrappers[0]

    def compose_two(outer: ToolCallWrapper, inner: ToolCallWrapper) -> ToolCallWrapper:
        """Compose two wrappers where outer wraps inner."""

        def composed(
            request: ToolCallRequest,
            execute: Callable[[ToolCallRequest], ToolMessage | Command[Any]],
        ) -> ToolMessage | Command[Any]:
            # Create a callable that invokes inner with the original execute
            def call_inner(req: ToolCallRequest) -> ToolMessage | Command[Any]:
                return inner(req, execute)

            # Outer can call call_inner multiple times
            return outer(request, call_inner)

        return composed

    # Chain all wrappers: first -> second -> ... -> last
    result = wrappers[-1]
    for wrapper in reversed(wrappers[:-1]):
        result = compose_two(wrapper, result)

    return result


# --8<-- [end:chain_tool_call_wrappers]


def _chain_async_tool_call_wrappers(
    wrappers: Sequence[Callable[..., Awaitable[Any]]],
) -> Callable[..., Awaitable[Any]] | None:
    """``_chain_tool_call_wrappers`` with ``await`` (factory.py:761)."""
    if not wrappers:
        return None

    if len(wrappers) == 1:
        return wrappers[0]

    def compose_two(
        outer: Callable[..., Awaitable[Any]],
        inner: Callable[..., Awaitable[Any]],
    ) -> Callable[..., Awaitable[Any]]:
        """Compose two async wrappers where outer wraps inner."""

        async def composed(
            request: ToolCallRequest,
            execute: Callable[[ToolCallRequest], Awaitable[ToolMessage | Command[Any]]],
        ) -> ToolMessage | Command[Any]:
            # Create an async callable that invokes inner with the original execute
            async def call_inner(req: ToolCallRequest) -> ToolMessage | Command[Any]:
                return await inner(req, execute)

            # Outer can call call_inner multiple times
            return await outer(request, call_inner)

        return composed

    # Chain all wrappers: first -> second -> ... -> last
    result = wrappers[-1]
    for wrapper in reversed(wrappers[:-1]):
        result = compose_two(wrapper, result)

    return result


# ---- create_agent's setup, in upstream's order -------------------------------------------


def _setup_response_format(
    response_format: Any,
) -> tuple[Any, ToolStrategy[Any] | None, dict[str, OutputToolBinding[Any]]]:
    """``(initial_response_format, tool_strategy_for_setup, structured_output_tools)``
    (factory.py:1065-1091): a raw schema becomes an ``AutoStrategy``, whose tools are made up
    front as for a ``ToolStrategy``."""
    # Raw schemas are wrapped in AutoStrategy to preserve auto-detection intent.
    # AutoStrategy is converted to ToolStrategy upfront to calculate tools during agent creation,
    # but may be replaced with ProviderStrategy later based on model capabilities.
    if response_format is None:
        initial_response_format = None
    elif isinstance(response_format, (ToolStrategy, ProviderStrategy, AutoStrategy)):
        # Explicit Tool/Provider strategy, or AutoStrategy for later capability detection
        initial_response_format = response_format
    else:
        # Raw schema - wrap in AutoStrategy to enable auto-detection
        initial_response_format = AutoStrategy(schema=response_format)

    # For AutoStrategy, convert to ToolStrategy to setup tools upfront
    # (may be replaced with ProviderStrategy later based on model)
    tool_strategy_for_setup: ToolStrategy[Any] | None = None
    if isinstance(initial_response_format, AutoStrategy):
        tool_strategy_for_setup = ToolStrategy(schema=initial_response_format.schema)
    elif isinstance(initial_response_format, ToolStrategy):
        tool_strategy_for_setup = initial_response_format

    structured_output_tools: dict[str, OutputToolBinding[Any]] = {}
    if tool_strategy_for_setup:
        for response_schema in tool_strategy_for_setup.schema_specs:
            structured_tool_info = OutputToolBinding.from_schema_spec(response_schema)
            structured_output_tools[structured_tool_info.tool.name] = structured_tool_info
    return initial_response_format, tool_strategy_for_setup, structured_output_tools


def _middleware_with(middleware: Sequence[AgentMiddleware], hook: str) -> list[AgentMiddleware]:
    """The middleware whose class overrides ``hook`` or its async twin ``a{hook}``, in list
    order: upstream's ``middleware_w_<hook>`` lists (factory.py:1097-1207). Either variant
    counts, so a missing one raises its NotImplementedError on that path."""
    return [
        m
        for m in middleware
        if getattr(m.__class__, hook) is not getattr(AgentMiddleware, hook)
        or getattr(m.__class__, f"a{hook}") is not getattr(AgentMiddleware, f"a{hook}")
    ]


def _setup_tool_call_wrappers(middleware: Sequence[AgentMiddleware]) -> tuple[Any, Any]:
    """The composed ``wrap_tool_call`` and ``awrap_tool_call`` (factory.py:1094-1130)."""
    middleware_w_wrap_tool_call = _middleware_with(middleware, "wrap_tool_call")

    # Chain all wrap_tool_call handlers into a single composed handler
    wrap_tool_call_wrapper = None
    if middleware_w_wrap_tool_call:
        wrappers = [m.wrap_tool_call for m in middleware_w_wrap_tool_call]
        wrap_tool_call_wrapper = _chain_tool_call_wrappers(wrappers)

    # Chain all awrap_tool_call handlers into a single composed async handler
    awrap_tool_call_wrapper = None
    if middleware_w_wrap_tool_call:
        async_wrappers = [m.awrap_tool_call for m in middleware_w_wrap_tool_call]
        awrap_tool_call_wrapper = _chain_async_tool_call_wrappers(async_wrappers)
    return wrap_tool_call_wrapper, awrap_tool_call_wrapper


def _setup_tool_node(
    tools: Sequence[Any],
    middleware_tools: list[BaseTool],
    wrap_tool_call_wrapper: Any,
    awrap_tool_call_wrapper: Any,
) -> tuple[ToolNode | None, list[Any]]:
    """``(tool_node, default_tools)`` (factory.py:1132-1160): dict tools are provider
    built-ins, bound to the model but never run here."""
    # Extract built-in provider tools (dict format) and regular tools (BaseTool/callables)
    built_in_tools = [t for t in tools if isinstance(t, dict)]
    regular_tools = [t for t in tools if not isinstance(t, dict)]

    # Tools that require client-side execution (must be in ToolNode)
    available_tools = middleware_tools + regular_tools

    # Create ToolNode if we have client-side tools OR if middleware defines wrap_tool_call
    # (which may handle dynamically registered tools)
    tool_node = (
        ToolNode(
            tools=available_tools,
            wrap_tool_call=wrap_tool_call_wrapper,
            awrap_tool_call=awrap_tool_call_wrapper,
        )
        if available_tools or wrap_tool_call_wrapper or awrap_tool_call_wrapper
        else None
    )

    # Default tools for ModelRequest initialization: the ToolNode's converted tools and the
    # built-ins; structured-output tools are added per call, in _get_bound_model
    if tool_node:
        default_tools = list(tool_node.tools_by_name.values()) + built_in_tools
    else:
        default_tools = list(built_in_tools)
    return tool_node, default_tools


def _setup_model_call_handlers(middleware: Sequence[AgentMiddleware]) -> tuple[Any, Any]:
    """The composed ``wrap_model_call`` and ``awrap_model_call`` (factory.py:1190-1227)."""
    middleware_w_wrap_model_call = _middleware_with(middleware, "wrap_model_call")

    # Compose wrap_model_call handlers into a single middleware stack (sync)
    wrap_model_call_handler = None
    if middleware_w_wrap_model_call:
        sync_handlers = [m.wrap_model_call for m in middleware_w_wrap_model_call]
        wrap_model_call_handler = _chain_model_call_handlers(sync_handlers)

    # Compose awrap_model_call handlers into a single middleware stack (async)
    awrap_model_call_handler = None
    if middleware_w_wrap_model_call:
        async_handlers = [m.awrap_model_call for m in middleware_w_wrap_model_call]
        awrap_model_call_handler = _chain_async_model_call_handlers(async_handlers)
    return wrap_model_call_handler, awrap_model_call_handler


# --8<-- [start:create_agent]
def create_agent(
    model: str | BaseChatModel,
    tools: Sequence[BaseTool | Callable[..., Any] | dict[str, Any]] | None = None,
    *,
    system_prompt: str | SystemMessage | None = None,
    middleware: Sequence[AgentMiddleware[Any, Any]] = (),
    response_format: ResponseFormat[ResponseT] | type[ResponseT] | dict[str, Any] | None = None,
    state_schema: type[AgentState[ResponseT]] | None = None,
    context_schema: type[ContextT] | None = None,
    checkpointer: Any = None,
    store: Any = None,
    interrupt_before: list[str] | None = None,
    interrupt_after: list[str] | None = None,
    debug: bool = False,
    name: str | None = None,
) -> CompiledStateGraph:
    """An agent graph that calls the model and its tools in a loop, with middleware around
    each step (factory.py:895).

    The system prompt is never stored in the state: the model node puts it in front of the
    messages of every call. Tools are bound per call, so ``wrap_model_call`` can change them.
    The graph runs with ``recursion_limit=9_999``.
    """
    # init chat model
    if isinstance(model, str):
        model = _init_chat_model(model)

    # Convert system_prompt to SystemMessage if needed
    system_message: SystemMessage | None = None
    if system_prompt is not None:
        if isinstance(system_prompt, SystemMessage):
            system_message = system_prompt
        else:
            system_message = SystemMessage(content=system_prompt)

    # Handle tools being None or empty
    if tools is None:
        tools = []

    initial_response_format, tool_strategy_for_setup, structured_output_tools = (
        _setup_response_format(response_format)
    )
    middleware_tools = [t for m in middleware for t in getattr(m, "tools", [])]
    wrap_tool_call_wrapper, awrap_tool_call_wrapper = _setup_tool_call_wrappers(middleware)
    tool_node, default_tools = _setup_tool_node(
        tools, middleware_tools, wrap_tool_call_wrapper, awrap_tool_call_wrapper
    )

    # validate middleware
    if len({m.name for m in middleware}) != len(middleware):
        msg = "Please remove duplicate middleware instances."
        raise AssertionError(msg)
    wrap_model_call_handler, awrap_model_call_handler = _setup_model_call_handlers(middleware)

    base_state = state_schema if state_schema is not None else AgentState
    # Middleware schemas first (in registration order), base_state last so it wins any
    # field conflict.
    state_schemas: list[type] = [*(m.state_schema for m in middleware), base_state]

    resolved_state_schema, input_schema, output_schema = _resolve_schemas(state_schemas)

    # create graph, add nodes
    graph = StateGraph(
        state_schema=resolved_state_schema,
        input_schema=input_schema,
        output_schema=output_schema,
        context_schema=context_schema,
    )

    # --8<-- [start:handle_model_output]
    def _handle_model_output(
        output: AIMessage, effective_response_format: ResponseFormat[Any] | None
    ) -> dict[str, Any]:
        """The node's messages and ``structured_response`` from the model's reply
        (factory.py:1249)."""
        # Handle structured output with provider strategy
        if isinstance(effective_response_format, ProviderStrategy):
            if not output.tool_calls:
                provider_strategy_binding = ProviderStrategyBinding.from_schema_spec(
                    effective_response_format.schema_spec
                )
                try:
                    structured_response = provider_strategy_binding.parse(output)
                except Exception as exc:
                    schema_name = getattr(
                        effective_response_format.schema_spec.schema, "__name__", "response_format"
                    )
                    validation_error = StructuredOutputValidationError(schema_name, exc, output)
                    raise validation_error from exc
                else:
                    return {"messages": [output], "structured_response": structured_response}
            return {"messages": [output]}

        # Handle structured output with tool strategy
        if (
            isinstance(effective_response_format, ToolStrategy)
            and isinstance(output, AIMessage)
            and output.tool_calls
        ):
            structured_tool_calls = [
                tc for tc in output.tool_calls if tc["name"] in structured_output_tools
            ]

            if structured_tool_calls:
                exception: StructuredOutputError | None = None
                if len(structured_tool_calls) > 1:
                    # Handle multiple structured outputs error
                    tool_names = [tc["name"] for tc in structured_tool_calls]
                    exception = MultipleStructuredOutputsError(tool_names, output)
                    should_retry, error_message = _handle_structured_output_error(
                        exception, effective_response_format
                    )
                    if not should_retry:
                        raise exception

                    # Add error messages and retry
                    tool_messages = [
                        ToolMessage(
                            content=error_message,
                            tool_call_id=tc["id"],
                            name=tc["name"],
                        )
                        for tc in structured_tool_calls
                    ]
                    return {"messages": [output, *tool_messages]}

                # Handle single structured output
                tool_call = structured_tool_calls[0]
                try:
                    structured_tool_binding = structured_output_tools[tool_call["name"]]
                    structured_response = structured_tool_binding.parse(tool_call["args"])

                    tool_message_content = (
                        effective_response_format.tool_message_content
                        or f"Returning structured response: {structured_response}"
                    )

                    return {
                        "messages": [
                            output,
                            ToolMessage(
                                content=tool_message_content,
                                tool_call_id=tool_call["id"],
                                name=tool_call["name"],
                            ),
                        ],
                        "structured_response": structured_response,
                    }
                except Exception as exc:
                    exception = StructuredOutputValidationError(tool_call["name"], exc, output)
                    should_retry, error_message = _handle_structured_output_error(
                        exception, effective_response_format
                    )
                    if not should_retry:
                        raise exception from exc

                    return {
                        "messages": [
                            output,
                            ToolMessage(
                                content=error_message,
                                tool_call_id=tool_call["id"],
                                name=tool_call["name"],
                            ),
                        ],
                    }

        return {"messages": [output]}

    # --8<-- [end:handle_model_output]

    # --8<-- [start:get_bound_model]
    def _get_bound_model(
        request: ModelRequest[ContextT],
    ) -> tuple[Any, ResponseFormat[Any] | None]:
        """``(bound_model, effective_response_format)``: check the request's tools, pick
        the strategy, bind the tools (factory.py:1353)."""
        # Validate ONLY client-side tools that need to exist in tool_node
        # Skip validation when wrap_tool_call is defined, as middleware may handle
        # dynamic tools that are added at runtime via wrap_model_call
        has_wrap_tool_call = wrap_tool_call_wrapper or awrap_tool_call_wrapper

        # Build map of available client-side tools from the ToolNode
        # (which has already converted callables)
        available_tools_by_name = {}
        if tool_node:
            available_tools_by_name = tool_node.tools_by_name.copy()

        # Check if any requested tools are unknown CLIENT-SIDE tools
        # Only validate if wrap_tool_call is NOT defined (no dynamic tool handling)
        if not has_wrap_tool_call:
            unknown_tool_names = []
            for t in request.tools:
                # Only validate BaseTool instances (skip built-in dict tools)
                if isinstance(t, dict):
                    continue
                if isinstance(t, BaseTool) and t.name not in available_tools_by_name:
                    unknown_tool_names.append(t.name)

            if unknown_tool_names:
                available_tool_names = sorted(available_tools_by_name.keys())
                msg = DYNAMIC_TOOL_ERROR_TEMPLATE.format(
                    unknown_tool_names=unknown_tool_names,
                    available_tool_names=available_tool_names,
                )
                raise ValueError(msg)

        # Normalize raw schemas to AutoStrategy
        # (handles middleware override with raw Pydantic classes)
        response_format: ResponseFormat[Any] | Any | None = request.response_format
        if response_format is not None and not isinstance(
            response_format, (AutoStrategy, ToolStrategy, ProviderStrategy)
        ):
            response_format = AutoStrategy(schema=response_format)

        # Determine effective response format (auto-detect if needed)
        effective_response_format: ResponseFormat[Any] | None
        if isinstance(response_format, AutoStrategy):
            # User provided raw schema via AutoStrategy - auto-detect best strategy based on model
            if _supports_provider_strategy(request.model, tools=request.tools):
                # Model supports provider strategy - use it
                effective_response_format = ProviderStrategy(schema=response_format.schema)
            elif response_format is initial_response_format and tool_strategy_for_setup is not None:
                # Model doesn't support provider strategy - use ToolStrategy
                # Reuse the strategy from setup if possible to preserve tool names
                effective_response_format = tool_strategy_for_setup
            else:
                effective_response_format = ToolStrategy(schema=response_format.schema)
        else:
            # User explicitly specified a strategy - preserve it
            effective_response_format = response_format

        # Build final tools list including structured output tools
        # request.tools now only contains BaseTool instances (converted from callables)
        # and dicts (built-ins)
        final_tools = list(request.tools)
        if isinstance(effective_response_format, ToolStrategy):
            # Add structured output tools to final tools list, narrowed to only the
            # schemas present in the (possibly middleware-narrowed) response format.
            narrowed_tool_names = {spec.name for spec in effective_response_format.schema_specs}
            structured_tools = [
                info.tool
                for name, info in structured_output_tools.items()
                if name in narrowed_tool_names
            ]
            final_tools.extend(structured_tools)

        # Bind model based on effective response format
        if isinstance(effective_response_format, ProviderStrategy):
            # (Backward compatibility) Use OpenAI format structured output
            # Redundantly set strict=True on tools for OpenAI-compatible models, as older
            # versions of langchain-openai do not auto-set it in bind_tools.
            kwargs = effective_response_format.to_model_kwargs()
            bind_kwargs: dict[str, Any] = {**kwargs, **request.model_settings}
            if _is_openai_compatible_model(request.model) and not getattr(
                request.model, "use_responses_api", False
            ):
                bind_kwargs["strict"] = True
            return (
                request.model.bind_tools(final_tools, **bind_kwargs),
                effective_response_format,
            )

        if isinstance(effective_response_format, ToolStrategy):
            # Middleware may narrow the response format to a subset of the structured tools
            # declared when creating the agent, but not add new ones.
            for tc in effective_response_format.schema_specs:
                if tc.name not in structured_output_tools:
                    msg = (
                        f"ToolStrategy specifies tool '{tc.name}' "
                        "which wasn't declared in the original "
                        "response format when creating the agent."
                    )
                    raise ValueError(msg)

            # Force tool use if we have structured output tools
            tool_choice = "any" if structured_output_tools else request.tool_choice
            return (
                request.model.bind_tools(
                    final_tools, tool_choice=tool_choice, **request.model_settings
                ),
                effective_response_format,
            )

        # No structured output - standard model binding
        if final_tools:
            return (
                request.model.bind_tools(
                    final_tools, tool_choice=request.tool_choice, **request.model_settings
                ),
                None,
            )
        return request.model.bind(**request.model_settings), None

    # --8<-- [end:get_bound_model]

    # --8<-- [start:execute_model_sync]
    def _execute_model_sync(request: ModelRequest[ContextT]) -> ModelResponse:
        """Bind, prepend the system message, call the model: the innermost handler of
        the ``wrap_model_call`` stack (factory.py:1496)."""
        # Get the bound model (with auto-detection if needed)
        model_, effective_response_format = _get_bound_model(request)
        messages = request.messages
        if request.system_message:
            messages = [request.system_message, *messages]

        output = model_.invoke(messages)
        if name:
            output.name = name

        # Handle model output to get messages and structured_response
        handled_output = _handle_model_output(output, effective_response_format)
        messages_list = handled_output["messages"]
        structured_response = handled_output.get("structured_response")

        return ModelResponse(
            result=messages_list,
            structured_response=structured_response,
        )

    # --8<-- [end:execute_model_sync]

    # --8<-- [start:model_node]
    def model_node(state: AgentState[Any], runtime: Runtime[ContextT]) -> list[Command[Any]]:
        """The ``model`` node: build the request, run the ``wrap_model_call`` stack around
        ``_execute_model_sync`` (factory.py:1523)."""
        messages = _patch_invalid_tool_calls(state["messages"])
        request = ModelRequest(
            model=model,
            tools=default_tools,
            system_message=system_message,
            response_format=initial_response_format,
            messages=messages,
            tool_choice=None,
            state=state,
            runtime=runtime,
        )

        has_structured_output = initial_response_format is not None
        if wrap_model_call_handler is None:
            model_response = _execute_model_sync(request)
            return _build_commands(
                model_response,
                has_structured_output=has_structured_output,
                repaired_messages=messages if messages != state["messages"] else None,
            )

        result = wrap_model_call_handler(request, _execute_model_sync)
        return _build_commands(
            result.model_response,
            result.commands,
            has_structured_output=has_structured_output,
            repaired_messages=messages if messages != state["messages"] else None,
        )

    # --8<-- [end:model_node]

    async def _execute_model_async(request: ModelRequest[ContextT]) -> ModelResponse:
        """``_execute_model_sync`` with ``ainvoke`` (factory.py:1554)."""
        # Get the bound model (with auto-detection if needed)
        model_, effective_response_format = _get_bound_model(request)
        messages = request.messages
        if request.system_message:
            messages = [request.system_message, *messages]

        output = await model_.ainvoke(messages)
        if name:
            output.name = name

        # Handle model output to get messages and structured_response
        handled_output = _handle_model_output(output, effective_response_format)
        messages_list = handled_output["messages"]
        structured_response = handled_output.get("structured_response")

        return ModelResponse(
            result=messages_list,
            structured_response=structured_response,
        )

    async def amodel_node(state: AgentState[Any], runtime: Runtime[ContextT]) -> list[Command[Any]]:
        """``model_node`` with ``await`` (factory.py:1582)."""
        messages = _patch_invalid_tool_calls(state["messages"])
        request = ModelRequest(
            model=model,
            tools=default_tools,
            system_message=system_message,
            response_format=initial_response_format,
            messages=messages,
            tool_choice=None,
            state=state,
            runtime=runtime,
        )

        has_structured_output = initial_response_format is not None
        if awrap_model_call_handler is None:
            model_response = await _execute_model_async(request)
            return _build_commands(
                model_response,
                has_structured_output=has_structured_output,
                repaired_messages=messages if messages != state["messages"] else None,
            )

        result = await awrap_model_call_handler(request, _execute_model_async)
        return _build_commands(
            result.model_response,
            result.commands,
            has_structured_output=has_structured_output,
            repaired_messages=messages if messages != state["messages"] else None,
        )

    # Use sync or async based on model capabilities
    graph.add_node("model", RunnableCallable(model_node, amodel_node, trace=False))

    # Only add tools node if we have tools
    if tool_node is not None:
        graph.add_node("tools", tool_node)

    _add_middleware_nodes(graph, middleware, resolved_state_schema)
    _add_agent_edges(
        graph,
        middleware=middleware,
        tool_node=tool_node,
        response_format=response_format,
        structured_output_tools=structured_output_tools,
    )

    # Set recursion limit to 9_999
    # https://github.com/langchain-ai/langgraph/issues/7313
    config: dict[str, Any] = {"recursion_limit": 9_999}
    config["metadata"] = {"ls_integration": "langchain_create_agent"}
    if name:
        config["metadata"]["lc_agent_name"] = name

    return graph.compile(
        checkpointer=checkpointer,
        store=store,
        interrupt_before=interrupt_before,
        interrupt_after=interrupt_after,
        debug=debug,
        name=name,
    ).with_config(config)


# --8<-- [end:create_agent]


# ---- create_agent's graph: nodes and edges ---------------------------------------------


# --8<-- [start:add_middleware_nodes]
def _add_middleware_nodes(
    graph: StateGraph, middleware: Sequence[AgentMiddleware], resolved_state_schema: type
) -> None:
    """One node ``"{m.name}.{hook}"`` per overridden node hook (factory.py:1620-1716, its
    four blocks as one loop). The node gets ``None`` for a variant not overridden, so running
    the graph on that path raises."""
    for m in middleware:
        for hook in _NODE_HOOKS:
            sync_hook = getattr(m.__class__, hook) is not getattr(AgentMiddleware, hook)
            async_hook = getattr(m.__class__, f"a{hook}") is not getattr(
                AgentMiddleware, f"a{hook}"
            )
            if sync_hook or async_hook:
                node = RunnableCallable(
                    getattr(m, hook) if sync_hook else None,
                    getattr(m, f"a{hook}") if async_hook else None,
                    trace=False,
                )
                graph.add_node(f"{m.name}.{hook}", node, input_schema=resolved_state_schema)


# --8<-- [end:add_middleware_nodes]


# --8<-- [start:loop_anchors]
def _loop_anchors(
    middleware_w_before_agent: list[AgentMiddleware],
    middleware_w_before_model: list[AgentMiddleware],
    middleware_w_after_model: list[AgentMiddleware],
    middleware_w_after_agent: list[AgentMiddleware],
) -> tuple[str, str, str, str]:
    """``(entry_node, loop_entry_node, loop_exit_node, exit_node)`` (factory.py:1718-1744)."""
    # Determine the entry node (runs once at start): before_agent -> before_model -> model
    if middleware_w_before_agent:
        entry_node = f"{middleware_w_before_agent[0].name}.before_agent"
    elif middleware_w_before_model:
        entry_node = f"{middleware_w_before_model[0].name}.before_model"
    else:
        entry_node = "model"

    # Determine the loop entry node (beginning of agent loop, excludes before_agent)
    # This is where tools will loop back to for the next iteration
    if middleware_w_before_model:
        loop_entry_node = f"{middleware_w_before_model[0].name}.before_model"
    else:
        loop_entry_node = "model"

    # Determine the loop exit node (end of each iteration, can run multiple times)
    # This is after_model or model, but NOT after_agent
    if middleware_w_after_model:
        loop_exit_node = f"{middleware_w_after_model[0].name}.after_model"
    else:
        loop_exit_node = "model"

    # Determine the exit node (runs once at end): after_agent or END
    if middleware_w_after_agent:
        exit_node = f"{middleware_w_after_agent[-1].name}.after_agent"
    else:
        exit_node = END
    return entry_node, loop_entry_node, loop_exit_node, exit_node


# --8<-- [end:loop_anchors]


def _add_agent_edges(
    graph: StateGraph,
    *,
    middleware: Sequence[AgentMiddleware],
    tool_node: ToolNode | None,
    response_format: Any,
    structured_output_tools: dict[str, OutputToolBinding[Any]],
) -> None:
    """START to the entry node, the model/tools loop, and the middleware chains
    (factory.py:1718-1898)."""
    middleware_w_before_agent = _middleware_with(middleware, "before_agent")
    middleware_w_before_model = _middleware_with(middleware, "before_model")
    middleware_w_after_model = _middleware_with(middleware, "after_model")
    middleware_w_after_agent = _middleware_with(middleware, "after_agent")
    middleware_w_wrap_model_call = _middleware_with(middleware, "wrap_model_call")
    entry_node, loop_entry_node, loop_exit_node, exit_node = _loop_anchors(
        middleware_w_before_agent,
        middleware_w_before_model,
        middleware_w_after_model,
        middleware_w_after_agent,
    )
    graph.add_edge(START, entry_node)
    _add_loop_edges(
        graph,
        tool_node=tool_node,
        response_format=response_format,
        structured_output_tools=structured_output_tools,
        middleware_w_after_model=middleware_w_after_model,
        middleware_w_wrap_model_call=middleware_w_wrap_model_call,
        loop_entry_node=loop_entry_node,
        loop_exit_node=loop_exit_node,
        exit_node=exit_node,
    )
    _add_before_edges(
        graph, middleware_w_before_agent, middleware_w_before_model, loop_entry_node, exit_node
    )
    _add_after_edges(
        graph, middleware_w_after_model, middleware_w_after_agent, loop_entry_node, exit_node
    )


# --8<-- [start:add_loop_edges]
def _add_loop_edges(
    graph: StateGraph,
    *,
    tool_node: ToolNode | None,
    response_format: Any,
    structured_output_tools: dict[str, OutputToolBinding[Any]],
    middleware_w_after_model: list[AgentMiddleware],
    middleware_w_wrap_model_call: list[AgentMiddleware],
    loop_entry_node: str,
    loop_exit_node: str,
    exit_node: str,
) -> None:
    """The loop's conditional edges: tools -> model, model -> tools / exit
    (factory.py:1747-1814)."""
    # add conditional edges only if tools exist
    if tool_node is not None:
        # Only include exit_node in destinations if any tool has return_direct=True
        # or if there are structured output tools
        tools_to_model_destinations = [loop_entry_node]
        if (
            any(tool.return_direct for tool in tool_node.tools_by_name.values())
            or structured_output_tools
        ):
            tools_to_model_destinations.append(exit_node)

        graph.add_conditional_edges(
            "tools",
            RunnableCallable(
                _make_tools_to_model_edge(
                    tool_node=tool_node,
                    model_destination=loop_entry_node,
                    structured_output_tools=structured_output_tools,
                    end_destination=exit_node,
                ),
                trace=False,
            ),
            tools_to_model_destinations,
        )

        # Include loop_entry_node when middleware can inject synthetic tool
        # messages, or when structured output or after-model hooks can reroute there.
        model_to_tools_destinations = ["tools", exit_node]
        if response_format or loop_exit_node != "model" or middleware_w_wrap_model_call:
            model_to_tools_destinations.append(loop_entry_node)

        graph.add_conditional_edges(
            loop_exit_node,
            RunnableCallable(
                _make_model_to_tools_edge(
                    model_destination=loop_entry_node,
                    structured_output_tools=structured_output_tools,
                    end_destination=exit_node,
                ),
                trace=False,
            ),
            model_to_tools_destinations,
        )
    elif len(structured_output_tools) > 0:
        graph.add_conditional_edges(
            loop_exit_node,
            RunnableCallable(
                _make_model_to_model_edge(
                    model_destination=loop_entry_node,
                    end_destination=exit_node,
                ),
                trace=False,
            ),
            [loop_entry_node, exit_node],
        )
    elif loop_exit_node == "model":
        # If no tools and no after_model, go directly to exit_node
        graph.add_edge(loop_exit_node, exit_node)
    # No tools but we have after_model - connect after_model to exit_node
    else:
        _add_middleware_edge(
            graph,
            name=f"{middleware_w_after_model[0].name}.after_model",
            default_destination=exit_node,
            model_destination=loop_entry_node,
            end_destination=exit_node,
            can_jump_to=_get_can_jump_to(middleware_w_after_model[0], "after_model"),
        )


# --8<-- [end:add_loop_edges]


# --8<-- [start:add_before_edges]
def _add_before_edges(
    graph: StateGraph,
    middleware_w_before_agent: list[AgentMiddleware],
    middleware_w_before_model: list[AgentMiddleware],
    loop_entry_node: str,
    exit_node: str,
) -> None:
    """Chain the before hooks in list order: before_agent ones, then before_model ones,
    then ``model`` (factory.py:1816-1856)."""
    # Add before_agent middleware edges
    if middleware_w_before_agent:
        for m1, m2 in itertools.pairwise(middleware_w_before_agent):
            _add_middleware_edge(
                graph,
                name=f"{m1.name}.before_agent",
                default_destination=f"{m2.name}.before_agent",
                model_destination=loop_entry_node,
                end_destination=exit_node,
                can_jump_to=_get_can_jump_to(m1, "before_agent"),
            )
        # Connect last before_agent to loop_entry_node (before_model or model)
        _add_middleware_edge(
            graph,
            name=f"{middleware_w_before_agent[-1].name}.before_agent",
            default_destination=loop_entry_node,
            model_destination=loop_entry_node,
            end_destination=exit_node,
            can_jump_to=_get_can_jump_to(middleware_w_before_agent[-1], "before_agent"),
        )

    # Add before_model middleware edges
    if middleware_w_before_model:
        for m1, m2 in itertools.pairwise(middleware_w_before_model):
            _add_middleware_edge(
                graph,
                name=f"{m1.name}.before_model",
                default_destination=f"{m2.name}.before_model",
                model_destination=loop_entry_node,
                end_destination=exit_node,
                can_jump_to=_get_can_jump_to(m1, "before_model"),
            )
        # Go directly to model after the last before_model
        _add_middleware_edge(
            graph,
            name=f"{middleware_w_before_model[-1].name}.before_model",
            default_destination="model",
            model_destination=loop_entry_node,
            end_destination=exit_node,
            can_jump_to=_get_can_jump_to(middleware_w_before_model[-1], "before_model"),
        )


# --8<-- [end:add_before_edges]


# --8<-- [start:add_after_edges]
def _add_after_edges(
    graph: StateGraph,
    middleware_w_after_model: list[AgentMiddleware],
    middleware_w_after_agent: list[AgentMiddleware],
    loop_entry_node: str,
    exit_node: str,
) -> None:
    """Chain the after hooks in reverse list order: ``model`` -> the last middleware's
    after_model -> ... -> the first's; the after_agent ones likewise, then END
    (factory.py:1858-1898)."""
    # Add after_model middleware edges
    if middleware_w_after_model:
        graph.add_edge("model", f"{middleware_w_after_model[-1].name}.after_model")
        for idx in range(len(middleware_w_after_model) - 1, 0, -1):
            m1 = middleware_w_after_model[idx]
            m2 = middleware_w_after_model[idx - 1]
            _add_middleware_edge(
                graph,
                name=f"{m1.name}.after_model",
                default_destination=f"{m2.name}.after_model",
                model_destination=loop_entry_node,
                end_destination=exit_node,
                can_jump_to=_get_can_jump_to(m1, "after_model"),
            )
        # Note: Connection from after_model to after_agent/END is handled above
        # in the conditional edges section

    # Add after_agent middleware edges
    if middleware_w_after_agent:
        # Chain after_agent middleware (runs once at the very end, before END)
        for idx in range(len(middleware_w_after_agent) - 1, 0, -1):
            m1 = middleware_w_after_agent[idx]
            m2 = middleware_w_after_agent[idx - 1]
            _add_middleware_edge(
                graph,
                name=f"{m1.name}.after_agent",
                default_destination=f"{m2.name}.after_agent",
                model_destination=loop_entry_node,
                end_destination=exit_node,
                can_jump_to=_get_can_jump_to(m1, "after_agent"),
            )

        # Connect the last after_agent to END
        _add_middleware_edge(
            graph,
            name=f"{middleware_w_after_agent[0].name}.after_agent",
            default_destination=END,
            model_destination=loop_entry_node,
            end_destination=exit_node,
            can_jump_to=_get_can_jump_to(middleware_w_after_agent[0], "after_agent"),
        )


# --8<-- [end:add_after_edges]


# --8<-- [start:resolve_jump]
def _resolve_jump(
    jump_to: JumpTo | None,
    *,
    model_destination: str,
    end_destination: str,
) -> str | None:
    """``"model"`` -> the loop entry, ``"end"`` -> the exit node, ``"tools"`` -> ``"tools"``
    (factory.py:1955)."""
    if jump_to == "model":
        return model_destination
    if jump_to == "end":
        return end_destination
    if jump_to == "tools":
        return "tools"
    return None


# --8<-- [end:resolve_jump]


def _fetch_last_ai_and_tool_messages(
    messages: list[AnyMessage],
) -> tuple[AIMessage | None, list[ToolMessage]]:
    """The last AIMessage and the ToolMessages after it, or ``(None, [])`` (factory.py:1970)."""
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], AIMessage):
            last_ai_message = cast("AIMessage", messages[i])
            tool_messages = [m for m in messages[i + 1 :] if isinstance(m, ToolMessage)]
            return last_ai_message, tool_messages

    return None, []


# --8<-- [start:make_model_to_tools_edge]
def _make_model_to_tools_edge(
    *,
    model_destination: str,
    structured_output_tools: dict[str, OutputToolBinding[Any]],
    end_destination: str,
) -> Callable[[dict[str, Any]], str | list[Send] | None]:
    """The router after the model (and its after_model hooks) (factory.py:1991)."""

    def model_to_tools(
        state: dict[str, Any],
    ) -> str | list[Send] | None:
        # 1. If there's an explicit jump_to in the state, use it
        if jump_to := state.get("jump_to"):
            return _resolve_jump(
                jump_to,
                model_destination=model_destination,
                end_destination=end_destination,
            )

        last_ai_message, tool_messages = _fetch_last_ai_and_tool_messages(state["messages"])

        # 2. if no AIMessage exists (e.g., messages were cleared), exit the loop
        if last_ai_message is None:
            return end_destination

        tool_message_ids = [m.tool_call_id for m in tool_messages]

        # 3. If the model hasn't called any tools, exit the loop
        # this is the classic exit condition for an agent loop
        if len(last_ai_message.tool_calls) == 0:
            return end_destination

        pending_tool_calls = [
            c
            for c in last_ai_message.tool_calls
            if c["id"] not in tool_message_ids and c["name"] not in structured_output_tools
        ]

        # 4. If there are pending tool calls, jump to the tool node: one task per call,
        # which reads the state itself (ToolNode._extract_state)
        if pending_tool_calls:
            return [Send("tools", [tool_call]) for tool_call in pending_tool_calls]

        # 5. If a fresh structured response was produced this call, exit the loop
        if state.get("structured_response") is not None:
            return end_destination

        # 6. AIMessage has tool calls, but there are no pending tool calls which suggests
        # the injection of artificial tool messages. Jump to the model node
        return model_destination

    return model_to_tools


# --8<-- [end:make_model_to_tools_edge]


def _make_model_to_model_edge(
    *,
    model_destination: str,
    end_destination: str,
) -> Callable[[dict[str, Any]], str | list[Send] | None]:
    """The router without client tools but with structured output (factory.py:2045)."""

    def model_to_model(
        state: dict[str, Any],
    ) -> str | list[Send] | None:
        # 1. Priority: Check for explicit jump_to directive from middleware
        if jump_to := state.get("jump_to"):
            return _resolve_jump(
                jump_to,
                model_destination=model_destination,
                end_destination=end_destination,
            )

        # 2. Exit condition: a fresh structured response was generated this call
        if state.get("structured_response") is not None:
            return end_destination

        # 3. Default: Continue the loop, there may have been an issue with structured
        # output generation, so we need to retry
        return model_destination

    return model_to_model


# --8<-- [start:make_tools_to_model_edge]
def _make_tools_to_model_edge(
    *,
    tool_node: ToolNode,
    model_destination: str,
    structured_output_tools: dict[str, OutputToolBinding[Any]],
    end_destination: str,
) -> Callable[[dict[str, Any]], str | None]:
    """The router after the tools (factory.py:2072)."""

    def tools_to_model(state: dict[str, Any]) -> str | None:
        last_ai_message, tool_messages = _fetch_last_ai_and_tool_messages(state["messages"])

        # 1. If no AIMessage exists (e.g., messages were cleared), route to model
        if last_ai_message is None:
            return model_destination

        # 2. Exit condition: All executed tools have return_direct=True
        # Filter to only client-side tools (provider tools are not in tool_node)
        # Prefer tool name from ToolMessage due to redirects (e.g., from HITL)
        executed_by_id = {
            t.tool_call_id: t.name for t in tool_messages if t.name in tool_node.tools_by_name
        }
        executed_names = [
            name
            for c in last_ai_message.tool_calls
            if (name := executed_by_id.get(c["id"] or "", c["name"])) in tool_node.tools_by_name
        ]
        if executed_names and all(
            tool_node.tools_by_name[name].return_direct for name in executed_names
        ):
            return end_destination

        # 3. Exit condition: A structured output tool was executed
        if any(t.name in structured_output_tools and t.status != "error" for t in tool_messages):
            return end_destination

        # 4. Default: Continue the loop
        #    Tool execution completed successfully, route back to the model
        #    so it can process the tool results and decide the next action.
        return model_destination

    return tools_to_model


# --8<-- [end:make_tools_to_model_edge]


# --8<-- [start:add_middleware_edge]
def _add_middleware_edge(
    graph: StateGraph,
    *,
    name: str,
    default_destination: str,
    model_destination: str,
    end_destination: str,
    can_jump_to: list[JumpTo] | None,
) -> None:
    """A static edge to ``default_destination``, or, if the hook may jump, a conditional
    edge that follows ``state["jump_to"]`` (factory.py:2114)."""
    if can_jump_to:

        def jump_edge(state: dict[str, Any]) -> str:
            return (
                _resolve_jump(
                    state.get("jump_to"),
                    model_destination=model_destination,
                    end_destination=end_destination,
                )
                or default_destination
            )

        destinations = [default_destination]

        if "end" in can_jump_to:
            destinations.append(end_destination)
        if "tools" in can_jump_to:
            destinations.append("tools")
        if "model" in can_jump_to and name != model_destination:
            destinations.append(model_destination)

        graph.add_conditional_edges(name, RunnableCallable(jump_edge, trace=False), destinations)

    else:
        graph.add_edge(name, default_destination)


# --8<-- [end:add_middleware_edge]
