"""Differential tests: the mini state graph against langgraph 1.2.24.

Every scenario is a function of a side ``L`` (``tests/runtime/sides``) holding either
langgraph's names or miniagent's; both runs must give the same result, or the same error (type
name and text).
Random ids (uuid4 message ids, task ids in ``langgraph_checkpoint_ns``) are replaced by
placeholders in order of appearance before comparing.
"""

import operator
import re
import warnings
from collections import Counter
from types import SimpleNamespace
from typing import Annotated, Any, Callable, Literal

import pytest

pytest.importorskip("langgraph")
pytest.importorskip("langchain_core")

from pydantic import BaseModel  # noqa: E402
from sides import side  # noqa: E402
from typing_extensions import TypedDict  # noqa: E402

UP, MINI = side("upstream"), side("mini")

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def normalize(obj: Any, seen: dict[str, str] | None = None) -> Any:
    """Plain data with uuids replaced by ``<id-N>``; messages become small dicts."""
    seen = {} if seen is None else seen
    if isinstance(obj, str):
        return _UUID.sub(lambda m: seen.setdefault(m.group(0), f"<id-{len(seen) + 1}>"), obj)
    if hasattr(obj, "content") and hasattr(obj, "type"):  # a message of either library
        fields = ["content", "id", "name", "tool_calls", "tool_call_id", "tool_call_chunks"]
        data = {"class": type(obj).__name__}
        data.update({f: getattr(obj, f) for f in fields if getattr(obj, f, None)})
        return normalize(data, seen)
    if isinstance(obj, dict):
        return {normalize(k, seen): normalize(v, seen) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(normalize(v, seen) for v in obj)
    return obj


def outcome(scenario: Callable[[SimpleNamespace], Any], lib: SimpleNamespace) -> Any:
    """The scenario's result, or ``(error type name, text)``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ("ok", normalize(scenario(lib)))
        except Exception as e:  # noqa: BLE001 -- the error itself is the result
            return ("error", type(e).__name__, str(e))


def assert_same(scenario: Callable[[SimpleNamespace], Any]) -> Any:
    mini, upstream = outcome(scenario, MINI), outcome(scenario, UP)
    assert mini == upstream
    return mini


class State(TypedDict):
    xs: Annotated[list, operator.add]
    n: int


def append(tag: str):
    def node(state):
        return {"xs": [tag]}

    return node


# ---- recursion (spec §2.15) ----------------------------------------------------------------------


@pytest.mark.parametrize("limit", [1, 2, 3, 4])
@pytest.mark.parametrize("length", [1, 2, 3])
def test_recursion_table(length, limit):
    def scenario(L):
        class S(TypedDict):
            n: int
            remaining_steps: L.RemainingSteps
            last: L.IsLastStep

        log = []

        def node(state, config):
            log.append(
                (config["metadata"]["langgraph_step"], state["remaining_steps"], state["last"])
            )
            return {"n": state["n"] + 1}

        graph, prev = L.StateGraph(S), L.START
        for i in range(length):
            graph.add_node(f"n{i}", node)
            graph.add_edge(prev, f"n{i}")
            prev = f"n{i}"
        graph.add_edge(prev, L.END)
        try:
            result = graph.compile().invoke({"n": 0}, {"recursion_limit": limit})
        except L.GraphRecursionError as e:
            result = ("GraphRecursionError", str(e), isinstance(e, RecursionError))
        return log, result

    assert_same(scenario)


@pytest.mark.parametrize("limit", [2, 3, 4, 5, 6, 7])
def test_recursion_in_a_loop_with_a_branch_reading_remaining_steps(limit):
    def scenario(L):
        class S(TypedDict):
            xs: Annotated[list, operator.add]
            remaining_steps: L.RemainingSteps

        def agent(state):
            return {"xs": [("agent", state["remaining_steps"])]}

        def route(state):
            return L.END if state["remaining_steps"] < 2 else "tools"

        graph = L.StateGraph(S).add_node("agent", agent).add_node("tools", append("tool"))
        graph.add_edge(L.START, "agent").add_edge("tools", "agent")
        graph.add_conditional_edges("agent", route, ["tools", L.END])
        try:
            return graph.compile().invoke({"xs": []}, {"recursion_limit": limit})
        except L.GraphRecursionError as e:
            return str(e)

    assert_same(scenario)


def test_default_recursion_limit():
    def scenario(L):
        class S(TypedDict):
            n: int
            remaining_steps: L.RemainingSteps

        seen = []
        graph = L.StateGraph(S).add_node("a", lambda s: seen.append(s["remaining_steps"]))
        graph.add_edge(L.START, "a").compile().invoke({"n": 0})
        return seen

    assert assert_same(scenario) == ("ok", [10006])


# ---- draw_mermaid ---------------------------------------------------------------------------------


def _noop(state):
    return None


def _route(state):
    return "b"


def _route_literal(state) -> Literal["b", "__end__"]:
    return "b"


def _nodes(L, *names):
    graph = L.StateGraph(State)
    for name in names:
        graph.add_node(name, _noop)
    return graph


def _command_node(L):
    def go(state) -> L.Command[Literal["b", "__end__"]]:
        return L.Command(goto="b")

    return go


TOPOLOGIES = {
    "single node": lambda L: _nodes(L, "a").add_edge(L.START, "a"),
    "single node to END": lambda L: _nodes(L, "a").add_edge(L.START, "a").add_edge("a", L.END),
    "chain": lambda L: (
        _nodes(L, "a", "b", "c").add_edge(L.START, "a").add_edge("a", "b").add_edge("b", "c")
    ),
    "conditional, path_map dict": lambda L: (
        _nodes(L, "a", "b", "c")
        .add_edge(L.START, "a")
        .add_conditional_edges("a", _route, {"go b": "b", "see": "c", "end": L.END})
    ),
    "conditional, path_map list": lambda L: (
        _nodes(L, "a", "b", "c")
        .add_edge(L.START, "a")
        .add_conditional_edges("a", _route, ["b", "c", L.END])
    ),
    "conditional, no path_map": lambda L: (
        _nodes(L, "a", "b", "c").add_edge(L.START, "a").add_conditional_edges("a", _route)
    ),
    "conditional, Literal annotation": lambda L: (
        _nodes(L, "a", "b", "c")
        .add_edge(L.START, "a")
        .add_conditional_edges("a", _route_literal)
        .add_edge("b", "c")
    ),
    "agent/tools loop": lambda L: (
        _nodes(L, "agent", "tools")
        .add_edge(L.START, "agent")
        .add_conditional_edges("agent", _route, ["tools", L.END])
        .add_edge("tools", "agent")
    ),
    "Send fan-out": lambda L: (
        _nodes(L, "a", "w", "z")
        .add_edge(L.START, "a")
        .add_conditional_edges("a", lambda s: [L.Send("w", 1)], ["w"])
        .add_edge("w", "z")
        .add_edge("z", L.END)
    ),
    "Send fan-out, no path_map": lambda L: (
        _nodes(L, "a", "w")
        .add_edge(L.START, "a")
        .add_conditional_edges("a", lambda s: [L.Send("w", 1)])
    ),
    "conditional entry point": lambda L: _nodes(L, "a", "b").add_conditional_edges(
        L.START, _route, ["a", "b"]
    ),
    "fan-out from START": lambda L: (
        _nodes(L, "a", "b").add_edge(L.START, "a").add_edge(L.START, "b")
    ),
    "static loop": lambda L: (
        _nodes(L, "a", "b").add_edge(L.START, "a").add_edge("a", "b").add_edge("b", "a")
    ),
    "Command[Literal]": lambda L: (
        L.StateGraph(State)
        .add_node("a", _command_node(L))
        .add_node("b", _noop)
        .add_edge(L.START, "a")
    ),
    "names that need escaping": lambda L: (
        _nodes(L, "my node", "_x_", "a(b)")
        .add_edge(L.START, "my node")
        .add_edge("my node", "_x_")
        .add_edge("_x_", "a(b)")
    ),
    "long edge label": lambda L: (
        _nodes(L, "a", "b", "c")
        .add_edge(L.START, "a")
        .add_conditional_edges(
            "a", _route, {"one two three four five six seven eight nine ten": "b", "c": "c"}
        )
    ),  # fmt: skip
    "two branches on one node": lambda L: (
        _nodes(L, "a", "b", "c")
        .add_edge(L.START, "a")
        .add_conditional_edges("a", _route, ["b"])
        .add_conditional_edges("a", _route_literal)
    ),
}


@pytest.mark.parametrize("topology", list(TOPOLOGIES))
def test_draw_mermaid(topology):
    def scenario(L):
        graph = TOPOLOGIES[topology](L).compile()
        drawing = graph.get_graph()
        return (
            drawing.draw_mermaid(),
            drawing.draw_mermaid(with_styles=False),
            list(drawing.nodes),
            [(e.source, e.target, e.data, e.conditional) for e in drawing.edges],
            list(graph.nodes),
        )

    assert_same(scenario)


def test_draw_mermaid_marks_interrupts_and_node_metadata():
    def scenario(L):
        graph = L.StateGraph(State).add_node("a", _noop, metadata={"kind": "x"})
        graph.add_node("b", _noop).add_edge(L.START, "a").add_edge("a", "b")
        compiled = graph.compile(interrupt_before=["a", "b"], interrupt_after=["a"])
        return compiled.get_graph().draw_mermaid()

    assert_same(scenario)


# ---- builder and run-time errors ------------------------------------------------------------------

ERRORS = {
    "reserved node name": lambda L: L.StateGraph(State).add_node(L.START, _noop),
    "reserved character": lambda L: L.StateGraph(State).add_node("a:b", _noop),
    "duplicate node": lambda L: L.StateGraph(State).add_node("a", _noop).add_node("a", _noop),
    "END as a start": lambda L: L.StateGraph(State).add_edge(L.END, "a"),
    "START as an end": lambda L: L.StateGraph(State).add_edge("a", L.START),
    "duplicate branch": lambda L: (
        _nodes(L, "a").add_conditional_edges("a", _route).add_conditional_edges("a", _route)
    ),
    "no entry point": lambda L: _nodes(L, "a").compile(),
    "unknown source": lambda L: _nodes(L, "a").add_edge(L.START, "a").add_edge("x", "a").compile(),
    "unknown target": lambda L: _nodes(L, "a").add_edge(L.START, "a").add_edge("a", "x").compile(),
    "unknown branch target": lambda L: (
        _nodes(L, "a")
        .add_edge(L.START, "a")
        .add_conditional_edges("a", _route, {"x": "x"})
        .compile()
    ),
    "unknown interrupt node": lambda L: (
        _nodes(L, "a").add_edge(L.START, "a").compile(interrupt_after=["x"])
    ),
    "bad reducer": lambda L: L.StateGraph(TypedDict("S", {"x": Annotated[list, lambda a: a]})),
    "managed value in output schema": lambda L: L.StateGraph(
        State, output_schema=TypedDict("Out", {"r": L.RemainingSteps})
    ),
    "node returns a non-dict": lambda L: (
        L.StateGraph(State).add_node("a", lambda s: 5).add_edge(L.START, "a").compile().invoke({})
    ),
    "input is not a dict": lambda L: _nodes(L, "a").add_edge(L.START, "a").compile().invoke(7),
    "two writes to a plain key": lambda L: (
        L.StateGraph(State)
        .add_node("a", lambda s: {"n": 1})
        .add_node("b", lambda s: {"n": 2})
        .add_edge(L.START, "a")
        .add_edge(L.START, "b")
        .compile()
        .invoke({})
    ),
    "branch answers None": lambda L: (
        _nodes(L, "a")
        .add_edge(L.START, "a")
        .add_conditional_edges("a", lambda s: None)
        .compile()
        .invoke({})
    ),
    "branch answer not in path_map": lambda L: (
        _nodes(L, "a")
        .add_edge(L.START, "a")
        .add_conditional_edges("a", lambda s: "zzz", ["a"])
        .compile()
        .invoke({})
    ),
    "Send to END": lambda L: (
        _nodes(L, "a")
        .add_edge(L.START, "a")
        .add_conditional_edges("a", lambda s: L.Send(L.END, 1))
        .compile()
        .invoke({})
    ),
    "recursion_limit 0": lambda L: (
        _nodes(L, "a").add_edge(L.START, "a").compile().invoke({}, {"recursion_limit": 0})
    ),
    "no checkpointer for get_state": lambda L: (
        _nodes(L, "a")
        .add_edge(L.START, "a")
        .compile()
        .get_state({"configurable": {"thread_id": "1"}})
    ),
    "checkpointer without thread_id": lambda L: (
        _nodes(L, "a").add_edge(L.START, "a").compile(checkpointer=L.InMemorySaver()).invoke({})
    ),
    "no input": lambda L: _nodes(L, "a").add_edge(L.START, "a").compile().invoke(None),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors(case):
    result = assert_same(ERRORS[case])
    assert result[0] == "error"


# ---- running: values, updates, Send, Command, checkpointer -----------------------------------------


def test_values_and_updates_of_a_chain_with_a_silent_node():
    def scenario(L):
        graph = L.StateGraph(State).add_node("a", append("a")).add_node("q", _noop)
        graph.add_node("b", append("b")).add_edge(L.START, "a").add_edge("a", "q")
        graph.add_edge("q", "b").add_edge("b", L.END)
        compiled = graph.compile()
        return (
            list(compiled.stream({"xs": ["in"]}, stream_mode=["values", "updates"])),
            list(compiled.stream({"xs": ["in"]})),  # default mode
            compiled.invoke({"xs": ["in"]}),
            compiled.invoke({"xs": ["in"]}, stream_mode="updates"),
            compiled.invoke({}),  # nothing written: None
        )

    assert_same(scenario)


def test_command_goto_and_update():
    def scenario(L):
        def c1(state) -> L.Command[Literal["c2"]]:
            return L.Command(update={"n": 5}, goto="c2")

        def c2(state):
            return [L.Command(update={"xs": ["x"]}), {"n": state["n"] + 1}]

        def c3(state):
            return [L.Command(update={"xs": [1]}), L.Command(update={"xs": [2]}, goto=L.END)]

        graph = L.StateGraph(State).add_node(c1).add_node(c2).add_node(c3)
        graph.add_edge(L.START, "c1").add_edge("c2", "c3")
        return list(graph.compile().stream({"xs": []}, stream_mode=["updates", "values"]))

    assert_same(scenario)


def test_send_fan_out():
    def scenario(L):
        def fan(state):
            return [L.Send("w", {"i": i}) for i in range(3)] + ["z"]

        def worker(arg, config):
            md = config["metadata"]
            return {"xs": [(arg["i"], md["langgraph_triggers"], md["langgraph_path"])]}

        graph = L.StateGraph(State).add_node("start", _noop).add_node("w", worker)
        graph.add_node("z", append("z")).add_edge(L.START, "start")
        graph.add_conditional_edges("start", fan, ["w", "z"])
        chunks = list(graph.compile().stream({"xs": []}, stream_mode=["updates", "values"]))
        # upstream runs the parallel tasks in a thread pool: compare updates as a multiset
        updates = Counter(repr(c) for mode, c in chunks if mode == "updates")
        return sorted(updates.items()), [c for mode, c in chunks if mode == "values"]

    assert_same(scenario)


def test_a_branch_sees_its_own_write_but_not_a_siblings():
    def scenario(L):
        seen = []

        def route(state):
            seen.append(sorted(state["xs"]))
            return L.END

        graph = L.StateGraph(State).add_node("a", append("a")).add_node("b", append("b"))
        graph.add_edge(L.START, "a").add_edge(L.START, "b").add_conditional_edges("b", route)
        return graph.compile().invoke({"xs": ["in"]}), seen

    assert_same(scenario)


def test_checkpointer_continuation():
    def scenario(L):
        class S(TypedDict):
            xs: Annotated[list, operator.add]
            remaining_steps: L.RemainingSteps

        log = []

        def node(state, config):
            log.append((config["metadata"]["langgraph_step"], state["remaining_steps"]))
            return {"xs": [len(state["xs"])]}

        graph = L.StateGraph(S).add_node("a", node).add_node("b", node)
        graph.add_edge(L.START, "a").add_edge("a", "b")
        compiled = graph.compile(checkpointer=L.InMemorySaver())
        config = {"configurable": {"thread_id": "t"}, "recursion_limit": 6}
        first = compiled.invoke({"xs": ["hi"]}, config)
        second = list(compiled.stream({"xs": ["again"]}, config, stream_mode="values"))
        state = compiled.get_state(config)
        fresh = compiled.invoke({"xs": []}, {"configurable": {"thread_id": "u"}})
        empty = compiled.get_state({"configurable": {"thread_id": "nobody"}})
        return (first, second, log, state.values, state.next, state.metadata, fresh, empty.values)

    assert_same(scenario)


def test_interrupts_and_resume():
    def scenario(L):
        graph = L.StateGraph(State).add_node("a", append("a")).add_node("b", append("b"))
        graph.add_edge(L.START, "a").add_edge("a", "b")
        before = graph.compile(checkpointer=L.InMemorySaver(), interrupt_before=["b"])
        after = graph.compile(checkpointer=L.InMemorySaver(), interrupt_after=["a"])
        config = {"configurable": {"thread_id": "1"}}
        modes = ["updates", "values"]
        return (
            list(before.stream({"xs": []}, config, stream_mode=modes)),
            before.get_state(config).next,
            list(before.stream(None, config, stream_mode=modes)),
            before.get_state(config).next,
            after.invoke({"xs": []}, config),
            after.get_state(config).next,
            after.invoke(None, config),
            # a new input on an interrupted thread drops the pending task
            before.invoke({"xs": ["x"]}, {"configurable": {"thread_id": "2"}}),
            list(before.stream({"xs": ["y"]}, {"configurable": {"thread_id": "2"}})),
            # None on a finished thread: nothing to run, the state comes back
            before.invoke(None, config),
        )

    assert_same(scenario)


def test_pydantic_state():
    def scenario(L):
        class P(BaseModel):
            xs: Annotated[list, operator.add] = []
            n: int = 0
            steps: L.RemainingSteps = 3

        seen = []

        def node(state: P):
            seen.append(repr(state))
            return {"n": state.n + 1}

        graph = L.StateGraph(P).add_node("a", node).add_edge(L.START, "a")
        graph.add_conditional_edges("a", lambda s: L.END if s.n > 1 else "a")
        compiled = graph.compile()
        return (
            compiled.invoke({"xs": [1]}),
            list(compiled.stream(P(xs=[2]), stream_mode=["values", "updates"])),
            seen,
        )

    assert_same(scenario)


# ---- a small tool-calling graph in every stream mode -------------------------------------------------


def tool_calling_graph(L, *, fan_out: bool, script: list):
    """agent (a scripted model) -> tools (runs the calls) -> agent, until no tool call."""

    class MessagesState(TypedDict):
        messages: Annotated[list, L.add_messages]

    def check_weather(location: str) -> str:
        """Get the weather."""
        return f"It's always sunny in {location}"

    model = L.ScriptedChatModel(responses=script).bind_tools([check_weather])

    def agent(state):
        return {"messages": [model.invoke(state["messages"])]}

    def run_call(call):
        return L.ToolMessage(
            check_weather(**call["args"]), name=call["name"], tool_call_id=call["id"]
        )

    def tools(state):
        if fan_out:  # a Send: one call per task
            return {"messages": [run_call(state)]}
        return {"messages": [run_call(c) for c in state["messages"][-1].tool_calls]}

    def tools_condition(state):
        calls = state["messages"][-1].tool_calls
        if not calls:
            return L.END
        return [L.Send("tools", c) for c in calls] if fan_out else "tools"

    graph = L.StateGraph(MessagesState).add_node("agent", agent).add_node("tools", tools)
    graph.add_edge(L.START, "agent").add_edge("tools", "agent")
    graph.add_conditional_edges("agent", tools_condition, ["tools", L.END])
    return graph.compile()


def _script(L, calls: int) -> list:
    tool_calls = [
        {"name": "check_weather", "args": {"location": city}, "id": f"call_{i}"}
        for i, city in enumerate(["sf", "nyc"][:calls])
    ]
    return [
        L.AIMessage("", id="ai-1", tool_calls=tool_calls),
        L.AIMessage("It's sunny.", id="ai-2"),
    ]


def _messages_chunk(chunk):
    message, meta = chunk
    keys = ["langgraph_step", "langgraph_node", "langgraph_triggers", "langgraph_path"]
    return message, {k: meta[k] for k in keys}, meta["langgraph_checkpoint_ns"].split(":")[0]


@pytest.mark.parametrize("fan_out, calls", [(False, 1), (False, 2), (True, 1)])
@pytest.mark.parametrize("mode", ["values", "updates", "messages", "all"])
def test_tool_calling_graph_streams(mode, fan_out, calls):
    def scenario(L):
        graph = tool_calling_graph(L, fan_out=fan_out, script=_script(L, calls))
        inputs = {"messages": [{"role": "user", "content": "weather in sf?", "id": "h-1"}]}
        stream_mode = ["updates", "values", "messages"] if mode == "all" else mode
        chunks = list(graph.stream(inputs, stream_mode=stream_mode))
        if mode == "messages":
            return [_messages_chunk(c) for c in chunks]
        if mode == "all":
            return [(m, _messages_chunk(c) if m == "messages" else c) for m, c in chunks]
        return chunks

    assert_same(scenario)


def test_tool_calling_graph_invoke():
    def scenario(L):
        graph = tool_calling_graph(L, fan_out=True, script=_script(L, 1))
        return graph.invoke({"messages": [("user", "weather in sf?")]})

    assert_same(scenario)


MESSAGE_NODES = {
    "returns the history plus a tool message": lambda L: (
        lambda state: {"messages": [*state["messages"], L.ToolMessage("42", tool_call_id="c1")]}
    ),
    "model tagged nostream": lambda L: (
        lambda state: (
            L.FakeToolCallingModel().with_config(tags=["nostream"]).invoke(state["messages"])
            and None
        )
    ),
    "model with a user tag": lambda L: (
        lambda state: {
            "messages": [L.FakeToolCallingModel().with_config(tags=["x"]).invoke(state["messages"])]
        }
    ),
    "messages inside Commands": lambda L: (
        lambda state: [
            L.Command(update={"messages": [L.AIMessage("a", id="a")]}),
            {"messages": [L.AIMessage("b", id="b")]},
        ]
    ),
}


@pytest.mark.parametrize("case", list(MESSAGE_NODES))
def test_messages_mode_sources_and_dedupe(case):
    def scenario(L):
        class MessagesState(TypedDict):
            messages: Annotated[list, L.add_messages]

        graph = L.StateGraph(MessagesState).add_node("agent", MESSAGE_NODES[case](L))
        graph = graph.add_edge(L.START, "agent").compile()
        inputs = {"messages": [L.HumanMessage("hi", id="h-1")]}
        return [
            (message, meta.get("tags"), meta["langgraph_node"])
            for message, meta in graph.stream(inputs, {"configurable": {"thread_id": "t"}}, stream_mode="messages")
        ]  # fmt: skip

    assert_same(scenario)
