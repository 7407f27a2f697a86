"""Day 12: the scripted runs a streaming client watches, and upstream's stream recorded as data.

Part 1's reference needs nothing here: ``_emit``, ``_find_and_emit_messages``, ``on_node_start``
and ``on_node_end`` are methods of ``miniagent.graph.pregel.StreamMessagesHandler``, and a graph
streaming ``stream_mode="messages"`` builds that class afresh for every run, so a learner's
methods join their agent by class attribute (kit.toml names them as the references;
``miniagent mine`` swaps them in).

* :data:`SITUATIONS`: small ``create_react_agent`` runs, each streamed in one mode.
* :func:`client_view`: what a client of that stream sees, as ``[node, type, id, content]`` rows.
* ``instructor/recorded.json`` (:data:`RECORDING`): upstream's client view of every situation,
  recorded from the pinned packages. The graders compare the learner's handler with it and never
  import upstream; ``instructor/test_day12_streaming_diff.py`` records it again and checks that
  it is still upstream's. Re-record after changing a situation::

      python -m miniagent_course.grading.recording day12

Part 2 is graded against the same recording: a prediction is a situation's client view.
"""

# No `from __future__ import annotations`: the tool `note` needs its real annotation
# (InjectedToolCallId), which get_type_hints could not resolve from a string here.
import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Any

from miniagent_course.grading.recording import Recording

RECORDED = Path(__file__).parent / "instructor" / "recorded.json"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

METHODS = ("_emit", "_find_and_emit_messages", "on_node_start", "on_node_end")  # part 1
QUESTION = "2 + 3?"
ADD = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}
NOTE = {"name": "note", "args": {"text": "5"}, "id": "call_2"}
SORRY = "Sorry, need more steps to process this request."

# key -> what happens in the run (the stub's docstring says the same to the learner).
SITUATIONS: dict[str, str] = {
    "answer": "a streaming model answers 'It is 5' (id r1)",
    "tool_round": "a streaming model calls add (id r1, no text), then answers 'Five.' (id r2)",
    "whole_reply": "a model without _stream answers at once (FakeToolCallingModel: id '0')",
    "nostream_no_tools": "the streaming model of 'answer', tagged nostream, in an agent without tools",
    "nostream_with_tools": "the same tagged model in an agent with the tool add",
    "sorry": "the model calls add (id r1, no text) with recursion_limit=2: the Sorry reply",
    "reused_id_streamed": "a history with AIMessage id a0; the streaming model answers with id a0",
    "reused_id_whole": "a history with AIMessage id '0'; FakeToolCallingModel answers (id '0')",
    "reused_id_whole_pydantic": "the same, with state_schema=AgentStatePydantic",
    "command_tool": "the model calls note, a tool that returns a Command with a ToolMessage",
    "hook_rewrites": "a pre_model_hook returns RemoveMessage(all), a summary (s1) and the question",
    "tool_round_updates": "the run of 'tool_round', streamed in stream_mode='updates'",
    "sorry_updates": "the run of 'sorry', streamed in stream_mode='updates'",
    "hook_rewrites_updates": "the run of 'hook_rewrites', streamed in stream_mode='updates'",
}


def _library_extras(lib: SimpleNamespace) -> SimpleNamespace:
    """``Command`` and ``InjectedToolCallId`` from the side ``lib`` names."""
    if lib.name == "miniagent":
        from miniagent.testing import FakeToolCallingModel
        from miniagent.tools import InjectedToolCallId
        from miniagent.types import Command
    else:
        from langchain_core.tools import InjectedToolCallId
        from langgraph.types import Command

        from miniagent_course.lab.upstream_fakes import FakeToolCallingModel
    return SimpleNamespace(
        Command=Command, InjectedToolCallId=InjectedToolCallId, Fake=FakeToolCallingModel
    )


def build(lib: SimpleNamespace, key: str) -> tuple[Any, dict[str, Any], dict[str, Any], str]:
    """The situation's agent, input, config and stream mode, built with ``lib``."""
    extras = _library_extras(lib)

    @lib.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @lib.tool
    def note(text: str, tool_call_id: Annotated[str, extras.InjectedToolCallId]) -> Any:
        """Write a note."""
        message = lib.ToolMessage("noted", tool_call_id=tool_call_id, id="t1")
        return extras.Command(update={"messages": [message]})

    base = key.removesuffix("_updates")
    mode = "updates" if key.endswith("_updates") else "messages"
    history: list[Any] = [lib.HumanMessage(QUESTION, id="h1")]
    tools: list[Any] = [add]
    config: dict[str, Any] = {}
    hook = None
    state_schema = None
    calls_add = lib.AIMessage("", id="r1", tool_calls=[ADD])
    if base == "answer":
        model: Any = lib.ScriptedChatModel([lib.AIMessage("It is 5", id="r1")])
    elif base == "tool_round":
        model = lib.ScriptedChatModel([calls_add, lib.AIMessage("Five.", id="r2")])
    elif base == "whole_reply":
        model = extras.Fake(tool_calls=[[]])
    elif base.startswith("nostream"):
        model = lib.ScriptedChatModel([lib.AIMessage("It is 5", id="r1")])
        model = model.with_config(tags=["nostream"])
        tools = [add] if base == "nostream_with_tools" else []
    elif base == "sorry":
        model = lib.ScriptedChatModel([calls_add])
        config = {"recursion_limit": 2}
    elif base == "reused_id_streamed":
        model = lib.ScriptedChatModel([lib.AIMessage("Five.", id="a0")])
        history = [lib.HumanMessage("hi", id="h0"), lib.AIMessage("hello", id="a0"), *history]
    elif base.startswith("reused_id_whole"):
        model = extras.Fake(tool_calls=[[]])
        history = [lib.HumanMessage("hi", id="h0"), lib.AIMessage("hello", id="0"), *history]
        if base.endswith("pydantic"):
            state_schema = lib.AgentStatePydantic
    elif base == "command_tool":
        calls_note = lib.AIMessage("", id="r1", tool_calls=[NOTE])
        model = lib.ScriptedChatModel([calls_note, lib.AIMessage("Five.", id="r2")])
        tools = [note]
    elif base == "hook_rewrites":
        model = lib.ScriptedChatModel([lib.AIMessage("Five.", id="r1")])

        def hook(state: Any) -> dict[str, Any]:
            last = state["messages"][-1]
            summary = lib.HumanMessage("(summary)", id="s1")
            return {"messages": [lib.RemoveMessage(id=lib.REMOVE_ALL_MESSAGES), summary, last]}

    else:
        raise KeyError(key)
    agent = lib.create_react_agent(model, tools, pre_model_hook=hook, state_schema=state_schema)
    return agent, {"messages": history}, config, mode


def row(node: str, message: Any) -> list[Any]:
    """``[node, type, id, content]``; a random uuid id reads ``"uuid"``."""
    message_id = message.id if message.id is None else UUID.sub("uuid", message.id)
    return [node, type(message).__name__, message_id, message.content]


def client_view(lib: SimpleNamespace, key: str) -> list[list[Any]]:
    """Stream one situation and return what a client sees, one row per message.

    ``messages`` mode: one row per ``(message, metadata)`` item, the node read from the
    metadata (``langgraph_node``). ``updates`` mode: one row per message of each ``{node:
    update}`` chunk. The rows are read once the run is over: the reducer gives a returned
    ToolMessage its id by assigning it on the very object the chunk holds.
    """
    agent, inputs, config, mode = build(lib, key)
    items = list(agent.stream(inputs, config, stream_mode=mode))
    if mode == "messages":
        return [row(meta["langgraph_node"], message) for message, meta in items]
    return [
        row(node, message)
        for chunk in items
        for node, update in chunk.items()
        for message in (update or {}).get("messages", [])
    ]


@contextlib.contextmanager
def handler_methods(impl: Any) -> Iterator[None]:
    """Inside: every ``StreamMessagesHandler`` runs the graded methods of ``impl`` (a learner's
    file, for the notebook's "Your turn"); outside: miniagent's own again."""
    from miniagent.graph.pregel import StreamMessagesHandler

    names = [n for n in METHODS if callable(impl.functions.get(n))]
    saved = {name: StreamMessagesHandler.__dict__[name] for name in names}
    for name in names:
        setattr(StreamMessagesHandler, name, impl.functions[name])
    try:
        yield
    finally:
        for name, method in saved.items():
            setattr(StreamMessagesHandler, name, method)


def upstream_results(side: SimpleNamespace) -> dict[str, list[list[Any]]]:
    """Upstream's client view of every situation, computed on ``side`` (the recording's content)."""
    return {key: client_view(side, key) for key in SITUATIONS}


RECORDING = Recording(RECORDED, upstream_results)
record = RECORDING.record  # upstream's client views afresh (needs the pinned packages)
recorded = RECORDING.recorded  # upstream's client views as the file holds them
