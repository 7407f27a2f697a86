"""``version="v2"`` on miniagent alone (the differential twin, against the pinned langgraph, is
``tests/runtime/differential/test_stream_version_diff.py``)."""

from __future__ import annotations

import asyncio
import dataclasses
import re

import pytest
from typing_extensions import TypedDict

from miniagent.graph import END, START, StateGraph
from miniagent.types import GraphOutput


class Counter(TypedDict):
    n: int


@dataclasses.dataclass
class Out:
    n: int


def counter(output_schema=None):
    def work(state, runtime):
        runtime.stream_writer("working")
        return {"n": state["n"] + 1}

    graph = StateGraph(Counter, output_schema=output_schema)
    graph.add_node("work", work)
    graph.add_edge(START, "work")
    graph.add_edge("work", END)
    return graph.compile()


def test_v2_wraps_every_item_whether_one_mode_or_a_list():
    app = counter()
    assert list(app.stream({"n": 1}, stream_mode="updates", version="v2")) == [
        {"type": "updates", "ns": (), "data": {"work": {"n": 2}}}
    ]
    assert list(app.stream({"n": 1}, stream_mode=["custom", "values"], version="v2")) == [
        {"type": "values", "ns": (), "data": {"n": 1}, "interrupts": ()},
        {"type": "custom", "ns": (), "data": "working"},
        {"type": "values", "ns": (), "data": {"n": 2}, "interrupts": ()},
    ]


def test_v1_pairs_only_for_a_list_and_any_other_version_is_v1():
    app = counter()
    assert list(app.stream({"n": 1}, stream_mode=["updates"])) == [("updates", {"work": {"n": 2}})]
    for version in ("v1", "v3", "V2"):
        assert list(app.stream({"n": 1}, stream_mode="updates", version=version)) == [
            {"work": {"n": 2}}
        ]


def test_invoke_and_ainvoke_with_v2():
    app = counter(output_schema=Out)
    assert app.invoke({"n": 1}) == {"n": 2}
    assert app.invoke({"n": 1}, version="v2") == GraphOutput(Out(n=2), ())
    assert asyncio.run(app.ainvoke({"n": 1}, version="v2")) == GraphOutput(Out(n=2), ())
    assert app.invoke({"n": 1}, stream_mode=["updates"]) == [("updates", {"work": {"n": 2}})]
    assert app.invoke({"n": 1}, stream_mode="updates", version="v2") == [
        {"type": "updates", "ns": (), "data": {"work": {"n": 2}}}
    ]


def test_graph_output_keeps_old_item_access_with_a_warning():
    result = counter().invoke({"n": 1}, version="v2")
    with pytest.warns(DeprecationWarning):
        assert result["n"] == 2
    with pytest.warns(DeprecationWarning):
        assert result["__interrupt__"] == ()
    with pytest.warns(DeprecationWarning):
        assert "n" in result


@pytest.mark.parametrize(
    "option",
    [{"subgraphs": True}, {"print_mode": "updates"}, {"output_keys": ["n"]}, {"debug": True}],
)
def test_what_the_miniature_does_not_implement_is_refused_not_ignored(option):
    ((name, value),) = option.items()
    with pytest.raises(NotImplementedError, match=re.escape(f"{name}={value!r}")):
        counter().invoke({"n": 1}, **option)
    with pytest.raises(NotImplementedError, match=re.escape(f"{name}={value!r}")):
        list(counter().stream({"n": 1}, **option))


def test_a_graph_compiled_with_debug_is_refused_too():
    graph = StateGraph(Counter)
    graph.add_node("work", lambda state: {"n": state["n"] + 1})
    graph.add_edge(START, "work")
    with pytest.raises(NotImplementedError, match="debug=True"):
        graph.compile(debug=True).invoke({"n": 1})
    assert graph.compile(debug=False).invoke({"n": 1}) == {"n": 2}
