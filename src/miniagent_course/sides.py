"""The two sides an experiment runs on: namespaces with the same names from miniagent and from
the pinned upstream packages. ``mini()`` imports nothing of upstream (the learner's grading and
``miniagent mine`` use only it); ``upstream()`` does, when they are installed.
"""

from __future__ import annotations

import importlib.util
import warnings
from types import SimpleNamespace


def mini() -> SimpleNamespace:
    """miniagent's side."""
    from miniagent import graph, messages, runnables, testing, tools
    from miniagent.agents import factory as agent_factory
    from miniagent.agents import middleware
    from miniagent.checkpoint import InMemorySaver
    from miniagent.errors import GraphRecursionError
    from miniagent.managed import RemainingSteps
    from miniagent.prebuilt import (
        ToolNode,
        chat_agent_executor,
        create_react_agent,
        tools_condition,
    )
    from miniagent.prebuilt.chat_agent_executor import AgentStatePydantic

    return SimpleNamespace(
        name="miniagent",
        agent_module=chat_agent_executor,
        create_agent=agent_factory.create_agent,
        agent_factory=agent_factory,
        mw=middleware,
        create_react_agent=create_react_agent,
        AgentStatePydantic=AgentStatePydantic,
        ToolNode=ToolNode,
        tools_condition=tools_condition,
        StateGraph=graph.StateGraph,
        START=graph.START,
        END=graph.END,
        MessagesState=graph.MessagesState,
        add_messages=graph.add_messages,
        RemainingSteps=RemainingSteps,
        GraphRecursionError=GraphRecursionError,
        InMemorySaver=InMemorySaver,
        AIMessage=messages.AIMessage,
        HumanMessage=messages.HumanMessage,
        SystemMessage=messages.SystemMessage,
        ToolMessage=messages.ToolMessage,
        RemoveMessage=messages.RemoveMessage,
        AIMessageChunk=messages.AIMessageChunk,
        REMOVE_ALL_MESSAGES=graph.REMOVE_ALL_MESSAGES,
        convert_to_messages=messages.convert_to_messages,
        RunnableLambda=runnables.RunnableLambda,
        Runnable=runnables.Runnable,
        RunnableSequence=runnables.RunnableSequence,
        RunnableParallel=runnables.RunnableParallel,
        RunnableBinding=runnables.RunnableBinding,
        RunnableCallable=runnables.RunnableCallable,
        coerce_to_runnable=runnables.coerce_to_runnable,
        tool=tools.tool,
        ToolException=tools.ToolException,
        convert_to_openai_tool=tools.convert_to_openai_tool,
        FakeToolCallingModel=testing.FakeToolCallingModel,
        ScriptedChatModel=testing.ScriptedChatModel,
    )


def upstream() -> SimpleNamespace | None:
    """The pinned upstream packages' side, or None when they are not installed."""
    if importlib.util.find_spec("langgraph") is None:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # upstream marks its prebuilt agent as deprecated
        from langchain.agents import factory as agent_factory
        from langchain.agents import middleware
        from langchain_core import messages
        from langchain_core.runnables import (
            Runnable,
            RunnableBinding,
            RunnableLambda,
            RunnableParallel,
            RunnableSequence,
        )
        from langchain_core.runnables.base import coerce_to_runnable
        from langchain_core.tools import ToolException, tool
        from langchain_core.utils.function_calling import convert_to_openai_tool
        from langgraph import graph
        from langgraph._internal._runnable import RunnableCallable
        from langgraph.checkpoint.memory import InMemorySaver
        from langgraph.errors import GraphRecursionError
        from langgraph.graph import message as graph_message
        from langgraph.managed import RemainingSteps
        from langgraph.prebuilt import (
            ToolNode,
            chat_agent_executor,
            create_react_agent,
            tools_condition,
        )
        from langgraph.prebuilt.chat_agent_executor import AgentStatePydantic

        from miniagent_course.lab import upstream_fakes

    return SimpleNamespace(
        name="langgraph",
        agent_module=chat_agent_executor,
        create_agent=agent_factory.create_agent,
        agent_factory=agent_factory,
        mw=middleware,
        create_react_agent=create_react_agent,
        AgentStatePydantic=AgentStatePydantic,
        ToolNode=ToolNode,
        tools_condition=tools_condition,
        StateGraph=graph.StateGraph,
        START=graph.START,
        END=graph.END,
        MessagesState=graph.MessagesState,
        add_messages=graph.add_messages,
        RemainingSteps=RemainingSteps,
        GraphRecursionError=GraphRecursionError,
        InMemorySaver=InMemorySaver,
        AIMessage=messages.AIMessage,
        HumanMessage=messages.HumanMessage,
        SystemMessage=messages.SystemMessage,
        ToolMessage=messages.ToolMessage,
        RemoveMessage=messages.RemoveMessage,
        AIMessageChunk=messages.AIMessageChunk,
        REMOVE_ALL_MESSAGES=graph_message.REMOVE_ALL_MESSAGES,
        convert_to_messages=messages.convert_to_messages,
        RunnableLambda=RunnableLambda,
        Runnable=Runnable,
        RunnableSequence=RunnableSequence,
        RunnableParallel=RunnableParallel,
        RunnableBinding=RunnableBinding,
        RunnableCallable=RunnableCallable,
        coerce_to_runnable=coerce_to_runnable,
        tool=tool,
        ToolException=ToolException,
        convert_to_openai_tool=convert_to_openai_tool,
        FakeToolCallingModel=upstream_fakes.FakeToolCallingModel,
        ScriptedChatModel=upstream_fakes.ScriptedChatModel,
    )
