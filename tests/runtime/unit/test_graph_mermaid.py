"""get_graph().draw_mermaid(): the exact text upstream prints (langchain-core 1.8.3 /
langgraph 1.2.24) for a few topologies; tests/runtime/differential/test_graph_diff.py checks many more."""

from typing import Literal

from typing_extensions import TypedDict

from miniagent.constants import END, START
from miniagent.graph import StateGraph
from miniagent.graph.mermaid import Edge, Graph, _escape_label, _to_safe_id, draw_mermaid
from miniagent.runnables import RunnableLambda
from miniagent.types import Send

HEADER = "---\nconfig:\n  flowchart:\n    curve: linear\n---\ngraph TD;\n"
STYLES = (
    "\tclassDef default fill:#f2f0ff,line-height:1.2\n"
    "\tclassDef first fill-opacity:0\n"
    "\tclassDef last fill:#bfb6fc\n"
)


class State(TypedDict):
    n: int


def noop(state):
    return None


def route(state) -> Literal["tools", "__end__"]:
    return END


def test_agent_tools_loop():
    graph = StateGraph(State).add_node("agent", noop).add_node("tools", noop)
    graph.add_edge(START, "agent").add_conditional_edges("agent", route).add_edge("tools", "agent")
    assert graph.compile().get_graph().draw_mermaid() == (
        HEADER + "\t__start__([<p>__start__</p>]):::first\n"
        "\tagent(agent)\n"
        "\ttools(tools)\n"
        "\t__end__([<p>__end__</p>]):::last\n"
        "\t__start__ --> agent;\n"
        "\tagent -.-> __end__;\n"
        "\tagent -.-> tools;\n"
        "\ttools --> agent;\n" + STYLES
    )


def test_a_labelled_path_map_and_a_node_that_leads_nowhere():
    graph = StateGraph(State).add_node("a", noop).add_node("b", noop)
    graph.add_edge(START, "a").add_conditional_edges("a", noop, {"go on": "b", "stop": END})
    assert graph.compile().get_graph().draw_mermaid(with_styles=False) == (
        "graph TD;\n"
        "\t__start__ --> a;\n"
        "\ta -. &nbsp;stop&nbsp; .-> __end__;\n"
        "\ta -. &nbsp;go on&nbsp; .-> b;\n"
        "\tb --> __end__;\n"
    )


def test_a_branch_without_declared_targets_draws_no_edge():
    graph = StateGraph(State).add_node("a", noop).add_node("w", noop).add_edge(START, "a")
    graph.add_conditional_edges("a", lambda s: [Send("w", 1)])
    drawing = graph.compile().get_graph()
    assert [(e.source, e.target, e.conditional) for e in drawing.edges] == [
        (START, "a", False),
        ("a", END, False),
    ]
    assert drawing.first_node() is None  # "w" has no edge either: two candidates
    assert "\t__start__(<p>__start__</p>)\n" in drawing.draw_mermaid()


def test_a_static_loop_ends_with_a_conditional_edge_from_its_last_node():
    graph = StateGraph(State).add_node("a", noop).add_node("b", noop)
    graph.add_edge(START, "a").add_edge("a", "b").add_edge("b", "a")
    edges = graph.compile().get_graph().edges
    assert edges[-1] == Edge("b", END, None, True)


def test_tool_names_and_interrupts_are_shown_under_the_node():
    tool_node = RunnableLambda(noop)  # a ToolNode is a Runnable with ``tools_by_name``
    tool_node.tools_by_name = {"check_weather": object(), "search": object()}
    graph = StateGraph(State).add_node("tools", tool_node).add_edge(START, "tools")
    text = graph.compile(interrupt_before=["tools"]).get_graph().draw_mermaid()
    assert (
        "\ttools(tools<hr/><small><em>__interrupt = before\n"
        "__tools = check_weather, search</em></small>)\n"
    ) in text


def test_ids_and_labels_are_escaped():
    assert _to_safe_id("my node") == "my\\20node"
    assert _to_safe_id("a(b)-c_d") == "a\\28b\\29-c_d"
    assert _escape_label('a [b] #1 "c"') == "a #91;b#93; #35;1 #quot;c#quot;"


def test_long_labels_wrap_every_nine_words():
    graph = Graph()
    a, b = graph.add_node(None, "a"), graph.add_node(None, "b")
    graph.add_edge(a, b, " ".join(str(i) for i in range(12)), conditional=False)
    text = draw_mermaid(graph.nodes, graph.edges, with_styles=False)
    assert text == "graph TD;\n\ta -- &nbsp;0 1 2 3 4 5 6 7 8&nbsp<br>&nbsp9 10 11&nbsp; --> b;\n"
