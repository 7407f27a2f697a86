"""Running a compiled graph: super-steps, reducers, Send, Command, stream modes, recursion
limit, managed values, checkpointer, interrupts, pydantic states, async. Expected values are
upstream's behaviour (langgraph 1.2.24), checked against it in tests/runtime/differential."""

import asyncio
import logging
import operator
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ValidationError
from typing_extensions import TypedDict

from miniagent.checkpoint import InMemorySaver, MemorySaver
from miniagent.constants import END, START
from miniagent.errors import EmptyInputError, GraphRecursionError, InvalidUpdateError
from miniagent.graph import StateGraph
from miniagent.graph.pregel import DEFAULT_RECURSION_LIMIT
from miniagent.managed import IsLastStep, RemainingSteps
from miniagent.runtime import Runtime
from miniagent.types import Command, Send

RECURSION_TEXT = (
    "Recursion limit of {} reached without hitting a stop condition. You can increase the "
    "limit by setting the `recursion_limit` config key.\nFor troubleshooting, visit: "
    "https://docs.langchain.com/oss/python/langgraph/errors/GRAPH_RECURSION_LIMIT"
)


class State(TypedDict):
    xs: Annotated[list, operator.add]
    n: int


class Counted(TypedDict):
    n: int
    remaining_steps: RemainingSteps
    last: IsLastStep


def append(tag: str):
    def node(state: State) -> dict:
        return {"xs": [tag]}

    return node


def chain(*names: str, state=State, action=append):
    graph = StateGraph(state)
    prev = START
    for name in names:
        graph.add_node(name, action(name))
        graph.add_edge(prev, name)
        prev = name
    return graph.add_edge(prev, END)


# ---- super-steps and reducers ------------------------------------------------------------------


def test_invoke_applies_the_input_and_each_update_through_the_reducers():
    assert chain("a", "b").compile().invoke({"xs": ["in"], "n": 1}) == {
        "xs": ["in", "a", "b"],
        "n": 1,
    }


def test_invoke_returns_none_when_no_step_wrote_a_state_key():
    graph = chain("a", action=lambda name: lambda state: None).compile()
    assert graph.invoke({}) is None
    assert graph.invoke({"not a key": 1}) is None


def test_a_reducer_key_is_present_from_the_start():
    graph = chain("a", action=lambda name: lambda state: {"n": len(state["xs"])}).compile()
    assert graph.invoke({"n": 5}) == {"xs": [], "n": 0}


def test_a_node_sees_the_state_before_its_super_step():
    seen = []

    def record(name):
        def node(state):
            seen.append((name, list(state["xs"])))
            return {"xs": [name]}

        return node

    graph = StateGraph(State)
    for name in "abc":
        graph.add_node(name, record(name))
    graph.add_edge(START, "a").add_edge("a", "b").add_edge("a", "c")
    assert graph.compile().invoke({"xs": []}) == {"xs": ["a", "b", "c"]}
    # b and c run in the same super-step: neither sees the other's write
    assert seen == [("a", []), ("b", ["a"]), ("c", ["a"])]


def test_two_writes_to_a_plain_key_in_one_step_are_an_error():
    graph = StateGraph(State)
    graph.add_node("a", lambda s: {"n": 1}).add_node("b", lambda s: {"n": 2})
    graph.add_edge(START, "a").add_edge(START, "b")
    with pytest.raises(InvalidUpdateError) as exc:
        graph.compile().invoke({})
    assert str(exc.value) == (
        "At key 'n': Can receive only one value per step. Use an Annotated key to handle "
        "multiple values.\nFor troubleshooting, visit: "
        "https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CONCURRENT_GRAPH_UPDATE"
    )


@pytest.mark.parametrize("returned", [5, "text", ["a", "b"]])
def test_a_node_must_return_a_dict(returned):
    graph = chain("a", action=lambda name: lambda state: returned).compile()
    with pytest.raises(InvalidUpdateError) as exc:
        graph.invoke({})
    assert str(exc.value) == (
        f"Expected dict, got {returned}\nFor troubleshooting, visit: "
        "https://docs.langchain.com/oss/python/langgraph/errors/INVALID_GRAPH_NODE_RETURN_VALUE"
    )


def test_the_input_must_be_a_dict_too():
    with pytest.raises(InvalidUpdateError, match="^Expected dict, got 5\n"):
        chain("a").compile().invoke(5)


def test_unknown_keys_in_an_update_are_dropped():
    graph = chain("a", action=lambda name: lambda state: {"n": 2, "zzz": 3}).compile()
    assert graph.invoke({}) == {"xs": [], "n": 2}


def test_input_and_output_schemas_filter_keys():
    class In(TypedDict):
        n: int

    class Out(TypedDict):
        xs: list

    graph = StateGraph(State, input_schema=In, output_schema=Out)
    graph.add_node("a", lambda s: {"xs": [s["n"]]}).add_edge(START, "a")
    assert graph.compile().invoke({"n": 3, "xs": ["ignored"]}) == {"xs": [3]}


def test_a_node_with_an_input_schema_sees_only_its_keys():
    class Narrow(TypedDict):
        n: int

    seen = []
    graph = StateGraph(State)
    graph.add_node("a", lambda s: seen.append(s), input_schema=Narrow).add_edge(START, "a")
    graph.compile().invoke({"xs": [1], "n": 2})
    assert seen == [{"n": 2}]


# ---- conditional edges, Send, Command ------------------------------------------------------------


def loop_graph(limit_messages: int):
    def route(state) -> str:
        return "a" if len(state["xs"]) < limit_messages else END

    graph = StateGraph(State)
    graph.add_node("a", append("a")).add_edge(START, "a")
    graph.add_conditional_edges("a", route)
    return graph.compile()


def test_a_conditional_edge_loops_until_it_returns_end():
    assert loop_graph(4).invoke({"xs": []}) == {"xs": ["a", "a", "a", "a"]}


def test_a_conditional_edge_sees_its_own_node_write():
    seen = []

    def route(state):
        seen.append(list(state["xs"]))
        return END

    graph = StateGraph(State).add_node("a", append("a")).add_edge(START, "a")
    graph.add_conditional_edges("a", route)
    graph.compile().invoke({"xs": ["in"]})
    assert seen == [["in", "a"]]


def test_a_conditional_edge_does_not_see_a_sibling_write():
    seen = []

    def route(state):
        seen.append(sorted(state["xs"]))
        return END

    graph = StateGraph(State)
    graph.add_node("a", append("a")).add_node("b", append("b"))
    graph.add_edge(START, "a").add_edge(START, "b").add_conditional_edges("b", route)
    assert graph.compile().invoke({"xs": []}) == {"xs": ["a", "b"]}
    assert seen == [["b"]]


def test_path_map_dict_and_list():
    graph = StateGraph(State).add_node("a", append("a")).add_node("b", append("b"))
    graph.add_edge(START, "a").add_conditional_edges("a", lambda s: "go", {"go": "b"})
    assert graph.compile().invoke({"xs": []}) == {"xs": ["a", "b"]}
    graph = StateGraph(State).add_node("a", append("a")).add_node("b", append("b"))
    graph.add_edge(START, "a").add_conditional_edges("a", lambda s: ["b", END], ["b", END])
    assert graph.compile().invoke({"xs": []}) == {"xs": ["a", "b"]}


def test_an_answer_missing_from_the_path_map_is_a_key_error():
    graph = StateGraph(State).add_node("a", append("a")).add_edge(START, "a")
    graph.add_conditional_edges("a", lambda s: "zzz", ["a"])
    with pytest.raises(KeyError):
        graph.compile().invoke({})


def test_a_branch_must_name_a_destination():
    graph = StateGraph(State).add_node("a", append("a")).add_edge(START, "a")
    graph.add_conditional_edges("a", lambda s: None)
    with pytest.raises(ValueError, match="^Branch did not return a valid destination$"):
        graph.compile().invoke({})


def test_an_unknown_destination_is_ignored_with_a_warning(caplog):
    graph = StateGraph(State).add_node("a", append("a")).add_edge(START, "a")
    graph.add_conditional_edges("a", lambda s: "zzz")
    with caplog.at_level(logging.WARNING):
        assert graph.compile().invoke({"xs": []}) == {"xs": ["a"]}
    assert "Task a with path ('__pregel_pull', 'a') wrote to unknown channel branch:to:zzz, " in (
        caplog.text
    )


def send_graph(make_sends):
    def worker(arg: dict) -> dict:
        return {"xs": [arg["i"]]}

    graph = StateGraph(State)
    graph.add_node("start", lambda s: None).add_node("w", worker)
    graph.add_edge(START, "start").add_conditional_edges("start", make_sends, ["w"])
    return graph.compile()


def test_send_fans_out_one_task_per_packet_with_its_own_input():
    graph = send_graph(lambda s: [Send("w", {"i": i}) for i in range(3)])
    assert graph.invoke({"xs": []}) == {"xs": [0, 1, 2]}
    updates = graph.stream({"xs": []}, stream_mode="updates")
    assert list(updates) == [
        {"start": None},
        {"w": {"xs": [0]}},
        {"w": {"xs": [1]}},
        {"w": {"xs": [2]}},
    ]


def test_send_to_end_is_an_error():
    with pytest.raises(InvalidUpdateError, match="^Cannot send a packet to the END node$"):
        send_graph(lambda s: Send(END, {})).invoke({})


def test_send_to_an_unknown_node_is_ignored_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING):
        assert send_graph(lambda s: [Send("nope", {})]).invoke({"xs": []}) == {"xs": []}
    assert "Ignoring unknown node name nope in pending sends" in caplog.text


def test_send_metadata_triggers_and_path():
    seen = []

    def make_sends(state):
        return [Send("w", 0), Send("w", 1)]

    def worker(arg, config):
        md = config["metadata"]
        seen.append((arg, md["langgraph_triggers"], md["langgraph_path"], md["langgraph_step"]))

    graph = StateGraph(State).add_node("w", worker)
    graph.add_conditional_edges(START, make_sends, ["w"])
    graph.compile().invoke({"xs": []})
    assert seen == [
        (0, ("__pregel_push",), ("__pregel_push", 0, False), 1),
        (1, ("__pregel_push",), ("__pregel_push", 1, False), 1),
    ]


def test_writes_apply_pull_tasks_by_name_before_send_tasks():
    graph = StateGraph(State)
    graph.add_node("start", lambda s: None).add_node("z", append("z")).add_node("w", append("w"))
    graph.add_edge(START, "start").add_edge("start", "z")
    graph.add_conditional_edges("start", lambda s: [Send("w", s)], ["w"])
    assert graph.compile().invoke({"xs": []}) == {"xs": ["z", "w"]}


def test_command_updates_and_goes_to():
    def c1(state) -> Command[Literal["c2"]]:
        return Command(update={"n": 5}, goto="c2")

    def c2(state):
        return [Command(update={"xs": ["x"]}), {"n": state["n"] + 1}]

    graph = StateGraph(State).add_node(c1).add_node(c2).add_edge(START, "c1").compile()
    assert graph.invoke({"xs": []}) == {"xs": ["x"], "n": 6}
    assert graph.invoke({"xs": []}, stream_mode="updates") == [
        {"c1": {"n": 5}},
        {"c2": {"xs": ["x"], "n": 6}},
    ]


def test_command_goto_send_and_end():
    def c1(state):
        return Command(goto=[Send("c2", {"n": 7}), END])

    graph = StateGraph(State).add_node(c1).add_node("c2", lambda s: {"n": s["n"]})
    assert graph.add_edge(START, "c1").compile().invoke({"xs": []}) == {"xs": [], "n": 7}


def test_a_key_written_twice_by_one_task_gives_a_list_of_updates():
    def twice(state):
        return [Command(update={"xs": [1]}), Command(update={"xs": [2]})]

    graph = StateGraph(State).add_node(twice).add_edge(START, "twice").compile()
    assert graph.invoke({}, stream_mode="updates") == [{"twice": [{"xs": [1]}, {"xs": [2]}]}]


# ---- recursion limit and managed values ----------------------------------------------------------


def counting_chain(length: int):
    log = []

    def action(name):
        def node(state, config):
            log.append((config["metadata"]["langgraph_step"], state["remaining_steps"]))
            return {"n": 1}

        return node

    return chain(*[f"n{i}" for i in range(length)], state=Counted, action=action).compile(), log


@pytest.mark.parametrize(
    "length, limit, expected, fails",
    [
        (1, 1, [(1, 0)], True),
        (1, 2, [(1, 1)], False),
        (2, 2, [(1, 1), (2, 0)], True),
        (2, 3, [(1, 2), (2, 1)], False),
        (3, 4, [(1, 3), (2, 2), (3, 1)], False),
    ],
)
def test_recursion_table(length, limit, expected, fails):
    graph, log = counting_chain(length)
    if fails:
        with pytest.raises(GraphRecursionError) as exc:
            graph.invoke({"n": 0}, {"recursion_limit": limit})
        assert str(exc.value) == RECURSION_TEXT.format(limit)
        assert isinstance(exc.value, RecursionError)
    else:
        graph.invoke({"n": 0}, {"recursion_limit": limit})
    assert log == expected


def test_default_recursion_limit_is_10007():
    graph, log = counting_chain(1)
    graph.invoke({"n": 0})
    assert DEFAULT_RECURSION_LIMIT == 10007
    assert log == [(1, 10006)]


def test_recursion_limit_must_be_positive():
    with pytest.raises(ValueError, match="^recursion_limit must be at least 1$"):
        chain("a").compile().invoke({}, {"recursion_limit": 0})


def test_an_endless_loop_fails_at_the_limit():
    def route(state):
        return "a"

    graph = StateGraph(State).add_node("a", append("a")).add_edge(START, "a")
    graph.add_conditional_edges("a", route)
    with pytest.raises(GraphRecursionError):
        graph.compile().invoke({"xs": []}, {"recursion_limit": 5})


def test_is_last_step_and_managed_values_never_in_the_output():
    seen = []

    def node(state):
        seen.append((state["remaining_steps"], state["last"]))
        return {"n": state["n"] + 1}

    graph = StateGraph(Counted).add_node("a", node).add_edge(START, "a")
    graph.add_conditional_edges("a", lambda s: "a" if s["n"] < 3 else END)
    assert graph.compile().invoke({"n": 0}, {"recursion_limit": 4}) == {"n": 3}
    assert seen == [(3, False), (2, False), (1, True)]


def test_a_branch_sees_managed_values():
    seen = []

    def route(state):
        seen.append(state["remaining_steps"])
        return END

    graph = StateGraph(Counted).add_node("a", lambda s: {"n": 1}).add_edge(START, "a")
    graph.add_conditional_edges("a", route)
    graph.compile().invoke({"n": 0}, {"recursion_limit": 5})
    assert seen == [4]


# ---- stream modes ------------------------------------------------------------------------------


def test_stream_defaults_to_updates_and_hides_the_start_node():
    assert list(chain("a", "b").compile().stream({"xs": []})) == [
        {"a": {"xs": ["a"]}},
        {"b": {"xs": ["b"]}},
    ]


def test_stream_values_after_the_input_and_each_step():
    chunks = list(chain("a", "b").compile().stream({"xs": ["in"]}, stream_mode="values"))
    assert chunks == [{"xs": ["in"]}, {"xs": ["in", "a"]}, {"xs": ["in", "a", "b"]}]


def test_a_step_that_writes_nothing_emits_no_values_chunk():
    graph = StateGraph(State).add_node("a", lambda s: None).add_node("b", append("b"))
    graph.add_edge(START, "a").add_edge("a", "b")
    assert list(graph.compile().stream({"xs": []}, stream_mode=["values", "updates"])) == [
        ("values", {"xs": []}),
        ("updates", {"a": None}),
        ("updates", {"b": {"xs": ["b"]}}),
        ("values", {"xs": ["b"]}),
    ]


def test_invoke_with_another_stream_mode_returns_the_chunks():
    assert chain("a").compile().invoke({"xs": []}, stream_mode="updates") == [{"a": {"xs": ["a"]}}]


def test_custom_stream_mode():
    def node(state, runtime: Runtime):
        runtime.stream_writer({"progress": 1})
        return {"n": 1}

    graph = StateGraph(State).add_node("a", node).add_edge(START, "a").compile()
    assert list(graph.stream({}, stream_mode=["custom", "updates"])) == [
        ("custom", {"progress": 1}),
        ("updates", {"a": {"n": 1}}),
    ]
    assert graph.invoke({}) == {"xs": [], "n": 1}  # the writer is a no-op otherwise


# ---- config, runtime, context --------------------------------------------------------------------


def test_nodes_get_config_runtime_and_context():
    seen: dict[str, Any] = {}

    def node(state, config, runtime: Runtime):
        seen["metadata"] = config["metadata"]
        seen["context"] = runtime.context
        seen["store"] = runtime.store
        return {"n": 1}

    graph = StateGraph(State, context_schema=dict).add_node("a", node).add_edge(START, "a")
    graph.compile(store="a store").invoke(
        {}, {"metadata": {"user": "u"}, "configurable": {"thread_id": "t"}}, context={"k": 1}
    )
    metadata = dict(seen["metadata"])
    assert metadata.pop("langgraph_checkpoint_ns").startswith("a:")
    assert metadata == {
        "user": "u",
        "thread_id": "t",
        "langgraph_step": 1,
        "langgraph_node": "a",
        "langgraph_triggers": ("branch:to:a",),
        "langgraph_path": ("__pregel_pull", "a"),
    }
    assert seen["context"] == {"k": 1}
    assert seen["store"] == "a store"


def test_a_dict_context_becomes_the_context_schema():
    class Ctx(BaseModel):
        user: str

    seen = []
    graph = StateGraph(State, context_schema=Ctx)
    graph.add_node("a", lambda s, runtime: seen.append(runtime.context)).add_edge(START, "a")
    graph.compile().invoke({}, context={"user": "ada"})
    assert seen == [Ctx(user="ada")]


def test_with_config_sets_defaults_for_every_run():
    graph, log = counting_chain(1)
    graph.with_config({"recursion_limit": 7}).invoke({"n": 0})
    graph.with_config(recursion_limit=3).invoke({"n": 0})
    graph.with_config({"recursion_limit": 7}).invoke({"n": 0}, {"recursion_limit": 4})
    assert log == [(1, 6), (1, 2), (1, 3)]


def test_a_model_called_without_config_inside_a_node_sees_the_node_config():
    from miniagent.runnables import ensure_config

    seen = []
    graph = (
        StateGraph(State).add_node("a", lambda s: seen.append(ensure_config())).add_edge(START, "a")
    )
    graph.compile().invoke({})
    assert seen[0]["metadata"]["langgraph_node"] == "a"


# ---- checkpointer ---------------------------------------------------------------------------------


def test_a_thread_continues_across_invokes():
    graph, log = counting_chain(1)
    graph = graph.builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}, "recursion_limit": 5}
    assert graph.invoke({"n": 10}, config) == {"n": 1}
    graph.invoke({"n": 20}, config)
    # steps continue from the saved one: input, __start__, then the node
    assert log == [(1, 4), (4, 4)]
    snapshot = graph.get_state(config)
    assert snapshot.values == {"n": 1}
    assert snapshot.next == ()
    assert snapshot.metadata == {"source": "loop", "step": 4, "parents": {}}
    assert snapshot.config["configurable"]["thread_id"] == "1"


def test_the_input_merges_into_the_saved_state_through_the_reducers():
    graph = chain("a").compile(checkpointer=MemorySaver())
    config = {"configurable": {"thread_id": 7}}
    graph.invoke({"xs": ["first"]}, config)
    assert graph.invoke({"xs": ["second"]}, config) == {"xs": ["first", "a", "second", "a"]}
    other = {"configurable": {"thread_id": 8}}
    assert graph.invoke({"xs": ["other"]}, other) == {"xs": ["other", "a"]}


def test_checkpointer_errors():
    graph = chain("a").compile(checkpointer=InMemorySaver())
    with pytest.raises(ValueError) as exc:
        graph.invoke({})
    assert str(exc.value) == (
        "Checkpointer requires one or more of the following 'configurable' keys: "
        "thread_id, checkpoint_ns, checkpoint_id"
    )
    with pytest.raises(ValueError, match="^No checkpointer set$"):
        chain("a").compile().get_state({"configurable": {"thread_id": "1"}})
    empty = graph.get_state({"configurable": {"thread_id": "nope"}})
    assert (empty.values, empty.next, empty.metadata) == ({}, (), None)


def test_no_input_and_nothing_to_resume_is_an_error():
    with pytest.raises(EmptyInputError, match="^Received no input for __start__$"):
        chain("a").compile().invoke(None)


# ---- interrupts ---------------------------------------------------------------------------------------


def test_interrupt_before_stops_and_none_resumes():
    graph = chain("a", "b").compile(checkpointer=InMemorySaver(), interrupt_before=["b"])
    config = {"configurable": {"thread_id": "1"}}
    chunks = list(graph.stream({"xs": []}, config, stream_mode=["updates", "values"]))
    assert chunks == [
        ("values", {"xs": []}),
        ("updates", {"a": {"xs": ["a"]}}),
        ("values", {"xs": ["a"]}),
        ("updates", {"__interrupt__": ()}),
    ]
    assert graph.get_state(config).next == ("b",)
    assert list(graph.stream(None, config, stream_mode="values")) == [
        {"xs": ["a"]},
        {"xs": ["a", "b"]},
    ]
    assert graph.get_state(config).next == ()


def test_interrupt_after_returns_the_state_so_far():
    graph = chain("a", "b").compile(checkpointer=InMemorySaver(), interrupt_after=["a"])
    config = {"configurable": {"thread_id": "1"}}
    assert graph.invoke({"xs": []}, config) == {"xs": ["a"]}
    assert graph.get_state(config).next == ("b",)
    assert graph.invoke(None, config) == {"xs": ["a", "b"]}


# ---- pydantic state --------------------------------------------------------------------------------


class PState(BaseModel):
    xs: Annotated[list, operator.add] = []
    n: int = 0
    steps: RemainingSteps = 3


def test_a_pydantic_state_reaches_nodes_as_a_model_and_returns_a_dict():
    seen = []

    def node(state: PState) -> dict:
        seen.append(state)
        return {"n": state.n + 1}

    graph = StateGraph(PState).add_node("a", node).add_edge(START, "a")
    graph.add_conditional_edges("a", lambda s: END if s.n > 0 else "a")
    result = graph.compile().invoke({"xs": [1]})
    assert result == {"xs": [1], "n": 1}
    assert seen == [PState(xs=[1], n=0, steps=10006)]


def test_a_pydantic_state_accepts_a_model_as_input_and_validates_node_input():
    graph = StateGraph(PState).add_node("a", lambda s: {"n": "not a number"})
    graph.add_node("b", lambda s: None).add_edge(START, "a").add_edge("a", "b")
    compiled = graph.compile()
    assert next(compiled.stream(PState(xs=[2]), stream_mode="values")) == {"xs": [2], "n": 0}
    with pytest.raises(ValidationError):
        compiled.invoke({})


# ---- async ------------------------------------------------------------------------------------------


def test_ainvoke_and_astream_run_async_nodes_and_branches():
    async def node(state):
        await asyncio.sleep(0)
        return {"xs": ["a"]}

    async def route(state):
        return "a" if len(state["xs"]) < 3 else END

    graph = StateGraph(State).add_node("a", node).add_edge(START, "a")
    graph.add_conditional_edges("a", route)
    compiled = graph.compile()

    async def run():
        chunks = [c async for c in compiled.astream({"xs": []}, stream_mode="updates")]
        return await compiled.ainvoke({"xs": []}), chunks

    result, chunks = asyncio.run(run())
    assert result == {"xs": ["a", "a", "a"]}
    assert chunks == [{"a": {"xs": ["a"]}}] * 3
    with pytest.raises(TypeError, match="No synchronous function provided to"):
        compiled.invoke({"xs": []})


def test_stream_modes_the_miniature_lacks_are_refused():
    with pytest.raises(NotImplementedError, match="debug"):
        list(chain("a").compile().stream({}, stream_mode=["values", "debug"]))
