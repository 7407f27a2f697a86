"""``version="v2"``: the stream-output format of ``Pregel.stream`` / ``astream`` / ``invoke`` /
``ainvoke`` (langgraph/pregel/main.py ``_output``, l.4398; ``GraphOutput``, types.py:381),
against the pinned langgraph, on ``create_react_agent``, ``create_agent`` and small state graphs.

v2 makes every item ``{"type": mode, "ns": (), "data": payload}`` (a ``values`` item also has
``"interrupts"``, and its state in the output schema's class when that is pydantic or a
dataclass), whether ``stream_mode`` is one mode or a list; ``invoke``/``ainvoke`` with
``stream_mode="values"`` return a ``GraphOutput(value, interrupts)``. Any other version string
is v1, as upstream: it only tests ``version == "v2"``. This ``version`` is not
``create_react_agent``'s ``version`` (how tool calls are dispatched, Day 11).
"""

from __future__ import annotations

import asyncio
import dataclasses
import warnings
from typing import Any

import pytest
from pydantic import BaseModel
from typing_extensions import TypedDict

pytest.importorskip("langgraph")

from sides import side  # noqa: E402

from miniagent.testing import normalize_ids  # noqa: E402

from .agent_helpers import script, tool_call, weather_tool  # noqa: E402

MODES = ("values", "updates", "messages", "custom")
V2_KEYS = (["type", "ns", "data"], ["type", "ns", "data", "interrupts"])


# ---- making two libraries' items comparable ----------------------------------------------


def plain(obj: Any) -> Any:
    """Messages as small dicts (with their class name), models and dataclasses as their class
    name and fields, containers item by item."""
    if hasattr(obj, "content") and hasattr(obj, "id") and hasattr(obj, "type"):
        entry = {"class": type(obj).__name__, "content": obj.content, "id": obj.id}
        if getattr(obj, "tool_calls", None):
            entry["tool_calls"] = [(c["name"], c["args"], c["id"]) for c in obj.tool_calls]
        return entry
    if isinstance(obj, BaseModel) or dataclasses.is_dataclass(obj):
        names = type(obj).model_fields if isinstance(obj, BaseModel) else obj.__dataclass_fields__
        return {"class": type(obj).__name__, **{k: plain(getattr(obj, k)) for k in names}}
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(plain(v) for v in obj)
    return obj


def payload(mode: str, data: Any) -> Any:
    if mode == "messages":  # (message, metadata): the metadata's own keys differ by library
        message, meta = data
        return plain(message), meta["langgraph_node"], meta["langgraph_step"]
    return plain(data)


def view(item: Any, stream_mode: Any) -> Any:
    """One streamed item: its container's shape, and its payload made comparable."""
    if isinstance(item, dict) and list(item) in V2_KEYS and item.get("type") in MODES:
        return ("v2", list(item), {**item, "data": payload(item["type"], item["data"])})
    if isinstance(stream_mode, list):
        mode, data = item
        return ("pair", mode, payload(mode, data))
    return ("bare", payload(stream_mode, item))


def result_view(result: Any, stream_mode: Any) -> Any:
    """What ``invoke``/``ainvoke`` returned."""
    if type(result).__name__ == "GraphOutput":
        return ("GraphOutput", plain(result.value), result.interrupts)
    if isinstance(result, list):
        return ("list", [view(item, stream_mode) for item in result])
    return ("state", plain(result))


# ---- the graphs, built the same way on either side ---------------------------------------


def react_agent(which: str, pydantic_state: bool = False) -> tuple[Any, Any]:
    lib = side(which)

    @lib.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    call = {"name": "add", "args": {"a": 2, "b": 3}, "id": "c1"}
    model = lib.ScriptedChatModel(
        [lib.AIMessage("", id="r1", tool_calls=[call]), lib.AIMessage("It is 5", id="r2")]
    )
    state = {"state_schema": lib.AgentStatePydantic} if pydantic_state else {}
    agent = lib.create_react_agent(model, [add], **state)
    return agent, {"messages": [lib.HumanMessage("2 + 3?", id="h1")]}


def new_agent(which: str) -> tuple[Any, Any]:
    ns = side(which)
    model = script(ns, [tool_call()], "Sunny.")
    agent = ns.create_agent(model, tools=[weather_tool(ns)])
    return agent, {"messages": [ns.m.HumanMessage("weather in sf?", id="h1")]}


class Counter(TypedDict):
    n: int


class PydanticCounter(BaseModel):
    n: int


@dataclasses.dataclass
class DataclassCounter:
    n: int


def counter_graph(which: str, schema: Any = Counter, output_schema: Any = None):
    lib = side(which)

    def work(state, runtime):
        n = state["n"] if isinstance(state, dict) else state.n
        runtime.stream_writer({"progress": n})
        return {"n": n + 1}

    graph = lib.StateGraph(schema, output_schema=output_schema)
    graph.add_node("work", work)
    graph.add_edge(lib.START, "work")
    graph.add_edge("work", lib.END)
    return graph.compile(), {"n": 1}


GRAPHS = {
    "create_react_agent": react_agent,
    "create_react_agent, pydantic state": lambda which: react_agent(which, pydantic_state=True),
    "create_agent": new_agent,
    "counter": counter_graph,
    "pydantic state": lambda which: counter_graph(which, PydanticCounter),
    "dataclass state": lambda which: counter_graph(which, DataclassCounter),
    "pydantic output schema": lambda which: counter_graph(which, Counter, PydanticCounter),
}

STREAM_MODES = [
    "values",
    "updates",
    "messages",
    "custom",
    ["updates", "values"],
    ["messages", "updates"],  # seed 002's pair
    ["updates", "custom", "values"],
    ("updates", "values"),  # a tuple is no list: v1 hands out bare items (main.py:4452)
]
VERSIONS = ["v1", "v2", "v3", None]  # None: not passed; "v3" is no stream format: v1


def kwargs_of(stream_mode: Any, version: Any) -> dict[str, Any]:
    kwargs = {"stream_mode": stream_mode}
    if version is not None:
        kwargs["version"] = version
    return kwargs


def both(run: Any, *args: Any) -> Any:
    """``run(which, ...)`` on each side, ids normalised; assert equal; return miniagent's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        got = {which: normalize_ids(run(which, *args)) for which in ("mini", "upstream")}
    assert got["mini"] == got["upstream"]
    return got["mini"]


def streamed(which, graph, stream_mode, version):
    app, inputs = GRAPHS[graph](which)
    items = app.stream(inputs, **kwargs_of(stream_mode, version))
    return [view(item, stream_mode) for item in items]


def astreamed(which, graph, stream_mode, version):
    app, inputs = GRAPHS[graph](which)

    async def run():
        return [item async for item in app.astream(inputs, **kwargs_of(stream_mode, version))]

    return [view(item, stream_mode) for item in asyncio.run(run())]


def invoked(which, graph, stream_mode, version, use_async=False):
    app, inputs = GRAPHS[graph](which)
    kwargs = kwargs_of(stream_mode, version)
    if use_async:
        return result_view(asyncio.run(app.ainvoke(inputs, **kwargs)), stream_mode)
    return result_view(app.invoke(inputs, **kwargs), stream_mode)


# ---- the tests -------------------------------------------------------------------------------


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("stream_mode", STREAM_MODES, ids=str)
@pytest.mark.parametrize("graph", GRAPHS)
def test_stream_items_have_upstreams_shape(graph, stream_mode, version):
    items = both(streamed, graph, stream_mode, version)
    if graph.startswith("create_") and stream_mode != "custom":
        assert items  # the comparison above was not of two empty streams
    shapes = {item[0] for item in items}
    if version == "v2":
        assert shapes <= {"v2"}
    elif isinstance(stream_mode, list):
        assert shapes <= {"pair"}  # v1: a pair per item only for a list of modes
    else:
        assert shapes <= {"bare"}


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("stream_mode", ["values", ["messages", "updates"]], ids=str)
@pytest.mark.parametrize("graph", ["create_react_agent", "create_agent", "pydantic state"])
def test_astream_items_have_upstreams_shape(graph, stream_mode, version):
    assert both(astreamed, graph, stream_mode, version) == both(
        streamed, graph, stream_mode, version
    )


@pytest.mark.parametrize("use_async", [False, True], ids=["invoke", "ainvoke"])
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("stream_mode", ["values", "updates", ["updates", "values"]], ids=str)
@pytest.mark.parametrize("graph", GRAPHS)
def test_invoke_returns_upstreams_shape(graph, stream_mode, version, use_async):
    kind = both(invoked, graph, stream_mode, version, use_async)[0]
    if stream_mode == "values":
        assert kind == ("GraphOutput" if version == "v2" else "state")
    else:
        assert kind == "list"


def test_a_v2_values_item_holds_the_output_schemas_instance():
    """Not only the same view: miniagent's ``data`` is a ``PydanticCounter`` (upstream's
    ``_output_mapper``, graph/state.py:1378); v1 keeps the dict."""
    app, inputs = counter_graph("mini", Counter, PydanticCounter)
    last = list(app.stream(inputs, stream_mode="values", version="v2"))[-1]
    assert last == {"type": "values", "ns": (), "data": PydanticCounter(n=2), "interrupts": ()}
    assert list(app.stream(inputs, stream_mode="values"))[-1] == {"n": 2}
    result = app.invoke(inputs, version="v2")
    assert (result.value, result.interrupts) == (PydanticCounter(n=2), ())


def test_graph_output_item_access_is_deprecated_on_both_sides():
    for which in ("mini", "upstream"):
        app, inputs = react_agent(which)
        result = app.invoke(inputs, version="v2")
        with pytest.warns(DeprecationWarning, match="Accessing GraphOutput via `result"):
            assert result["messages"][-1].content == "It is 5"
        with pytest.warns(DeprecationWarning):
            assert "messages" in result


def test_subgraphs_true_is_refused_not_ignored():
    app, inputs = counter_graph("mini")
    with pytest.raises(NotImplementedError, match="subgraphs=True"):
        list(app.stream(inputs, subgraphs=True))
