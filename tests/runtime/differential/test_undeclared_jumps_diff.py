"""A jump a hook asks for without declaring it, against langchain 1.5.2.

A hook that returns ``{"jump_to": ...}`` gets a conditional edge only when it declares
``can_jump_to`` (``_add_middleware_edge``); without it the hook's node has a plain edge and the
jump does nothing -- unless the next router reads ``jump_to``. It does not: ``jump_to`` is an
``EphemeralValue``, and a conditional edge reads the state *fresh* (the state before the step
plus its own node's writes, every other channel told "new step"), so a ``jump_to`` written one
step earlier reads as unset. The one exception is the loop exit node (the first ``after_model``),
whose router ``model_to_tools`` reads ``jump_to`` whatever the hook declared.

The matrix: each of the four node hooks x declared or not x alone, or beside a hook that does
declare a jump (running after it, or before it) x jump target, sync and async. Both sides must
give the same node order and updates (``stream_mode="updates"``), the same final state and the
same hook log.

miniagent used to follow such jumps: its branches merged the node's *input* into what the
router reads, so a ``jump_to`` of the step before leaked through. Upstream merges the node's
*output* (the branch runs as a writer after the node); the last tests pin that on a bare graph.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

import pytest

pytest.importorskip("langchain.agents")

from miniagent.testing import normalize_ids  # noqa: E402

from .agent_helpers import (  # noqa: E402
    HOOKS,
    final,
    on_both,
    outcome,
    plain,
    recorder,
    script,
    tool_call,
    updates,
    weather_tool,
)

try:  # the root cause, on the bare graph: what a conditional edge reads
    from typing import NotRequired, TypedDict
except ImportError:  # Python 3.10
    from typing_extensions import NotRequired, TypedDict

INPUT = {"messages": [{"role": "user", "content": "what is the weather in sf", "id": "h-1"}]}

# where the declaring hook "MB" runs relative to the jumping hook "MA"
COMPANY = ("alone", "declarer_runs_after", "declarer_runs_before")


def middleware_for(ns, hook, target, declared, company, log, is_async):
    jumper = recorder(
        ns, "MA", (hook,), log, is_async=is_async,
        can_jump_to={hook: [target]} if declared else None,
        returns={hook: [{"jump_to": target}]},
    )  # fmt: skip
    if company == "alone":
        return [jumper]
    declarer = recorder(
        ns, "MB", (hook,), log, is_async=is_async, can_jump_to={hook: ["model", "end"]}
    )
    # before_* hooks run in list order, after_* hooks in reverse order
    runs_after = company == "declarer_runs_after"
    if hook.startswith("before"):
        return [jumper, declarer] if runs_after else [declarer, jumper]
    return [declarer, jumper] if runs_after else [jumper, declarer]


def undeclared_run(ns, hook, target, declared, company, *, is_async=False):
    def build(log):
        middleware = middleware_for(ns, hook, target, declared, company, log, is_async)
        model = script(ns, [tool_call()], "one", "two", "three")
        return outcome(lambda: ns.create_agent(model, [weather_tool(ns)], middleware=middleware))

    stream_log: list[str] = []
    agent = build(stream_log)
    if isinstance(agent, tuple):  # the graph itself is refused: both sides must agree on why
        return agent
    invoke_log: list[str] = []
    if is_async:

        async def collect():
            seen: dict[str, str] = {}
            return [
                (node, normalize_ids(plain(update), seen))
                async for chunk in agent.astream(INPUT, stream_mode="updates")
                for node, update in chunk.items()
            ]

        stream = outcome(lambda: asyncio.run(collect()))
        result = outcome(lambda: asyncio.run(build(invoke_log).ainvoke(INPUT)))
    else:
        stream = outcome(lambda: updates(agent, INPUT))
        result = outcome(lambda: build(invoke_log).invoke(INPUT))
    nodes = [node for node, _ in stream] if isinstance(stream, list) else stream
    return {
        "nodes": nodes,
        "updates": stream,
        "final": result if isinstance(result, tuple) else final(result),
        "log": (stream_log, invoke_log),
    }


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("target", ["end", "model"])
@pytest.mark.parametrize("company", COMPANY)
@pytest.mark.parametrize("declared", [True, False], ids=["declared", "undeclared"])
@pytest.mark.parametrize("hook", HOOKS)
def test_jump_matrix(hook, declared, company, target, is_async):
    on_both(lambda ns: undeclared_run(ns, hook, target, declared, company, is_async=is_async))


def nodes_of(ns, hook, declared):
    return undeclared_run(ns, hook, "end", declared, "alone")["nodes"]


def test_undeclared_jump_to_end_is_ignored_before_the_model():
    """The trap: ``before_agent`` / ``before_model`` ask to end, the run goes on as if they had
    not asked, on both sides; declared, the same jump ends the run at once."""
    for hook in ("before_agent", "before_model"):
        nodes = on_both(lambda ns, hook=hook: nodes_of(ns, hook, declared=False))
        assert "model" in nodes and "tools" in nodes, (hook, nodes)
        assert on_both(lambda ns, hook=hook: nodes_of(ns, hook, declared=True)) == [f"MA.{hook}"]


def test_undeclared_jump_from_the_loop_exit_is_followed():
    """The exception: the only ``after_model`` is the loop exit, and its router reads
    ``jump_to`` whether or not the hook declared it."""
    undeclared = on_both(lambda ns: nodes_of(ns, "after_model", declared=False))
    declared = on_both(lambda ns: nodes_of(ns, "after_model", declared=True))
    assert undeclared == declared == ["model", "MA.after_model"]


def test_undeclared_jump_is_not_read_by_the_next_declaring_router():
    """A declaring hook's router, right after the undeclared jump, does not see it either: it
    reads ``jump_to`` fresh, and the jump was written a step earlier."""
    result = on_both(
        lambda ns: undeclared_run(ns, "before_model", "end", False, "declarer_runs_after")
    )
    assert result["nodes"][:3] == ["MA.before_model", "MB.before_model", "model"]


def test_an_after_model_that_is_not_the_loop_exit_is_ignored():
    """Registered second, the undeclared ``after_model`` runs first and is not the loop exit:
    its jump is ignored like the others; registered first, it is the exit and is obeyed."""
    not_exit = on_both(
        lambda ns: undeclared_run(ns, "after_model", "end", False, "declarer_runs_after")
    )
    assert not_exit["nodes"][:4] == ["model", "MA.after_model", "MB.after_model", "tools"]
    is_exit = on_both(
        lambda ns: undeclared_run(ns, "after_model", "end", False, "declarer_runs_before")
    )
    assert is_exit["nodes"] == ["model", "MB.after_model", "MA.after_model"]


# ---- the root cause, on a bare StateGraph -----------------------------------------------------


def graph_side(which):
    if which == "mini":
        from miniagent.graph import END, START, StateGraph
        from miniagent.graph.state import EphemeralValue
    else:
        from langgraph.channels.ephemeral_value import EphemeralValue
        from langgraph.graph import END, START, StateGraph
    return StateGraph, START, END, EphemeralValue


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
def test_a_router_reads_fresh_state_plus_its_nodes_output(is_async):
    """``a`` writes the ephemeral ``x``; ``b`` (next step) sees it, but ``b``'s router does not:
    it reads the channels fresh (``local_read``), and the branch's passthrough is ``b``'s
    *output* (graph/_branch.py:146), so an output key outside the state (``extra``) shows up
    while ``b``'s input does not."""

    def run(which):
        StateGraph, START, END, EphemeralValue = graph_side(which)

        # functional form: this module's annotations are strings, local names would not resolve
        S = TypedDict(  # noqa: UP013
            "S", {"n": int, "x": NotRequired[Annotated[str | None, EphemeralValue]]}
        )

        seen = []

        def route(state):
            seen.append(("router", dict(state)))
            return "c"

        def b(state):
            seen.append(("b", dict(state)))
            return {"n": 1, "extra": True}

        builder = StateGraph(S)
        builder.add_node("a", lambda state: {"x": "end"})
        builder.add_node("b", b)
        builder.add_node("c", lambda state: {"n": 2})
        builder.add_edge(START, "a")
        builder.add_edge("a", "b")
        builder.add_conditional_edges("b", route, ["c"])
        builder.add_edge("c", END)
        graph = builder.compile()
        out = asyncio.run(graph.ainvoke({"n": 0})) if is_async else graph.invoke({"n": 0})
        return seen, out

    seen, out = on_both(run)
    assert seen == [("b", {"n": 0, "x": "end"}), ("router", {"n": 1, "extra": True})]
    assert out == {"n": 2}
