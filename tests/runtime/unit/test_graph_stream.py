"""stream_mode="messages": chat model output through the callbacks, node outputs deduplicated by
id (langgraph/pregel/_messages.py). Expected chunks are upstream's, see tests/runtime/differential."""

from typing import Annotated

import pytest
from typing_extensions import TypedDict

from miniagent.constants import END, START
from miniagent.graph import StateGraph, add_messages
from miniagent.messages import AIMessage, AIMessageChunk, HumanMessage, ToolMessage
from miniagent.runtime import Runtime
from miniagent.testing import FakeToolCallingModel, ScriptedChatModel
from miniagent.types import Command


class MessagesState(TypedDict):
    messages: Annotated[list, add_messages]


def one_node_graph(node):
    return StateGraph(MessagesState).add_node("agent", node).add_edge(START, "agent").compile()


def stream_messages(graph, inputs=None):
    inputs = inputs if inputs is not None else {"messages": [HumanMessage("hi", id="h-1")]}
    return list(graph.stream(inputs, stream_mode="messages"))


def test_a_model_without_stream_emits_its_reply_once():
    model = FakeToolCallingModel()
    graph = one_node_graph(lambda state: {"messages": [model.invoke(state["messages"])]})
    chunks = stream_messages(graph)
    assert [(type(m).__name__, m.content, m.id) for m, _ in chunks] == [("AIMessage", "hi", "0")]
    metadata = chunks[0][1]
    assert metadata["langgraph_node"] == "agent"
    assert metadata["langgraph_step"] == 1
    assert metadata["langgraph_triggers"] == ("branch:to:agent",)
    assert metadata["langgraph_path"] == ("__pregel_pull", "agent")
    assert metadata["langgraph_checkpoint_ns"].startswith("agent:")


def test_a_streaming_model_emits_chunks_and_not_the_merged_reply():
    model = ScriptedChatModel([AIMessage("good day to you", id="ai-1")])
    graph = one_node_graph(lambda state: {"messages": [model.invoke(state["messages"])]})
    chunks = stream_messages(graph)
    assert [(type(m), m.content) for m, _ in chunks] == [
        (AIMessageChunk, "good"),
        (AIMessageChunk, " "),
        (AIMessageChunk, "day"),
        (AIMessageChunk, " "),
        (AIMessageChunk, "to"),
        (AIMessageChunk, " "),
        (AIMessageChunk, "you"),
    ]
    # without "messages" the model takes its plain path and the graph still works
    model = ScriptedChatModel([AIMessage("good day", id="ai-1")])
    graph = one_node_graph(lambda state: {"messages": [model.invoke(state["messages"])]})
    assert graph.invoke({"messages": []})["messages"][0].content == "good day"


def test_node_outputs_are_emitted_with_an_id_and_input_messages_are_not():
    def tools(state):
        return {"messages": [*state["messages"], ToolMessage("42", tool_call_id="c1")]}

    chunks = stream_messages(one_node_graph(tools))
    assert [(type(m).__name__, m.content) for m, _ in chunks] == [("ToolMessage", "42")]
    assert chunks[0][0].id is not None


def test_messages_inside_commands_are_emitted():
    def node(state):
        return [
            Command(update={"messages": [AIMessage("a", id="a")]}),
            {"messages": [AIMessage("b", id="b")]},
        ]

    assert [m.id for m, _ in stream_messages(one_node_graph(node))] == ["a", "b"]


def test_a_model_tagged_nostream_is_not_streamed():
    model = FakeToolCallingModel().with_config(tags=["nostream"])

    def node(state):
        model.invoke(state["messages"])
        return None

    assert stream_messages(one_node_graph(node)) == []


def test_each_message_once_across_modes_and_steps():
    model = FakeToolCallingModel()

    def agent(state):
        return {"messages": [model.invoke(state["messages"])]}

    graph = StateGraph(MessagesState).add_node("agent", agent).add_edge(START, "agent")
    graph.add_conditional_edges("agent", lambda s: "agent" if len(s["messages"]) < 3 else END)
    chunks = list(graph.compile().stream({"messages": [("user", "x")]}, stream_mode=["messages"]))
    assert [(mode, m.id, meta["langgraph_step"]) for mode, (m, meta) in chunks] == [
        ("messages", "0", 1),
        ("messages", "1", 2),
    ]


def test_the_callbacks_of_the_config_reach_the_model():
    seen = []

    class Handler:
        def on_chat_model_end(self, message, config):
            seen.append((message.content, config["metadata"]["langgraph_node"]))

    model = FakeToolCallingModel()
    graph = one_node_graph(lambda state: {"messages": [model.invoke(state["messages"])]})
    graph.invoke({"messages": [HumanMessage("hi")]}, {"callbacks": [Handler()]})
    assert seen == [("hi", "agent")]


def test_chunks_reach_the_consumer_while_the_node_still_runs():
    import threading

    consumer_saw_it = threading.Event()

    def node(state, runtime: Runtime):
        runtime.stream_writer("first token")
        finished_in_time = consumer_saw_it.wait(timeout=5)
        return {"messages": [AIMessage(f"consumer saw the token: {finished_in_time}", id="x")]}

    chunks = []
    for mode, chunk in one_node_graph(node).stream(
        {"messages": []}, stream_mode=["custom", "messages"]
    ):
        chunks.append(chunk if mode == "custom" else chunk[0].content)
        consumer_saw_it.set()
    assert chunks == ["first token", "consumer saw the token: True"]


def test_chunks_reach_the_consumer_while_an_async_node_still_runs():
    import asyncio

    async def run():
        consumer_saw_it = asyncio.Event()

        async def node(state, runtime: Runtime):
            runtime.stream_writer("first token")
            await asyncio.wait_for(consumer_saw_it.wait(), timeout=5)
            return None

        graph = one_node_graph(node)
        async for chunk in graph.astream({"messages": []}, stream_mode="custom"):
            consumer_saw_it.set()
            yield chunk

    async def collect():
        return [c async for c in run()]

    assert asyncio.run(collect()) == ["first token"]


def test_an_error_in_a_streamed_node_reaches_the_caller():
    def node(state):
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        list(one_node_graph(node).stream({"messages": []}, stream_mode="messages"))
