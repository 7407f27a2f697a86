"""The two sides an experiment runs on: miniagent's names and the pinned upstream packages'.

An experiment is written once against a namespace ``lib`` (``lib.AIMessage``,
``lib.create_react_agent``, ``lib.mw.AgentMiddleware``, ``lib.ScriptedChatModel``, ...) and run on
``side("mini")`` and on ``side("upstream")``; ``MINI`` and ``UPSTREAM`` are the same two
namespaces. ``NAMES`` is the one table of what a side holds: each name, where miniagent has it
and where upstream has it (``"module:attribute"``, or ``"module"`` for a module itself).

This package is the runtime tests' own: they need nothing of the course tooling. The course
builds its notebooks' and graders' ``MINI``/``UP`` from it too (the tooling's ``sides`` module
borrows this package from the checkout), so a side has one definition. Beside the table:

* ``upstream_fakes`` -- the upstream twins of ``miniagent.testing``'s scripted fakes, the
  upstream side's ``FakeToolCallingModel`` and ``ScriptedChatModel``;
* ``loopback`` -- a Chat Completions server on 127.0.0.1 that both sides' ``ChatOpenAI`` talk
  to: it records the request bodies and replays a script.

Building a side imports its library on first use: ``side("mini")`` imports nothing of upstream.
"""

from __future__ import annotations

import functools
import importlib
import warnings
from types import SimpleNamespace
from typing import Any

SIDES = ("mini", "upstream")
LABELS = {"mini": "miniagent", "upstream": "langgraph"}  # each namespace's ``name``


def _same(mini_module: str, upstream_module: str, names: str) -> list[tuple[str, str, str]]:
    """Rows for names that both modules hold under the same name."""
    return [(n, f"{mini_module}:{n}", f"{upstream_module}:{n}") for n in names.split()]


_EXECUTOR = ("miniagent.prebuilt.chat_agent_executor", "langgraph.prebuilt.chat_agent_executor")
_TOOL_NODE = ("miniagent.prebuilt.tool_node", "langgraph.prebuilt.tool_node")

# (name, miniagent's, upstream's): "module:attribute", or "module" for the module itself
NAMES: list[tuple[str, str, str]] = [
    # messages
    ("m", "miniagent.messages", "langchain_core.messages"),
    *_same(
        "miniagent.messages",
        "langchain_core.messages",
        "BaseMessage AIMessage AIMessageChunk HumanMessage SystemMessage ToolMessage "
        "RemoveMessage ToolCall AnyMessage convert_to_messages",
    ),
    (
        "REMOVE_ALL_MESSAGES",
        "miniagent.graph:REMOVE_ALL_MESSAGES",
        "langgraph.graph.message:REMOVE_ALL_MESSAGES",
    ),
    # tools
    *_same(
        "miniagent.tools",
        "langchain_core.tools",
        "tool BaseTool ToolException InjectedToolArg InjectedToolCallId",
    ),
    (
        "convert_to_openai_tool",
        "miniagent.tools:convert_to_openai_tool",
        "langchain_core.utils.function_calling:convert_to_openai_tool",
    ),
    # runnables
    *_same(
        "miniagent.runnables",
        "langchain_core.runnables",
        "Runnable RunnableLambda RunnableSequence RunnableParallel RunnableBinding",
    ),
    (
        "coerce_to_runnable",
        "miniagent.runnables:coerce_to_runnable",
        "langchain_core.runnables.base:coerce_to_runnable",
    ),
    (
        "RunnableCallable",
        "miniagent.runnables:RunnableCallable",
        "langgraph._internal._runnable:RunnableCallable",
    ),
    # the graph
    *_same("miniagent.graph", "langgraph.graph", "StateGraph START END MessagesState add_messages"),
    *_same("miniagent.types", "langgraph.types", "Command Send"),
    *_same("miniagent.errors", "langgraph.errors", "GraphRecursionError GraphBubbleUp"),
    *_same("miniagent.managed", "langgraph.managed", "RemainingSteps IsLastStep"),
    ("Runtime", "miniagent.runtime:Runtime", "langgraph.runtime:Runtime"),
    (
        "InMemorySaver",
        "miniagent.checkpoint:InMemorySaver",
        "langgraph.checkpoint.memory:InMemorySaver",
    ),
    # create_react_agent and ToolNode
    ("agent_module", *_EXECUTOR),
    *_same(
        *_EXECUTOR,
        "create_react_agent AgentState AgentStatePydantic "
        "_validate_chat_history _should_bind_tools _get_model",
    ),
    *_same(
        *_TOOL_NODE,
        "ToolNode tools_condition InjectedState InjectedStore ToolInvocationError "
        "TOOL_CALL_ERROR_TEMPLATE _infer_handled_types",
    ),
    ("ToolRuntime", "miniagent.prebuilt:ToolRuntime", "langchain.tools:ToolRuntime"),
    # create_agent: its module, its middleware (``mw.AgentState`` is its state) and structured output
    ("agent_factory", "miniagent.agents.factory", "langchain.agents.factory"),
    (
        "create_agent",
        "miniagent.agents.factory:create_agent",
        "langchain.agents.factory:create_agent",
    ),
    ("mw", "miniagent.agents.middleware", "langchain.agents.middleware"),
    ("so", "miniagent.agents.structured_output", "langchain.agents.structured_output"),
    # the fake models: miniagent.testing's and their upstream twins (upstream_fakes.py)
    *_same(
        "miniagent.testing", f"{__name__}.upstream_fakes", "FakeToolCallingModel ScriptedChatModel"
    ),
    (
        "GenericFakeChatModel",
        "miniagent.testing:GenericFakeChatModel",
        "langchain_core.language_models.fake_chat_models:GenericFakeChatModel",
    ),
]


def _resolve(target: str) -> Any:
    module, _, attribute = target.partition(":")
    found = importlib.import_module(module)
    return getattr(found, attribute) if attribute else found


@functools.cache
def side(which: str) -> SimpleNamespace:
    """The namespace of ``which`` side, ``"mini"`` or ``"upstream"`` (built once)."""
    column = SIDES.index(which) + 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # upstream marks its prebuilt agent as deprecated
        values = {row[0]: _resolve(row[column]) for row in NAMES}
    return SimpleNamespace(name=LABELS[which], **values)


def __getattr__(name: str) -> Any:
    """``MINI`` and ``UPSTREAM``: the two sides, built on first use."""
    if name == "MINI":
        return side("mini")
    if name == "UPSTREAM":
        return side("upstream")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
