"""``create_react_agent`` and its helpers. Mirrors ``langgraph/prebuilt/chat_agent_executor.py``.

Line numbers (``chat_agent_executor.py:LINE``) cite langgraph-prebuilt 1.1.3; they hold from
1.0.8 on. The definitions come in upstream's order, with upstream's names, so the two files can be
read side by side:

* state schemas: ``AgentState`` (l.57), ``AgentStatePydantic`` (l.69), ``...WithStructuredResponse``;
* module helpers: ``_get_state_value`` (l.129), ``_get_prompt_runnable`` (l.137),
  ``_should_bind_tools`` (l.173), ``_get_model`` (l.220), ``_validate_chat_history`` (l.243);
* ``create_react_agent`` (l.278) and, inside it, ``_resolve_model`` (l.599), ``_aresolve_model``
  (l.608), ``_are_more_steps_needed`` (l.620), ``_get_model_input_state`` (l.636), ``call_model``
  (l.661), ``acall_model`` (l.696), ``generate_structured_response`` (l.744), ``should_continue``
  (l.831), ``post_model_hook_router`` (l.919), ``route_tool_responses`` (l.970).

``create_react_agent`` and its inner functions call the module helpers by their global names at
call time: replacing one (``monkeypatch.setattr(chat_agent_executor, "_get_prompt_runnable", f)``)
changes every agent built afterwards, and for the helpers the nodes call at every step
(``_validate_chat_history``, ``_get_state_value``) agents already built too. The inner functions
are reachable from a built agent: ``inspect.getclosurevars(agent.nodes["agent"].bound.func)``.

Deviations: no ``@deprecated`` warnings on ``create_react_agent`` and the state classes (upstream
warns on every call since LangGraph 1.0); a ``"provider:model"`` string goes through
``miniagent.chat_models.init_chat_model`` (only ``openai`` is built) instead of langchain's, so
the import and its ``ImportError`` name miniagent, not langchain.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, TypeVar, cast, get_type_hints

from pydantic import BaseModel, ConfigDict
from typing_extensions import NotRequired, TypedDict

from miniagent.constants import END
from miniagent.errors import ErrorCode, create_error_message
from miniagent.graph import StateGraph
from miniagent.graph.message import add_messages
from miniagent.graph.state import CompiledStateGraph
from miniagent.managed import RemainingSteps
from miniagent.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    SystemMessage,
    ToolMessage,
)
from miniagent.models import BaseChatModel
from miniagent.prebuilt.tool_node import ToolCallWithContext, ToolNode
from miniagent.runnables import (
    Runnable,
    RunnableBinding,
    RunnableCallable,
    RunnableConfig,
    RunnableSequence,
)
from miniagent.runtime import Runtime
from miniagent.types import Send

__all__ = [
    "create_react_agent",
    "create_tool_calling_executor",
    "AgentState",
    "AgentStatePydantic",
    "AgentStateWithStructuredResponse",
    "AgentStateWithStructuredResponsePydantic",
]

StructuredResponse = dict | BaseModel
StructuredResponseSchema = dict | type[BaseModel]


class AgentState(TypedDict):
    """The state of the agent (chat_agent_executor.py:57)."""

    messages: Annotated[Sequence[BaseMessage], add_messages]

    remaining_steps: NotRequired[RemainingSteps]


class AgentStatePydantic(BaseModel):
    """The state of the agent, as a pydantic model (chat_agent_executor.py:69)."""

    # Not upstream: build the pydantic schema on first use, not at import (import time).
    model_config = ConfigDict(defer_build=True)

    messages: Annotated[Sequence[BaseMessage], add_messages]

    remaining_steps: RemainingSteps = 25


class AgentStateWithStructuredResponse(AgentState):
    """The state of the agent with a structured response (chat_agent_executor.py:88)."""

    structured_response: StructuredResponse


class AgentStateWithStructuredResponsePydantic(AgentStatePydantic):
    """The pydantic state with a structured response (chat_agent_executor.py:105)."""

    structured_response: StructuredResponse


StateSchema = TypeVar("StateSchema", bound=AgentState | AgentStatePydantic)
StateSchemaType = type[StateSchema]

PROMPT_RUNNABLE_NAME = "Prompt"

_MISSING = object()  # langgraph/_internal/_typing.py's MISSING: "argument not given"

Prompt = SystemMessage | str | Callable[[StateSchema], Any] | Runnable


# --8<-- [start:get_state_value]
def _get_state_value(state: StateSchema, key: str, default: Any = None) -> Any:
    """``state[key]`` for dict states, ``state.key`` for pydantic ones (chat_agent_executor.py:129)."""
    return state.get(key, default) if isinstance(state, dict) else getattr(state, key, default)


# --8<-- [end:get_state_value]


# --8<-- [start:get_prompt_runnable]
def _get_prompt_runnable(prompt: Prompt | None) -> Runnable:
    """Turn any accepted ``prompt`` into a Runnable: state -> model input (chat_agent_executor.py:137).

    The branch order matters: a coroutine function is also callable, so it is checked first.
    The prompt only shapes what the model sees; it never enters the state.
    """
    prompt_runnable: Runnable
    if prompt is None:
        prompt_runnable = RunnableCallable(
            lambda state: _get_state_value(state, "messages"), name=PROMPT_RUNNABLE_NAME
        )
    elif isinstance(prompt, str):
        _system_message: BaseMessage = SystemMessage(content=prompt)  # built once
        prompt_runnable = RunnableCallable(
            lambda state: [_system_message] + _get_state_value(state, "messages"),
            name=PROMPT_RUNNABLE_NAME,
        )
    elif isinstance(prompt, SystemMessage):
        prompt_runnable = RunnableCallable(
            lambda state: [prompt] + _get_state_value(state, "messages"),
            name=PROMPT_RUNNABLE_NAME,
        )
    elif inspect.iscoroutinefunction(prompt):
        prompt_runnable = RunnableCallable(None, prompt, name=PROMPT_RUNNABLE_NAME)  # async only
    elif callable(prompt):
        prompt_runnable = RunnableCallable(prompt, name=PROMPT_RUNNABLE_NAME)
    elif isinstance(prompt, Runnable):
        prompt_runnable = prompt
    else:
        raise ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")

    return prompt_runnable


# --8<-- [end:get_prompt_runnable]


# --8<-- [start:should_bind_tools]
def _should_bind_tools(model: Any, tools: Sequence[Any], num_builtin: int = 0) -> bool:
    """Must ``create_react_agent`` call ``model.bind_tools``? (chat_agent_executor.py:173).

    True for a model with nothing bound, or bound without ``tools``. For a model the user already
    bound, check that it carries exactly ``tools`` (plus ``num_builtin`` provider dicts) and
    return False, so the user's binding (``tool_choice``, ...) is kept.
    """
    if isinstance(model, RunnableSequence):
        model = next(
            (step for step in model.steps if isinstance(step, (RunnableBinding, BaseChatModel))),
            model,
        )

    if not isinstance(model, RunnableBinding):
        return True

    if "tools" not in model.kwargs:
        return True

    bound_tools = model.kwargs["tools"]
    if len(tools) != len(bound_tools) - num_builtin:
        raise ValueError(  # upstream joins the two sentences without a full stop
            "Number of tools in the model.bind_tools() and tools passed to create_react_agent must match"
            f" Got {len(tools)} tools, expected {len(bound_tools) - num_builtin}"
        )

    tool_names = set(tool.name for tool in tools)
    bound_tool_names = set()
    for bound_tool in bound_tools:
        if bound_tool.get("type") == "function":  # OpenAI style
            bound_tool_name = bound_tool["function"]["name"]
        elif bound_tool.get("name"):  # Anthropic style
            bound_tool_name = bound_tool["name"]
        else:
            continue  # an unknown dict, e.g. {"type": "mcp", ...}: ignored

        bound_tool_names.add(bound_tool_name)

    if missing_tools := tool_names - bound_tool_names:
        raise ValueError(f"Missing tools '{missing_tools}' in the model.bind_tools()")

    return False


# --8<-- [end:should_bind_tools]


# --8<-- [start:get_model]
def _get_model(model: Any) -> BaseChatModel:
    """The chat model under a binding or a sequence (chat_agent_executor.py:220)."""
    if isinstance(model, RunnableSequence):
        model = next(
            (step for step in model.steps if isinstance(step, (RunnableBinding, BaseChatModel))),
            model,
        )

    if isinstance(model, RunnableBinding):
        model = model.bound

    if not isinstance(model, BaseChatModel):
        raise TypeError(
            f"Expected `model` to be a ChatModel or RunnableBinding (e.g. model.bind_tools(...)), got {type(model)}"
        )

    return model


# --8<-- [end:get_model]


# --8<-- [start:validate_chat_history]
def _validate_chat_history(messages: Sequence[BaseMessage]) -> None:
    """Every tool call needs a ToolMessage somewhere in the list (chat_agent_executor.py:243)."""
    all_tool_calls = [
        tool_call
        for message in messages
        if isinstance(message, AIMessage)
        for tool_call in message.tool_calls
    ]
    tool_call_ids_with_results = {
        message.tool_call_id for message in messages if isinstance(message, ToolMessage)
    }
    tool_calls_without_results = [
        tool_call
        for tool_call in all_tool_calls
        if tool_call["id"] not in tool_call_ids_with_results
    ]
    if not tool_calls_without_results:
        return

    error_message = create_error_message(
        message="Found AIMessages with tool_calls that do not have a corresponding ToolMessage. "
        f"Here are the first few of those tool calls: {tool_calls_without_results[:3]}.\n\n"
        "Every tool call (LLM requesting to call a tool) in the message history MUST have a corresponding ToolMessage "
        "(result of a tool invocation to return to the LLM) - this is required by most LLM providers.",
        error_code=ErrorCode.INVALID_CHAT_HISTORY,
    )
    raise ValueError(error_message)


# --8<-- [end:validate_chat_history]


# --8<-- [start:create_react_agent]
def create_react_agent(
    model: Any,
    tools: Sequence[Any] | ToolNode,
    *,
    prompt: Prompt | None = None,
    response_format: StructuredResponseSchema | tuple[str, StructuredResponseSchema] | None = None,
    pre_model_hook: Any | None = None,
    post_model_hook: Any | None = None,
    state_schema: StateSchemaType | None = None,
    context_schema: type[Any] | None = None,
    checkpointer: Any | None = None,
    store: Any | None = None,
    interrupt_before: list[str] | None = None,
    interrupt_after: list[str] | None = None,
    debug: bool = False,
    version: Literal["v1", "v2"] = "v2",
    name: str | None = None,
    **deprecated_kwargs: Any,
) -> CompiledStateGraph:
    """Build the ReAct agent graph: ``agent`` <-> ``tools`` until no tool is called (l.278).

    ``model`` is a chat model (a ``bind_tools``-ed one is checked, a bare one is bound), or a
    callable ``(state, runtime) -> model`` resolved at every step. ``tools`` may mix tools,
    plain functions and provider dicts (bound, never executed), or be a ``ToolNode``.
    ``prompt`` is a str, SystemMessage, callable or Runnable applied to the model input only.
    ``version="v2"`` sends one ``tools`` task per tool call; ``"v1"`` one task for all.
    ``name`` is stamped on every AIMessage and names the compiled graph.
    Returns the compiled graph.
    """
    # --8<-- [start:create_react_agent_checks]
    if (config_schema := deprecated_kwargs.pop("config_schema", _MISSING)) is not _MISSING:
        import warnings

        warnings.warn(  # upstream's LangGraphDeprecatedSinceV10 appends the last sentence
            "`config_schema` is deprecated and will be removed. Please use `context_schema` "
            "instead. Deprecated in LangGraph V1.0 to be removed in V2.0.",
            category=DeprecationWarning,
            stacklevel=2,
        )
        if context_schema is None:
            context_schema = config_schema

    if len(deprecated_kwargs) > 0:
        raise TypeError(
            f"create_react_agent() got unexpected keyword arguments: {deprecated_kwargs}"
        )

    if version not in ("v1", "v2"):
        raise ValueError(f"Invalid version {version}. Supported versions are 'v1' and 'v2'.")

    if state_schema is not None:
        required_keys = {"messages", "remaining_steps"}
        if response_format is not None:
            required_keys.add("structured_response")

        schema_keys = set(get_type_hints(state_schema))
        if missing_keys := required_keys - set(schema_keys):
            raise ValueError(f"Missing required key(s) {missing_keys} in state_schema")

    if state_schema is None:
        state_schema = (
            AgentStateWithStructuredResponse if response_format is not None else AgentState
        )
    # --8<-- [end:create_react_agent_checks]

    # --8<-- [start:create_react_agent_tools]
    llm_builtin_tools: list[dict] = []
    if isinstance(tools, ToolNode):
        tool_classes = list(tools.tools_by_name.values())
        tool_node = tools
    else:
        llm_builtin_tools = [t for t in tools if isinstance(t, dict)]
        tool_node = ToolNode([t for t in tools if not isinstance(t, dict)])
        tool_classes = list(tool_node.tools_by_name.values())

    is_dynamic_model = not isinstance(model, (str, Runnable)) and callable(model)
    is_async_dynamic_model = is_dynamic_model and inspect.iscoroutinefunction(model)

    tool_calling_enabled = len(tool_classes) > 0
    # --8<-- [end:create_react_agent_tools]

    # --8<-- [start:create_react_agent_static_model]
    if not is_dynamic_model:
        if isinstance(model, str):
            try:
                from miniagent.chat_models import init_chat_model
            except ImportError:
                raise ImportError(  # noqa: B904 (upstream raises it so, without `from`)
                    "Please install miniagent (`pip install miniagent`) to "
                    "use '<provider>:<model>' string syntax for `model` parameter."
                )

            model = cast(BaseChatModel, init_chat_model(model))

        if (
            _should_bind_tools(model, tool_classes, num_builtin=len(llm_builtin_tools))
            and len(tool_classes + llm_builtin_tools) > 0
        ):
            model = cast(BaseChatModel, model).bind_tools(tool_classes + llm_builtin_tools)

        static_model: Runnable | None = _get_prompt_runnable(prompt) | model
    else:
        static_model = None  # a dynamic model is resolved at every step
    # --8<-- [end:create_react_agent_static_model]

    # l.597 -- the graph must check whether a tool that ends the run was called.
    should_return_direct = {t.name for t in tool_classes if t.return_direct}

    # --8<-- [start:resolve_model]
    def _resolve_model(state: StateSchema, runtime: Runtime) -> Any:
        """This step's model pipeline: static, or built from ``model(state, runtime)`` (l.599)."""
        if is_dynamic_model:
            return _get_prompt_runnable(prompt) | model(state, runtime)
        else:
            return static_model

    # --8<-- [end:resolve_model]

    # --8<-- [start:aresolve_model]
    async def _aresolve_model(state: StateSchema, runtime: Runtime) -> Any:
        """Async ``_resolve_model``: an ``async def`` model callable is awaited (l.608)."""
        if is_async_dynamic_model:
            resolved_model = await model(state, runtime)
            return _get_prompt_runnable(prompt) | resolved_model
        elif is_dynamic_model:
            return _get_prompt_runnable(prompt) | model(state, runtime)
        else:
            return static_model

    # --8<-- [end:aresolve_model]

    # --8<-- [start:are_more_steps_needed]
    def _are_more_steps_needed(state: StateSchema, response: BaseMessage) -> bool:
        """Too few steps left to run the tools and come back? Then give up (l.620)."""
        has_tool_calls = isinstance(response, AIMessage) and response.tool_calls
        all_tools_return_direct = (  # note: all([]) is True
            all(call["name"] in should_return_direct for call in response.tool_calls)
            if isinstance(response, AIMessage)
            else False
        )
        remaining_steps = _get_state_value(state, "remaining_steps", None)
        if remaining_steps is not None:
            if remaining_steps < 1 and all_tools_return_direct:
                return True
            elif remaining_steps < 2 and has_tool_calls:
                return True

        return False

    # --8<-- [end:are_more_steps_needed]

    # --8<-- [start:get_model_input_state]
    def _get_model_input_state(state: StateSchema) -> StateSchema:
        """Pick the messages the model sees, validate them, write them into ``state`` (l.636)."""
        if pre_model_hook is not None:
            messages = (_get_state_value(state, "llm_input_messages")) or _get_state_value(
                state, "messages"
            )
            expected_keys = "'llm_input_messages' or 'messages' key"
        else:
            messages = _get_state_value(state, "messages")
            expected_keys = "'messages' key"

        if messages is None:
            raise ValueError(
                f"Expected input to call_model to have {expected_keys}, but got {state}"
            )

        _validate_chat_history(messages)
        # The prompt runnable reads `messages`: put the chosen list there (mutates the input).
        if isinstance(state_schema, type) and issubclass(state_schema, BaseModel):
            state.messages = messages  # type: ignore[union-attr]
        else:
            state["messages"] = messages  # type: ignore[index]

        return state

    # --8<-- [end:get_model_input_state]

    # --8<-- [start:call_model]
    def call_model(state: StateSchema, runtime: Runtime, config: RunnableConfig) -> StateSchema:
        """The ``agent`` node, sync: call the model, stamp ``name``, maybe give up (l.661)."""
        if is_async_dynamic_model:
            msg = (
                "Async model callable provided but agent invoked synchronously. "
                "Use agent.ainvoke() or agent.astream(), or "
                "provide a sync model callable."
            )
            raise RuntimeError(msg)

        model_input = _get_model_input_state(state)

        if is_dynamic_model:
            dynamic_model = _resolve_model(state, runtime)
            response = cast(AIMessage, dynamic_model.invoke(model_input, config))
        else:
            response = cast(AIMessage, static_model.invoke(model_input, config))  # type: ignore[union-attr]

        response.name = name  # always assigned: name=None erases a name the model set

        if _are_more_steps_needed(state, response):
            return {
                "messages": [
                    AIMessage(
                        id=response.id,
                        content="Sorry, need more steps to process this request.",
                    )
                ]
            }
        return {"messages": [response]}  # a list: add_messages appends it to the history

    # --8<-- [end:call_model]

    # --8<-- [start:acall_model]
    async def acall_model(
        state: StateSchema, runtime: Runtime, config: RunnableConfig
    ) -> StateSchema:
        """The ``agent`` node, async: the same steps with ``ainvoke`` (l.696)."""
        model_input = _get_model_input_state(state)

        if is_dynamic_model:
            dynamic_model = await _aresolve_model(state, runtime)
            response = cast(AIMessage, await dynamic_model.ainvoke(model_input, config))
        else:
            response = cast(AIMessage, await static_model.ainvoke(model_input, config))  # type: ignore[union-attr]

        response.name = name
        if _are_more_steps_needed(state, response):
            return {
                "messages": [
                    AIMessage(
                        id=response.id,
                        content="Sorry, need more steps to process this request.",
                    )
                ]
            }
        return {"messages": [response]}

    # --8<-- [end:acall_model]

    # --8<-- [start:input_schema]
    input_schema: StateSchemaType
    if pre_model_hook is not None:
        # l.723 -- the agent node also reads `llm_input_messages`, which the hook may write.
        if isinstance(state_schema, type) and issubclass(state_schema, BaseModel):
            from pydantic import create_model

            input_schema = create_model(
                "CallModelInputSchema",
                llm_input_messages=(list[AnyMessage], ...),
                __base__=state_schema,
            )
        else:

            class CallModelInputSchema(state_schema):  # type: ignore[misc,valid-type]
                llm_input_messages: list[AnyMessage]

            input_schema = CallModelInputSchema
    else:
        input_schema = state_schema
    # --8<-- [end:input_schema]

    # --8<-- [start:generate_structured_response]
    def generate_structured_response(
        state: StateSchema, runtime: Runtime, config: RunnableConfig
    ) -> StateSchema:
        """One more model call, after the loop, that returns ``response_format`` (l.744)."""
        if is_async_dynamic_model:
            msg = (
                "Async model callable provided but agent invoked synchronously. "
                "Use agent.ainvoke() or agent.astream(), or provide a sync model callable."
            )
            raise RuntimeError(msg)

        messages = _get_state_value(state, "messages")
        structured_response_schema = response_format
        if isinstance(response_format, tuple):
            system_prompt, structured_response_schema = response_format
            messages = [SystemMessage(content=system_prompt)] + list(messages)

        resolved_model = _resolve_model(state, runtime)
        model_with_structured_output = _get_model(resolved_model).with_structured_output(
            cast(StructuredResponseSchema, structured_response_schema)
        )
        response = model_with_structured_output.invoke(messages, config)
        return {"structured_response": response}

    # --8<-- [end:generate_structured_response]

    # --8<-- [start:agenerate_structured_response]
    async def agenerate_structured_response(
        state: StateSchema, runtime: Runtime, config: RunnableConfig
    ) -> StateSchema:
        """Async ``generate_structured_response`` (l.769)."""
        messages = _get_state_value(state, "messages")
        structured_response_schema = response_format
        if isinstance(response_format, tuple):
            system_prompt, structured_response_schema = response_format
            messages = [SystemMessage(content=system_prompt)] + list(messages)

        resolved_model = await _aresolve_model(state, runtime)
        model_with_structured_output = _get_model(resolved_model).with_structured_output(
            cast(StructuredResponseSchema, structured_response_schema)
        )
        response = await model_with_structured_output.ainvoke(messages, config)
        return {"structured_response": response}

    # --8<-- [end:agenerate_structured_response]

    # --8<-- [start:no_tools_graph]
    if not tool_calling_enabled:
        # l.787 -- no tools: a line [pre_model_hook ->] agent [-> post_model_hook] [-> structured].
        workflow = StateGraph(state_schema=state_schema, context_schema=context_schema)
        workflow.add_node(
            "agent", RunnableCallable(call_model, acall_model), input_schema=input_schema
        )
        if pre_model_hook is not None:
            workflow.add_node("pre_model_hook", pre_model_hook)
            workflow.add_edge("pre_model_hook", "agent")
            entrypoint = "pre_model_hook"
        else:
            entrypoint = "agent"

        workflow.set_entry_point(entrypoint)

        if post_model_hook is not None:
            workflow.add_node("post_model_hook", post_model_hook)
            workflow.add_edge("agent", "post_model_hook")

        if response_format is not None:
            workflow.add_node(
                "generate_structured_response",
                RunnableCallable(generate_structured_response, agenerate_structured_response),
            )
            if post_model_hook is not None:
                workflow.add_edge("post_model_hook", "generate_structured_response")
            else:
                workflow.add_edge("agent", "generate_structured_response")

        return workflow.compile(
            checkpointer=checkpointer,
            store=store,
            interrupt_before=interrupt_before,
            interrupt_after=interrupt_after,
            debug=debug,
            name=name,
        )
    # --8<-- [end:no_tools_graph]

    # --8<-- [start:should_continue]
    def should_continue(state: StateSchema) -> str | list[Send]:
        """After ``agent``: no tool calls -> finish (or post-process), else ``tools`` (l.831)."""
        messages = _get_state_value(state, "messages")
        last_message = messages[-1]
        if not isinstance(last_message, AIMessage) or not last_message.tool_calls:
            if post_model_hook is not None:
                return "post_model_hook"
            elif response_format is not None:
                return "generate_structured_response"
            else:
                return END
        else:
            if version == "v1":
                return "tools"  # one task runs every call
            elif version == "v2":
                if post_model_hook is not None:
                    return "post_model_hook"
                return [  # one task per call, each carrying the state
                    Send(
                        "tools",
                        ToolCallWithContext(
                            __type="tool_call_with_context",
                            tool_call=call,
                            state=state,
                        ),
                    )
                    for call in last_message.tool_calls
                ]

    # --8<-- [end:should_continue]

    # --8<-- [start:tools_graph]
    workflow = StateGraph(state_schema=state_schema or AgentState, context_schema=context_schema)

    workflow.add_node("agent", RunnableCallable(call_model, acall_model), input_schema=input_schema)
    workflow.add_node("tools", tool_node)

    if pre_model_hook is not None:
        workflow.add_node("pre_model_hook", pre_model_hook)
        workflow.add_edge("pre_model_hook", "agent")
        entrypoint = "pre_model_hook"
    else:
        entrypoint = "agent"

    workflow.set_entry_point(entrypoint)

    agent_paths = []
    post_model_hook_paths = [entrypoint, "tools"]

    if post_model_hook is not None:
        workflow.add_node("post_model_hook", post_model_hook)
        agent_paths.append("post_model_hook")
        workflow.add_edge("agent", "post_model_hook")
    else:
        agent_paths.append("tools")

    if response_format is not None:
        workflow.add_node(
            "generate_structured_response",
            RunnableCallable(generate_structured_response, agenerate_structured_response),
        )
        if post_model_hook is not None:
            post_model_hook_paths.append("generate_structured_response")
        else:
            agent_paths.append("generate_structured_response")
    else:
        if post_model_hook is not None:
            post_model_hook_paths.append(END)
        else:
            agent_paths.append(END)
    # --8<-- [end:tools_graph]

    if post_model_hook is not None:
        # --8<-- [start:post_model_hook_router]
        def post_model_hook_router(state: StateSchema) -> str | list[Send]:
            """After ``post_model_hook``: run pending tool calls, loop, or finish (l.919)."""
            messages = _get_state_value(state, "messages")
            tool_messages = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
            last_ai_message = next(m for m in reversed(messages) if isinstance(m, AIMessage))
            pending_tool_calls = [
                c for c in last_ai_message.tool_calls if c["id"] not in tool_messages
            ]

            if pending_tool_calls:
                return [
                    Send(
                        "tools",
                        ToolCallWithContext(
                            __type="tool_call_with_context",
                            tool_call=call,
                            state=state,
                        ),
                    )
                    for call in pending_tool_calls
                ]
            elif isinstance(messages[-1], ToolMessage):
                return entrypoint  # the hook answered the calls itself
            elif response_format is not None:
                return "generate_structured_response"
            else:
                return END

        # --8<-- [end:post_model_hook_router]

        workflow.add_conditional_edges(
            "post_model_hook", post_model_hook_router, path_map=post_model_hook_paths
        )

    workflow.add_conditional_edges("agent", should_continue, path_map=agent_paths)

    # --8<-- [start:route_tool_responses]
    def route_tool_responses(state: StateSchema) -> str:
        """After ``tools``: end if a ``return_direct`` tool ran, else loop (l.970)."""
        for m in reversed(_get_state_value(state, "messages")):
            if not isinstance(m, ToolMessage):
                break
            if m.name in should_return_direct:
                return END

        # v2: the return_direct tool may have run in a sibling Send task.
        if isinstance(m, AIMessage) and m.tool_calls:
            if any(call["name"] in should_return_direct for call in m.tool_calls):
                return END

        return entrypoint

    # --8<-- [end:route_tool_responses]

    if should_return_direct:
        workflow.add_conditional_edges("tools", route_tool_responses, path_map=[entrypoint, END])
    else:
        workflow.add_edge("tools", entrypoint)

    return workflow.compile(
        checkpointer=checkpointer,
        store=store,
        interrupt_before=interrupt_before,
        interrupt_after=interrupt_after,
        debug=debug,
        name=name,
    )


# --8<-- [end:create_react_agent]

# Kept for backwards compatibility (chat_agent_executor.py:1006).
create_tool_calling_executor = create_react_agent
