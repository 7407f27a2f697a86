"""The ``tools`` node: run the tool calls of the last AIMessage. Mirrors ``langgraph/prebuilt/tool_node.py``.

Line numbers cite ``tool_node.py`` at langgraph-prebuilt 1.1.3. Definitions keep upstream's order:
templates, ``ToolCallRequest``, ``ToolCallWithContext``, ``msg_content_output``,
``ToolInvocationError``, the error-handling helpers, ``ToolNode``, ``tools_condition``, then the
injection markers (``ToolRuntime``, ``InjectedState``, ``InjectedStore``) and their detection.

What the miniature leaves out: streaming tool-output deltas (``emit_output_delta``),
``execution_info``/``server_info`` on ``ToolRuntime``, interrupt-resume validation
(``is_invalid_resume``) and tracing. As upstream, the sync path always maps the calls through a
thread pool (``get_executor_for_config``), even a single call.
"""

from __future__ import annotations

import inspect
import json
from copy import copy, deepcopy
from dataclasses import dataclass, field, replace
from types import UnionType
from typing import (
    Annotated,
    Any,
    Callable,
    Generic,
    Literal,
    TypedDict,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)

from pydantic import ValidationError
from typing_extensions import TypeVar

from miniagent.errors import GraphBubbleUp
from miniagent.graph.message import REMOVE_ALL_MESSAGES
from miniagent.messages import (
    AIMessage,
    RemoveMessage,
    ToolCall,
    ToolMessage,
    convert_to_messages,
)
from miniagent.runnables.callable import CONF, RunnableCallable
from miniagent.runnables.config import RunnableConfig, get_config_list, get_executor_for_config
from miniagent.runtime import Runtime
from miniagent.tools import BaseTool, InjectedToolArg
from miniagent.tools import tool as create_tool
from miniagent.tools.base import (
    TOOL_MESSAGE_BLOCK_TYPES,
    ToolException,
    _DirectlyInjectedToolArg,
    _is_injected_arg_type,
    _lazy_asyncio,
    get_all_basemodel_annotations,
)
from miniagent.types import Command, Send

# ``asyncio``, imported when ``_afunc`` first uses it (``asyncio.gather``): see tools/base.py
asyncio = _lazy_asyncio

__all__ = [
    "ToolNode",
    "tools_condition",
    "InjectedState",
    "InjectedStore",
    "ToolRuntime",
    "ToolCallRequest",
    "ToolCallWithContext",
    "ToolInvocationError",
    "msg_content_output",
]

# tool_node.py:122-135 -- the texts the model reads back when a call goes wrong.
INVALID_TOOL_NAME_ERROR_TEMPLATE = (
    "Error: {requested_tool} is not a valid tool, try one of [{available_tools}]."
)
TOOL_CALL_ERROR_TEMPLATE = "Error: {error}\n Please fix your mistakes."
TOOL_EXECUTION_ERROR_TEMPLATE = (  # defined upstream but unused in 1.1.3
    "Error executing tool '{tool_name}' with kwargs {tool_kwargs} with error:\n"
    " {error}\n"
    " Please fix the error and try again."
)
TOOL_INVOCATION_ERROR_TEMPLATE = (
    "Error invoking tool '{tool_name}' with kwargs {tool_kwargs} with error:\n"
    " {error}\n"
    " Please fix the error and try again."
)

# Where a graph may put its "read my state" and "read channels" functions
# (langgraph/_internal/_constants.py). The miniature's loop installs neither: a caller may.
CONFIG_KEY_READ_STATE = "__pregel_read_state"
CONFIG_KEY_READ = "__pregel_read"


# --8<-- [start:tool_call_request]
@dataclass
class ToolCallRequest:
    """What a ``wrap_tool_call`` interceptor receives (tool_node.py:147).

    ``tool`` is ``None`` when the name is not registered; ``override(...)`` returns a modified copy.
    """

    tool_call: ToolCall
    tool: BaseTool | None
    state: Any
    runtime: ToolRuntime

    def __setattr__(self, name: str, value: Any) -> None:
        """Mutating a built request still works, but warns (tool_node.py:165)."""
        import warnings

        # Allow setting attributes during initialization
        if not hasattr(self, "__dataclass_fields__") or not hasattr(self, name):
            object.__setattr__(self, name, value)
        else:
            warnings.warn(
                f"Setting attribute '{name}' on ToolCallRequest is deprecated. "
                "Use the override() method instead to create a new instance with modified values.",
                DeprecationWarning,
                stacklevel=2,
            )
            object.__setattr__(self, name, value)

    def override(self, **overrides: Any) -> ToolCallRequest:
        """A copy with ``tool_call``/``tool``/``state`` replaced (tool_node.py:184)."""
        request = replace(self, **overrides)
        if "state" in overrides and isinstance(request.runtime, ToolRuntime):
            request = replace(request, runtime=replace(request.runtime, state=request.state))
        return request


# --8<-- [end:tool_call_request]

ToolCallWrapper = Callable[[ToolCallRequest, Callable[[ToolCallRequest], Any]], Any]
"""``wrap_tool_call(request, execute)``: may call ``execute`` zero, one or many times."""


class ToolCallWithContext(TypedDict):
    """The v2 ``Send`` payload: one tool call plus the state it was made in (tool_node.py:308)."""

    tool_call: ToolCall
    __type: Literal["tool_call_with_context"]  # the dict key is the literal "__type"
    state: Any


# --8<-- [start:msg_content_output]
def msg_content_output(output: Any) -> str | list[dict]:
    """Tool output -> ToolMessage content (tool_node.py:331).

    Strings and lists of content blocks pass through; anything else becomes JSON (non-ASCII kept),
    or ``str(output)`` when it is not JSON-serialisable.
    """
    if isinstance(output, str) or (
        isinstance(output, list)
        and all(isinstance(x, dict) and x.get("type") in TOOL_MESSAGE_BLOCK_TYPES for x in output)
    ):
        return output
    try:
        return json.dumps(output, ensure_ascii=False)
    except Exception:
        return str(output)


# --8<-- [end:msg_content_output]


class ToolInvocationError(ToolException):
    """The model called a tool with arguments that fail validation (tool_node.py:361)."""

    def __init__(
        self,
        tool_name: str,
        source: ValidationError,
        tool_kwargs: dict[str, Any],
        filtered_errors: list[dict[str, Any]] | None = None,
    ) -> None:
        if filtered_errors is not None:  # only the errors the model can fix, without URLs
            error_str_parts = []
            for error in filtered_errors:
                loc_str = ".".join(str(loc) for loc in error.get("loc", ()))
                msg = error.get("msg", "Unknown error")
                error_str_parts.append(f"{loc_str}: {msg}")
            error_display_str = "\n".join(error_str_parts)
        else:
            error_display_str = str(source)
        self.message = TOOL_INVOCATION_ERROR_TEMPLATE.format(
            tool_name=tool_name, tool_kwargs=tool_kwargs, error=error_display_str
        )
        self.tool_name = tool_name
        self.tool_kwargs = tool_kwargs
        self.source = source
        self.filtered_errors = filtered_errors
        super().__init__(self.message)


# --8<-- [start:default_handle_tool_errors]
def _default_handle_tool_errors(e: Exception) -> str:
    """The default policy (tool_node.py:405): bad arguments are reported, tool errors raise."""
    if isinstance(e, ToolInvocationError):
        return e.message
    raise e


# --8<-- [end:default_handle_tool_errors]


# --8<-- [start:handle_tool_error]
def _handle_tool_error(e: Exception, *, flag: Any) -> str:
    """The error ToolMessage content for a handled exception (tool_node.py:416)."""
    if isinstance(flag, (bool, tuple)) or (isinstance(flag, type) and issubclass(flag, Exception)):
        content = TOOL_CALL_ERROR_TEMPLATE.format(error=repr(e))
    elif isinstance(flag, str):
        content = flag
    elif callable(flag):
        content = flag(e)
    else:
        msg = (
            f"Got unexpected type of `handle_tool_error`. Expected bool, str "
            f"or callable. Received: {flag}"
        )
        raise ValueError(msg)
    return content


# --8<-- [end:handle_tool_error]


# --8<-- [start:infer_handled_types]
def _infer_handled_types(handler: Callable[..., str]) -> tuple[type[Exception], ...]:
    """Which exceptions a handler catches, read from its first parameter's annotation (l.466).

    ``e: ValueError`` -> ``(ValueError,)``; ``e: ValueError | TypeError`` -> both; no
    annotation -> ``(Exception,)``. A bound method's ``self``/``cls`` is skipped.
    """
    sig = inspect.signature(handler)
    params = list(sig.parameters.values())
    if params:
        if params[0].name in ["self", "cls"] and len(params) == 2:
            first_param = params[1]
        else:
            first_param = params[0]

        type_hints = get_type_hints(handler)
        if first_param.name in type_hints:
            origin = get_origin(first_param.annotation)
            if origin in [Union, UnionType]:
                args = get_args(first_param.annotation)
                if all(issubclass(arg, Exception) for arg in args):
                    return tuple(args)
                msg = (
                    "All types in the error handler error annotation must be "
                    "Exception types. For example, "
                    "`def custom_handler(e: Union[ValueError, TypeError])`. "
                    f"Got '{first_param.annotation}' instead."
                )
                raise ValueError(msg)

            exception_type = type_hints[first_param.name]
            if Exception in exception_type.__mro__:
                return (exception_type,)
            msg = (
                f"Arbitrary types are not supported in the error handler "
                f"signature. Please annotate the error with either a "
                f"specific Exception type or a union of Exception types. "
                "For example, `def custom_handler(e: ValueError)` or "
                "`def custom_handler(e: Union[ValueError, TypeError])`. "
                f"Got '{exception_type}' instead."
            )
            raise ValueError(msg)

    return (Exception,)  # no annotation: catch everything, for backwards compatibility


# --8<-- [end:infer_handled_types]


# --8<-- [start:filter_validation_errors]
def _filter_validation_errors(
    validation_error: ValidationError, injected_args: _InjectedArgs | None
) -> list[dict[str, Any]]:
    """Keep only the errors about arguments the model controls (tool_node.py:532)."""
    injected_arg_names: set[str] = set()
    if injected_args:
        if injected_args.state:
            injected_arg_names.update(injected_args.state.keys())
        if injected_args.store:
            injected_arg_names.add(injected_args.store)
        if injected_args.runtime:
            injected_arg_names.add(injected_args.runtime)

    filtered_errors: list[dict[str, Any]] = []
    for error in validation_error.errors():
        if error["loc"] and error["loc"][0] not in injected_arg_names:
            error_copy: dict[str, Any] = {**error}
            if isinstance(error_copy.get("input"), dict):  # drop the injected values too
                input_dict = error_copy["input"]
                input_copy = {k: v for k, v in input_dict.items() if k not in injected_arg_names}
                error_copy["input"] = input_copy
            filtered_errors.append(error_copy)
    return filtered_errors


# --8<-- [end:filter_validation_errors]


@dataclass
class _InjectedArgs:
    """Which parameters of one tool the node fills in, computed once at init (tool_node.py:589).

    ``state`` maps parameter -> state field (``None`` = the whole state).
    """

    state: dict[str, str | None]
    store: str | None
    runtime: str | None
    all_injected_keys: set[str]
    _optional_state_args: set[str]


class ToolNode(RunnableCallable):
    """A graph node that runs the tool calls of the last AIMessage (tool_node.py:644).

    Input: a state dict (or object) with ``messages``, a list of messages, a list of tool-call
    dicts, or the v2 ``ToolCallWithContext`` payload. Output: ``{"messages": [ToolMessage, ...]}``
    (a list for list input; a list of updates and ``Command``s when tools return ``Command``s).
    The calls run in a thread pool, even a single one (``asyncio.gather`` on the async path);
    the results keep the order of the calls. Outside a graph, pass a runtime in the config:
    ``{"configurable": {"__pregel_runtime": Runtime()}}`` (as upstream's tests do).
    """

    name: str | None = "tools"

    # --8<-- [start:tool_node_init]
    def __init__(
        self,
        tools: list[BaseTool | Callable],
        *,
        name: str = "tools",
        tags: list[str] | None = None,
        handle_tool_errors: bool
        | str
        | Callable[..., str]
        | type[Exception]
        | tuple[type[Exception], ...] = _default_handle_tool_errors,
        messages_key: str = "messages",
        wrap_tool_call: ToolCallWrapper | None = None,
        awrap_tool_call: Callable[..., Any] | None = None,
    ) -> None:
        super().__init__(self._func, self._afunc, name=name, tags=tags, trace=False)
        self._tools_by_name: dict[str, BaseTool] = {}
        self._injected_args: dict[str, _InjectedArgs] = {}
        self._handle_tool_errors = handle_tool_errors
        self._messages_key = messages_key
        self._wrap_tool_call = wrap_tool_call
        self._awrap_tool_call = awrap_tool_call
        for tool in tools:
            if not isinstance(tool, BaseTool):
                tool_ = create_tool(tool)
            else:
                tool_ = tool
            self._tools_by_name[tool_.name] = tool_  # a later duplicate name wins
            # Which parameters the node fills in, read once here rather than at every call.
            self._injected_args[tool_.name] = _get_all_injected_args(tool_)

    # --8<-- [end:tool_node_init]

    @property
    def tools_by_name(self) -> dict[str, BaseTool]:
        """Mapping from tool name to tool (tool_node.py:811)."""
        return self._tools_by_name

    # --8<-- [start:func]
    def _func(self, input: Any, config: RunnableConfig, runtime: Runtime) -> Any:
        """Sync path (tool_node.py:815): one ToolRuntime per call, then run the calls."""
        tool_calls, input_type = self._parse_input(input)
        config_list = get_config_list(config, len(tool_calls))

        tool_runtimes = []
        for call, cfg in zip(tool_calls, config_list, strict=False):
            state = self._extract_state(input, cfg)
            tool_runtime = ToolRuntime(
                state=state,
                tool_call_id=call["id"],
                config=cfg,
                context=runtime.context,
                store=runtime.store,
                stream_writer=runtime.stream_writer,
                tools=list(self.tools_by_name.values()),
            )
            tool_runtimes.append(tool_runtime)

        # Always through the pool, even one call: each runs in a copy of this context.
        input_types = [input_type] * len(tool_calls)
        with get_executor_for_config(config) as executor:
            outputs = list(executor.map(self._run_one, tool_calls, input_types, tool_runtimes))

        return self._combine_tool_outputs(outputs, input_type)

    # --8<-- [end:func]

    # --8<-- [start:afunc]
    async def _afunc(self, input: Any, config: RunnableConfig, runtime: Runtime) -> Any:
        """Async path (tool_node.py:850): the same, with ``asyncio.gather``."""
        tool_calls, input_type = self._parse_input(input)
        config_list = get_config_list(config, len(tool_calls))

        tool_runtimes = []
        for call, cfg in zip(tool_calls, config_list, strict=False):
            state = self._extract_state(input, cfg)
            tool_runtime = ToolRuntime(
                state=state,
                tool_call_id=call["id"],
                config=cfg,
                context=runtime.context,
                store=runtime.store,
                stream_writer=runtime.stream_writer,
                tools=list(self.tools_by_name.values()),
            )
            tool_runtimes.append(tool_runtime)

        coros = []
        for call, tool_runtime in zip(tool_calls, tool_runtimes, strict=False):
            coros.append(self._arun_one(call, input_type, tool_runtime))
        outputs = await asyncio.gather(*coros)
        return self._combine_tool_outputs(outputs, input_type)

    # --8<-- [end:afunc]

    # --8<-- [start:combine_tool_outputs]
    def _combine_tool_outputs(self, outputs: list[Any], input_type: str) -> Any:
        """Shape the node's return value (tool_node.py:884)."""
        flat_outputs: list[Any]
        if any(isinstance(output, list) for output in outputs):  # a tool returned several items
            flat_outputs = []
            for output in outputs:
                if isinstance(output, list):
                    flat_outputs.extend(output)
                else:
                    flat_outputs.append(output)
        else:
            flat_outputs = outputs

        if not any(isinstance(output, Command) for output in flat_outputs):
            return flat_outputs if input_type == "list" else {self._messages_key: flat_outputs}

        # With Commands: a list of updates, which the graph applies one by one. All parent-graph
        # Commands whose goto is a list of Sends are merged into one.
        combined_outputs: list[Any] = []
        parent_command: Command | None = None
        for output in flat_outputs:
            if isinstance(output, Command):
                if (
                    output.graph is Command.PARENT
                    and isinstance(output.goto, list)
                    and all(isinstance(send, Send) for send in output.goto)
                ):
                    if parent_command:
                        parent_command = replace(
                            parent_command, goto=parent_command.goto + output.goto
                        )
                    else:
                        parent_command = Command(graph=Command.PARENT, goto=output.goto)
                else:
                    combined_outputs.append(output)
            else:
                combined_outputs.append(
                    [output] if input_type == "list" else {self._messages_key: [output]}
                )
        if parent_command:
            combined_outputs.append(parent_command)
        return combined_outputs

    # --8<-- [end:combine_tool_outputs]

    # --8<-- [start:execute_tool_sync]
    def _execute_tool_sync(
        self, request: ToolCallRequest, input_type: str, config: RunnableConfig
    ) -> Any:
        """Run one call and apply ``handle_tool_errors`` (tool_node.py:944)."""
        call = request.tool_call
        tool = request.tool

        if tool is None:  # unknown name: always an error ToolMessage, whatever the policy
            if invalid_tool_message := self._validate_tool_call(call):
                return invalid_tool_message
            msg = f"Tool {call['name']} is not registered with ToolNode"
            raise TypeError(msg)

        # Injection happens outside the try: its errors are never turned into messages.
        injected_call = self._inject_tool_args(call, request.runtime, tool)
        call_args = {**injected_call, "type": "tool_call"}

        try:
            try:
                response = tool.invoke(call_args, config)
            except ValidationError as exc:
                # Report only the arguments the model controls, with the args it sent.
                injected = self._injected_args.get(call["name"])
                filtered_errors = _filter_validation_errors(exc, injected)
                raise ToolInvocationError(call["name"], exc, call["args"], filtered_errors) from exc

            # Inside the try, so an invalid return goes through handle_tool_errors too.
            return self._normalize_tool_response(response, request.tool_call, input_type)

        except GraphBubbleUp:
            raise  # interrupts and parent-graph commands always propagate
        except Exception as e:
            # Which exception types does handle_tool_errors cover?
            handled_types: tuple[type[Exception], ...]
            if isinstance(self._handle_tool_errors, type) and issubclass(
                self._handle_tool_errors, Exception
            ):
                handled_types = (self._handle_tool_errors,)
            elif isinstance(self._handle_tool_errors, tuple):
                handled_types = self._handle_tool_errors
            elif callable(self._handle_tool_errors) and not isinstance(
                self._handle_tool_errors, type
            ):
                handled_types = _infer_handled_types(self._handle_tool_errors)
            else:
                handled_types = (Exception,)  # True or a string: everything

            if not self._handle_tool_errors or not isinstance(e, handled_types):
                raise

            content = _handle_tool_error(e, flag=self._handle_tool_errors)
            return ToolMessage(
                content=content,
                name=call["name"],
                tool_call_id=call["id"],
                status="error",
            )

    # --8<-- [end:execute_tool_sync]

    # --8<-- [start:run_one]
    def _run_one(self, call: ToolCall, input_type: str, tool_runtime: ToolRuntime) -> Any:
        """One call, through ``wrap_tool_call`` when one is set (tool_node.py:1045)."""
        # An unknown name is checked later, in _execute_tool_sync: a wrapper may answer it.
        tool = self.tools_by_name.get(call["name"])

        tool_request = ToolCallRequest(
            tool_call=call,
            tool=tool,
            state=tool_runtime.state,
            runtime=tool_runtime,
        )

        config = tool_runtime.config

        if self._wrap_tool_call is None:
            return self._execute_tool_sync(tool_request, input_type, config)

        def execute(req: ToolCallRequest) -> Any:
            """Run the (possibly modified) request; the wrapper may call it many times."""
            return self._execute_tool_sync(req, input_type, config)

        try:
            return self._wrap_tool_call(tool_request, execute)
        except GraphBubbleUp:
            raise
        except Exception as e:
            if not self._handle_tool_errors:  # no type filtering on this path
                raise
            content = _handle_tool_error(e, flag=self._handle_tool_errors)
            return ToolMessage(
                content=content,
                name=tool_request.tool_call["name"],
                tool_call_id=tool_request.tool_call["id"],
                status="error",
            )

    # --8<-- [end:run_one]

    # --8<-- [start:execute_tool_async]
    async def _execute_tool_async(
        self, request: ToolCallRequest, input_type: str, config: RunnableConfig
    ) -> Any:
        """Async twin of ``_execute_tool_sync`` (tool_node.py:1104)."""
        call = request.tool_call
        tool = request.tool

        if tool is None:
            if invalid_tool_message := self._validate_tool_call(call):
                return invalid_tool_message
            msg = f"Tool {call['name']} is not registered with ToolNode"
            raise TypeError(msg)

        injected_call = self._inject_tool_args(call, request.runtime, tool)
        call_args = {**injected_call, "type": "tool_call"}

        try:
            try:
                response = await tool.ainvoke(call_args, config)
            except ValidationError as exc:
                injected = self._injected_args.get(call["name"])
                filtered_errors = _filter_validation_errors(exc, injected)
                raise ToolInvocationError(call["name"], exc, call["args"], filtered_errors) from exc

            return self._normalize_tool_response(response, request.tool_call, input_type)

        except GraphBubbleUp:
            raise
        except Exception as e:
            handled_types: tuple[type[Exception], ...]
            if isinstance(self._handle_tool_errors, type) and issubclass(
                self._handle_tool_errors, Exception
            ):
                handled_types = (self._handle_tool_errors,)
            elif isinstance(self._handle_tool_errors, tuple):
                handled_types = self._handle_tool_errors
            elif callable(self._handle_tool_errors) and not isinstance(
                self._handle_tool_errors, type
            ):
                handled_types = _infer_handled_types(self._handle_tool_errors)
            else:
                handled_types = (Exception,)

            if not self._handle_tool_errors or not isinstance(e, handled_types):
                raise

            content = _handle_tool_error(e, flag=self._handle_tool_errors)
            return ToolMessage(
                content=content,
                name=call["name"],
                tool_call_id=call["id"],
                status="error",
            )

    # --8<-- [end:execute_tool_async]

    # --8<-- [start:arun_one]
    async def _arun_one(self, call: ToolCall, input_type: str, tool_runtime: ToolRuntime) -> Any:
        """Async twin of ``_run_one`` (tool_node.py:1205); a sync wrapper is used if no async one."""
        tool = self.tools_by_name.get(call["name"])

        tool_request = ToolCallRequest(
            tool_call=call,
            tool=tool,
            state=tool_runtime.state,
            runtime=tool_runtime,
        )

        config = tool_runtime.config

        if self._awrap_tool_call is None and self._wrap_tool_call is None:
            return await self._execute_tool_async(tool_request, input_type, config)

        async def execute(req: ToolCallRequest) -> Any:
            """Run the (possibly modified) request; the wrapper may await it many times."""
            return await self._execute_tool_async(req, input_type, config)

        def _sync_execute(req: ToolCallRequest) -> Any:
            """What a sync wrapper calls on the async path."""
            return self._execute_tool_sync(req, input_type, config)

        try:
            if self._awrap_tool_call is not None:
                return await self._awrap_tool_call(tool_request, execute)
            # Not None (checked above); upstream narrows the type by assigning it to itself.
            self._wrap_tool_call = cast(ToolCallWrapper, self._wrap_tool_call)
            return self._wrap_tool_call(tool_request, _sync_execute)
        except GraphBubbleUp:
            raise
        except Exception as e:
            if not self._handle_tool_errors:
                raise
            content = _handle_tool_error(e, flag=self._handle_tool_errors)
            return ToolMessage(
                content=content,
                name=tool_request.tool_call["name"],
                tool_call_id=tool_request.tool_call["id"],
                status="error",
            )

    # --8<-- [end:arun_one]

    # --8<-- [start:parse_input]
    def _parse_input(self, input: Any) -> tuple[list[ToolCall], str]:
        """Find the tool calls, and remember the input's shape (tool_node.py:1272)."""
        input_type: str
        if isinstance(input, list):
            if isinstance(input[-1], dict) and input[-1].get("type") == "tool_call":
                input_type = "tool_calls"  # a list of tool calls (create_agent's Send)
                tool_calls = input
                return tool_calls, input_type
            input_type = "list"
            messages = input
        elif isinstance(input, dict) and input.get("__type") == "tool_call_with_context":
            input_with_ctx = input  # create_react_agent v2's Send: one call and its state
            input_type = "tool_calls"
            return [input_with_ctx["tool_call"]], input_type
        elif isinstance(input, dict) and (messages := input.get(self._messages_key, [])):
            input_type = "dict"
        elif messages := getattr(input, self._messages_key, []):
            input_type = "dict"  # a pydantic/dataclass state, which can load from a dict
        else:
            msg = "No message found in input"
            raise ValueError(msg)

        try:
            latest_ai_message = next(m for m in reversed(messages) if isinstance(m, AIMessage))
        except StopIteration:
            msg = "No AIMessage found in input"
            raise ValueError(msg)  # noqa: B904  (as upstream: the StopIteration stays chained)

        tool_calls = list(latest_ai_message.tool_calls)
        return tool_calls, input_type

    # --8<-- [end:parse_input]

    # --8<-- [start:validate_tool_call]
    def _validate_tool_call(self, call: ToolCall) -> ToolMessage | None:
        """The error ToolMessage for an unknown tool name (tool_node.py:1316)."""
        requested_tool = call["name"]
        if requested_tool not in self.tools_by_name:
            all_tool_names = list(self.tools_by_name.keys())
            content = INVALID_TOOL_NAME_ERROR_TEMPLATE.format(
                requested_tool=requested_tool,
                available_tools=", ".join(all_tool_names),
            )
            return ToolMessage(
                content, name=requested_tool, tool_call_id=call["id"], status="error"
            )
        return None

    # --8<-- [end:validate_tool_call]

    # --8<-- [start:extract_state]
    def _extract_state(self, input: Any, config: RunnableConfig) -> Any:
        """The state the tools see (tool_node.py:1329).

        The v2 payload carries its state; a bare list of tool calls reads the graph's state
        through the config when the graph offers it (else ``{}``); any other input is the state.
        An older upstream graph offers only ``CONFIG_KEY_READ``: its channels are read then.
        """
        if isinstance(input, dict) and input.get("__type") == "tool_call_with_context":
            return input["state"]
        if (
            isinstance(input, list)
            and input
            and isinstance(input[-1], dict)
            and input[-1].get("type") == "tool_call"
        ):
            conf = config.get(CONF, {})
            if (read_state := conf.get(CONFIG_KEY_READ_STATE)) is not None:
                return read_state()
            read = conf.get(CONFIG_KEY_READ)
            if read is None:
                return {}
            # Upstream's Pregel installs CONFIG_KEY_READ as
            # `functools.partial(local_read, scratchpad, channels, managed, task)`:
            # read every channel, fresh (True), as the state an edge would give this node.
            channels = read.args[1]
            return read(list(channels), True)
        return input

    # --8<-- [end:extract_state]

    # --8<-- [start:inject_tool_args]
    def _inject_tool_args(
        self, tool_call: ToolCall, tool_runtime: ToolRuntime, tool: BaseTool | None = None
    ) -> ToolCall:
        """Fill the hidden parameters: state, a state field, the store, the runtime (l.1367).

        Values the model supplied for hidden parameters are dropped first, so a model cannot
        forge them.
        """
        injected = self._injected_args.get(tool_call["name"])
        if not injected and tool is not None:
            injected = _get_all_injected_args(tool)  # a tool a wrapper swapped in
        if not injected:
            return tool_call

        tool_call_copy: ToolCall = copy(tool_call)
        injected_args: dict[str, Any] = {}
        if injected.state:
            state = tool_runtime.state
            if isinstance(state, list):  # list input: only the messages or the whole "state"
                required_fields = list(injected.state.values())
                if (
                    len(required_fields) == 1 and required_fields[0] == self._messages_key
                ) or required_fields[0] is None:
                    state = {self._messages_key: state}
                else:
                    err_msg = (
                        f"Invalid input to ToolNode. Tool {tool_call['name']} requires "
                        f"graph state dict as input."
                    )
                    if any(state_field for state_field in injected.state.values()):
                        required_fields_str = ", ".join(f for f in required_fields if f)
                        err_msg += f" State should contain fields {required_fields_str}."
                    raise ValueError(err_msg)

            if isinstance(state, dict):
                for tool_arg, state_field in injected.state.items():
                    if not state_field:
                        injected_args[tool_arg] = state
                    elif state_field in state:
                        injected_args[tool_arg] = state[state_field]
                    elif tool_arg not in injected._optional_state_args:
                        raise KeyError(state_field)
            else:
                for tool_arg, state_field in injected.state.items():
                    if not state_field:
                        injected_args[tool_arg] = state
                    elif hasattr(state, state_field):
                        injected_args[tool_arg] = getattr(state, state_field)
                    elif tool_arg not in injected._optional_state_args:
                        raise AttributeError(state_field)

        if injected.store:
            if tool_runtime.store is None:
                msg = (
                    "Cannot inject store into tools with InjectedStore annotations - "
                    "please compile your graph with a store."
                )
                raise ValueError(msg)
            injected_args[injected.store] = tool_runtime.store

        if injected.runtime:
            injected_args[injected.runtime] = tool_runtime

        # Drop caller-supplied values for injected args, then add back only trusted values, so
        # a model cannot forge hidden InjectedToolArg fields through ToolCall.args.
        stripped_args = {
            k: v for k, v in tool_call_copy["args"].items() if k not in injected.all_injected_keys
        }
        tool_call_copy["args"] = {**stripped_args, **injected_args}
        return tool_call_copy

    # --8<-- [end:inject_tool_args]

    # --8<-- [start:normalize_tool_response]
    def _normalize_tool_response(self, response: Any, tool_call: ToolCall, input_type: str) -> Any:
        """Check and normalise what ``tool.invoke`` returned (tool_node.py:1484)."""
        if isinstance(response, Command):
            return self._validate_tool_command(response, tool_call, input_type)
        if isinstance(response, ToolMessage):
            response.content = msg_content_output(response.content)
            return response
        if isinstance(response, list):
            if all(isinstance(r, (Command, ToolMessage)) for r in response):
                return self._validate_tool_command_list(response, tool_call, input_type)
            msg = (
                f"Tool {tool_call['name']} returned a list with invalid element "
                "types: expected all Command or ToolMessage"
            )
            raise TypeError(msg)
        msg = f"Tool {tool_call['name']} returned unexpected type: {type(response)}"
        raise TypeError(msg)

    # --8<-- [end:normalize_tool_response]

    # --8<-- [start:validate_tool_command_list]
    def _validate_tool_command_list(
        self, response: list[Any], tool_call: ToolCall, input_type: str
    ) -> list[Any]:
        """A list return needs exactly one ToolMessage for this call (tool_node.py:1507)."""
        expected_id = tool_call["id"]
        terminator_count = 0
        for item in response:
            if isinstance(item, ToolMessage):
                if item.tool_call_id == expected_id:
                    terminator_count += 1
            elif isinstance(item, Command) and isinstance(item.update, dict):
                for msg in item.update.get(self._messages_key, []):
                    if isinstance(msg, ToolMessage) and msg.tool_call_id == expected_id:
                        terminator_count += 1
        if terminator_count != 1:
            msg = (
                f"Tool {tool_call['name']} returned a list with "
                f"{terminator_count} messages bound to tool_call_id "
                f"{expected_id!r}; expected exactly one terminating ToolMessage."
            )
            raise ValueError(msg)

        # Each Command is still checked, but need not hold the terminator itself.
        validated: list[Any] = []
        for item in response:
            if isinstance(item, Command):
                validated.append(
                    self._validate_tool_command(
                        item, tool_call, input_type, require_terminator=False
                    )
                )
            else:
                item.content = msg_content_output(item.content)
                validated.append(item)
        return validated

    # --8<-- [end:validate_tool_command_list]

    # --8<-- [start:validate_tool_command]
    def _validate_tool_command(
        self,
        command: Command,
        call: ToolCall,
        input_type: str,
        *,
        require_terminator: bool = True,
    ) -> Command:
        """Check a ``Command`` a tool returned and name its ToolMessage (tool_node.py:1555)."""
        if isinstance(command.update, dict):
            if input_type not in ("dict", "tool_calls"):
                msg = (
                    "Tools can provide a dict in Command.update only when using dict "
                    f"with '{self._messages_key}' key as ToolNode input, "
                    f"got: {command.update} for tool '{call['name']}'"
                )
                raise ValueError(msg)
            updated_command = deepcopy(command)
            state_update = cast(dict, updated_command.update) or {}
            messages_update = state_update.get(self._messages_key, [])
        elif isinstance(command.update, list):
            if input_type != "list":
                msg = (
                    "Tools can provide a list of messages in Command.update "
                    "only when using list of messages as ToolNode input, "
                    f"got: {command.update} for tool '{call['name']}'"
                )
                raise ValueError(msg)
            updated_command = deepcopy(command)
            messages_update = updated_command.update
        else:
            return command

        messages_update = convert_to_messages(messages_update)
        if messages_update == [RemoveMessage(id=REMOVE_ALL_MESSAGES)]:
            return updated_command  # clearing the history needs no ToolMessage

        has_matching_tool_message = False
        for message in messages_update:
            if not isinstance(message, ToolMessage):
                continue

            if message.tool_call_id == call["id"]:
                message.name = call["name"]
                has_matching_tool_message = True

        if require_terminator and updated_command.graph is None and not has_matching_tool_message:
            example_update = (
                '`Command(update={"messages": '
                '[ToolMessage("Success", tool_call_id=tool_call_id), ...]}, ...)`'
                if input_type == "dict"
                else "`Command(update="
                '[ToolMessage("Success", tool_call_id=tool_call_id), ...], ...)`'
            )
            msg = (
                "Expected to have a matching ToolMessage in Command.update "
                f"for tool '{call['name']}', got: {messages_update}. "
                "Every tool call (LLM requesting to call a tool) "
                "in the message history MUST have a corresponding ToolMessage. "
                f"You can fix it by modifying the tool to return {example_update}."
            )
            raise ValueError(msg)
        return updated_command

    # --8<-- [end:validate_tool_command]


# --8<-- [start:tools_condition]
def tools_condition(state: Any, messages_key: str = "messages") -> Literal["tools", "__end__"]:
    """Route to ``"tools"`` if the last message has tool calls, else ``"__end__"`` (l.1634)."""
    if isinstance(state, list):
        ai_message = state[-1]
    elif (isinstance(state, dict) and (messages := state.get(messages_key, []))) or (
        messages := getattr(state, messages_key, [])
    ):
        ai_message = messages[-1]
    else:
        msg = f"No messages found in input state to tool_edge: {state}"
        raise ValueError(msg)
    if hasattr(ai_message, "tool_calls") and len(ai_message.tool_calls) > 0:
        return "tools"
    return "__end__"


# --8<-- [end:tools_condition]


ContextT = TypeVar("ContextT", default=None)
StateT = TypeVar("StateT", default=dict)


@dataclass
class ToolRuntime(_DirectlyInjectedToolArg, Generic[ContextT, StateT]):
    """What a tool parameter annotated ``ToolRuntime`` (or named ``runtime``) receives (l.1715)."""

    state: StateT
    context: ContextT
    config: RunnableConfig
    stream_writer: Callable[[Any], None]
    tool_call_id: str | None
    store: Any
    tools: list[BaseTool] = field(default_factory=list)


class InjectedState(InjectedToolArg):
    """Annotation: fill this parameter from the graph state (tool_node.py:1805).

    ``Annotated[dict, InjectedState]`` gets the whole state, ``InjectedState("foo")`` its ``foo``.
    Hidden from the model's view of the tool.
    """

    def __init__(self, field: str | None = None) -> None:
        self.field = field


class InjectedStore(InjectedToolArg):
    """Annotation: fill this parameter with the graph's store (tool_node.py:1881)."""


# --8<-- [start:is_injection]
def _is_injection(type_arg: Any, injection_type: type) -> bool:
    """Is ``type_arg`` (or a member of its Union/Annotated) the marker? (tool_node.py:1956)."""
    if isinstance(type_arg, injection_type) or (
        isinstance(type_arg, type) and issubclass(type_arg, injection_type)
    ):
        return True
    origin_ = get_origin(type_arg)
    if origin_ is Union or origin_ is Annotated:
        return any(_is_injection(ta, injection_type) for ta in get_args(type_arg))
    if origin_ is not None and (
        origin_ is injection_type
        or (isinstance(origin_, type) and issubclass(origin_, injection_type))
    ):
        return True  # a parametrised marker: ToolRuntime[Ctx, State]
    return False


# --8<-- [end:is_injection]


# --8<-- [start:get_injection_from_type]
def _get_injection_from_type(type_: Any, injection_type: type) -> Any | None:
    """The marker found in an annotation: an instance, ``True`` for a bare class, or None (l.1989)."""
    type_args = get_args(type_)
    matches = [arg for arg in type_args if _is_injection(arg, injection_type)]
    if len(matches) > 1:
        msg = (
            f"A tool argument should not be annotated with {injection_type.__name__} "
            f"more than once. Found: {matches}"
        )
        raise ValueError(msg)
    if len(matches) == 1:
        return matches[0]
    elif _is_injection(type_, injection_type):
        return True
    return None


# --8<-- [end:get_injection_from_type]


# --8<-- [start:get_all_injected_args]
def _get_all_injected_args(tool: BaseTool) -> _InjectedArgs:
    """Read a tool's annotations once and record which parameters are injected (l.2019)."""
    full_schema = tool.get_input_schema()
    schema_annotations = get_all_basemodel_annotations(full_schema)
    func = getattr(tool, "func", None) or getattr(tool, "coroutine", None)
    func_annotations = get_type_hints(func, include_extras=True) if func else {}
    all_annotations = {**func_annotations, **schema_annotations}  # the schema wins

    state_args: dict[str, str | None] = {}
    store_arg: str | None = None
    runtime_arg: str | None = None
    all_injected_keys: set[str] = set()
    _optional_state_args: set[str] = set()
    for name, type_ in all_annotations.items():
        if _is_injected_arg_type(type_):
            all_injected_keys.add(name)
        if name == "runtime":  # a parameter named `runtime` always gets the ToolRuntime
            runtime_arg = name
        if state_inj := _get_injection_from_type(type_, InjectedState):
            if isinstance(state_inj, InjectedState) and state_inj.field:
                state_args[name] = state_inj.field
                field_info = full_schema.model_fields.get(name)
                if field_info and not field_info.is_required():
                    _optional_state_args.add(name)
            else:
                state_args[name] = None
        if _get_injection_from_type(type_, InjectedStore):
            store_arg = name
        if _get_injection_from_type(type_, ToolRuntime):
            runtime_arg = name

    return _InjectedArgs(
        state=state_args,
        store=store_arg,
        runtime=runtime_arg,
        all_injected_keys=all_injected_keys,
        _optional_state_args=_optional_state_args,
    )


# --8<-- [end:get_all_injected_args]
