"""StateGraph as a builder: schemas -> channels, add_node / add_edge / add_conditional_edges,
compile-time validation. Every error text is upstream's (langgraph 1.2.24, graph/state.py)."""

import operator
from typing import Annotated, Literal, Optional, Sequence

import pytest
from pydantic import BaseModel
from typing_extensions import NotRequired, TypedDict

from miniagent.constants import END, START
from miniagent.graph import CompiledStateGraph, StateGraph
from miniagent.graph.pregel import MISSING
from miniagent.graph.state import BinaryOperatorAggregate, LastValue
from miniagent.managed import IsLastStepManager, RemainingSteps, RemainingStepsManager
from miniagent.runnables import RunnableLambda
from miniagent.types import Command


class State(TypedDict):
    xs: Annotated[list, operator.add]
    n: int


def node(state: State) -> dict:
    return {"n": 1}


def other(state):
    return None


# ---- schemas -> channels ---------------------------------------------------------------------


def test_channels_from_a_typed_dict():
    class S(TypedDict):
        a: Annotated[Sequence[int], operator.add]
        b: Annotated[NotRequired[int], operator.add]
        c: NotRequired[RemainingSteps]
        d: Optional[int]
        e: Annotated[Optional[list], operator.add]

    graph = StateGraph(S)
    assert set(graph.channels) == {"a", "b", "d", "e"}
    assert graph.managed == {"c": RemainingStepsManager}
    assert isinstance(graph.channels["a"], BinaryOperatorAggregate)
    assert isinstance(graph.channels["d"], LastValue)
    # a reducer key starts at typ() when that can be built (Sequence -> list)
    assert graph.channels["a"].initial() == []
    assert graph.channels["b"].initial() == 0
    assert graph.channels["d"].initial() is MISSING
    assert graph.channels["e"].initial() is MISSING


def test_channels_from_a_pydantic_model():
    class P(BaseModel):
        xs: Annotated[list, operator.add] = []
        n: int = 0

    graph = StateGraph(P)
    assert list(graph.channels) == ["xs", "n"]
    assert graph.managed == {}


def test_a_reducer_must_take_two_arguments():
    def bad(a):
        return a

    class S(TypedDict):
        xs: Annotated[list, bad]

    with pytest.raises(ValueError) as exc:
        StateGraph(S)
    assert str(exc.value) == "Invalid reducer signature. Expected (a, b) -> c. Got (a)"


def test_managed_values_are_not_allowed_in_input_or_output_schemas():
    class Out(TypedDict):
        n: int
        steps: RemainingSteps

    with pytest.raises(ValueError) as exc:
        StateGraph(State, output_schema=Out)
    assert str(exc.value) == (
        "Invalid managed channels detected in Out: steps. "
        "Managed channels are not permitted in Input/Output schema."
    )


def test_a_key_cannot_change_its_reducer():
    class Node(TypedDict):
        n: Annotated[int, operator.add]

    graph = StateGraph(State)
    with pytest.raises(ValueError) as exc:
        graph.add_node("a", node, input_schema=Node)
    assert str(exc.value) == "Channel 'n' already exists with a different type"


def test_managed_values_are_found_inside_annotated_and_not_required():
    class S(TypedDict):
        remaining: NotRequired[RemainingSteps]
        last: Annotated[bool, IsLastStepManager]

    assert StateGraph(S).managed == {"remaining": RemainingStepsManager, "last": IsLastStepManager}


# ---- add_node ----------------------------------------------------------------------------------


def test_add_node_takes_the_name_from_the_function_or_the_runnable():
    graph = StateGraph(State).add_node(node).add_node(RunnableLambda(other, name="named"))
    assert list(graph.nodes) == ["node", "named"]


@pytest.mark.parametrize(
    "name, message",
    [
        (START, "Node `__start__` is reserved."),
        (END, "Node `__end__` is reserved."),
        ("a|b", "'|' is a reserved character and is not allowed in the node names."),
        ("a:b", "':' is a reserved character and is not allowed in the node names."),
    ],
)
def test_add_node_rejects_reserved_names(name, message):
    with pytest.raises(ValueError) as exc:
        StateGraph(State).add_node(name, node)
    assert str(exc.value) == message


def test_add_node_rejects_a_duplicate():
    graph = StateGraph(State).add_node("a", node)
    with pytest.raises(ValueError) as exc:
        graph.add_node("a", other)
    assert str(exc.value) == "Node `a` already present."


def test_add_node_without_an_action_is_an_error():
    with pytest.raises(RuntimeError):
        StateGraph(State).add_node("a")


def test_add_node_infers_the_input_schema_from_the_first_annotation():
    class Narrow(TypedDict):
        n: int

    def narrow(state: Narrow) -> dict:
        return {}

    graph = StateGraph(State).add_node(narrow).add_node(other)
    assert graph.nodes["narrow"].input_schema is Narrow
    assert graph.nodes["other"].input_schema is State


def test_add_node_reads_command_destinations_from_the_return_annotation():
    def go(state) -> Command[Literal["a", "b"]]:
        return Command(goto="a")

    graph = StateGraph(State).add_node(go).add_node("x", other, destinations={"a": "to a"})
    assert graph.nodes["go"].ends == ("a", "b")
    assert graph.nodes["x"].ends == {"a": "to a"}


# ---- edges --------------------------------------------------------------------------------------


def test_add_edge_errors():
    graph = StateGraph(State).add_node("a", node)
    with pytest.raises(ValueError) as exc:
        graph.add_edge(END, "a")
    assert str(exc.value) == "END cannot be a start node"
    with pytest.raises(ValueError) as exc:
        graph.add_edge("a", START)
    assert str(exc.value) == "START cannot be an end node"


def test_set_entry_and_finish_point_are_edges():
    graph = StateGraph(State).add_node("a", node).set_entry_point("a").set_finish_point("a")
    assert graph.edges == {(START, "a"), ("a", END)}


def test_conditional_edges_path_map_forms():
    def route(state) -> Literal["a", "__end__"]:
        return "a"

    graph = StateGraph(State).add_node("a", node)
    graph.add_conditional_edges("a", route)
    graph.add_conditional_edges("a", lambda s: "a", ["a", END])
    graph.add_conditional_edges(START, other, {"yes": "a", "no": END})
    assert graph.branches["a"]["route"].ends == {"a": "a", "__end__": "__end__"}
    assert graph.branches["a"]["condition"].ends == {"a": "a", END: END}  # a lambda's name
    assert graph.branches[START]["other"].ends == {"yes": "a", "no": END}


def test_conditional_edges_without_path_map_or_annotation_have_no_ends():
    graph = StateGraph(State).add_node("a", node).add_conditional_edges("a", other)
    assert graph.branches["a"]["other"].ends is None


def test_a_branch_name_is_unique_per_node():
    graph = StateGraph(State).add_node("a", node).add_conditional_edges("a", lambda s: "a")
    with pytest.raises(ValueError) as exc:
        graph.add_conditional_edges("a", lambda s: END)
    assert str(exc.value) == "Branch with name `None` already exists for node `a`"
    graph.add_conditional_edges("a", other)
    with pytest.raises(ValueError) as exc:
        graph.add_conditional_edges("a", other)
    assert str(exc.value) == "Branch with name `other` already exists for node `a`"


# ---- compile / validate -------------------------------------------------------------------------


def test_compile_needs_an_entry_point():
    with pytest.raises(ValueError) as exc:
        StateGraph(State).add_node("a", node).compile()
    assert str(exc.value) == (
        "Graph must have an entrypoint: add at least one edge from START to another node"
    )


def test_compile_rejects_an_edge_from_an_unknown_node():
    graph = StateGraph(State).add_node("a", node).add_edge(START, "a").add_edge("x", "a")
    with pytest.raises(ValueError) as exc:
        graph.compile()
    assert str(exc.value) == "Found edge starting at unknown node 'x'"


def test_compile_rejects_an_edge_to_an_unknown_node():
    graph = StateGraph(State).add_node("a", node).add_edge(START, "a").add_edge("a", "x")
    with pytest.raises(ValueError) as exc:
        graph.compile()
    assert str(exc.value) == "Found edge ending at unknown node `x`"


def test_compile_rejects_an_unknown_branch_target():
    graph = StateGraph(State).add_node("a", node).add_edge(START, "a")
    graph.add_conditional_edges("a", other, {"go": "x"})
    with pytest.raises(ValueError) as exc:
        graph.compile()
    assert str(exc.value) == "At 'a' node, 'other' branch found unknown target 'x'"


def test_compile_rejects_an_unknown_interrupt_node():
    graph = StateGraph(State).add_node("a", node).add_edge(START, "a")
    with pytest.raises(ValueError) as exc:
        graph.compile(interrupt_before=["b"])
    assert str(exc.value) == "Interrupt node `b` not found"


def test_compiled_graph_attributes():
    graph = StateGraph(State).add_node("a", node).add_edge(START, "a")
    compiled = graph.compile()
    assert isinstance(compiled, CompiledStateGraph)
    assert compiled.name == "LangGraph"
    assert graph.compile(name="agent").name == "agent"
    assert list(compiled.nodes) == [START, "a"]
    assert compiled.nodes["a"].invoke({"xs": [], "n": 0}) == {"n": 1}
    assert compiled.builder is graph
    assert compiled.stream_mode == "updates"
