"""The remaining-steps table (upstream-spec.md §2.15), miniagent against the pinned upstream.

A model that calls a tool on every turn runs into the recursion limit. Depending on the parity
of the limit the agent either lands on ``remaining_steps == 1`` and answers "Sorry, need more
steps to process this request." (``_are_more_steps_needed``, chat_agent_executor.py:620), or
lands on ``remaining_steps == 0`` and the run ends in ``GraphRecursionError``. A callable prompt
records the ``remaining_steps`` value the agent sees on each call. For every limit both
libraries must give the same outcome (final messages or exact error text), the same number of
tool executions and the same recorded values -- and those must be upstream's table:

    limit 2: [1] Sorry          limit 3: [2, 0] GraphRecursionError
    limit 4: [3, 1] Sorry       limit 5: [4, 2, 0] GraphRecursionError
    limit 6: [5, 3, 1] Sorry    limit 7: [6, 4, 2, 0] GraphRecursionError
    limit 25: [24, 22, ..., 0] GraphRecursionError

Return-direct variant (the only tool has ``return_direct=True``): limit 1 -> [0] and
GraphRecursionError; limit 2 -> [1] and Sorry; limit 3 or more -> [2] and the run ends after
the tool's message.
"""

import pytest

pytest.importorskip("langgraph")

from .scenario_helpers import assert_same, is_error  # noqa: E402

SORRY = "Sorry, need more steps to process this request."


def always_tool_calling(ns, limit, version, return_direct=False, pre_hook=False):
    seen: list[int] = []
    executions: list[int] = []

    def prompt(state):
        seen.append(state["remaining_steps"])
        return state["messages"]

    @ns.tool(return_direct=return_direct)
    def noop(x: int) -> str:
        """Do nothing."""
        executions.append(x)
        return f"finished {x}"

    model = ns.FakeToolCallingModel(tool_calls=[[{"name": "noop", "args": {"x": 1}, "id": "1"}]])
    hook = {"pre_model_hook": lambda state: {}} if pre_hook else {}
    agent = ns.create_react_agent(model, [noop], prompt=prompt, version=version, **hook)
    try:
        result = agent.invoke(
            {"messages": [ns.HumanMessage("go", id="h")]}, {"recursion_limit": limit}
        )
    except ns.GraphRecursionError as e:
        result = ("raised", "GraphRecursionError", str(e))
    return {"seen": seen, "tool_runs": len(executions), "result": result}


TABLE = {
    2: ([1], SORRY),
    3: ([2, 0], "GraphRecursionError"),
    4: ([3, 1], SORRY),
    5: ([4, 2, 0], "GraphRecursionError"),
    6: ([5, 3, 1], SORRY),
    7: ([6, 4, 2, 0], "GraphRecursionError"),
    25: (list(range(24, -1, -2)), "GraphRecursionError"),
}


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("limit", sorted(TABLE))
def test_remaining_steps_table(limit, version):
    run = assert_same(always_tool_calling, limit=limit, version=version)
    seen, ending = TABLE[limit]
    assert run["seen"] == seen
    assert run["tool_runs"] == len(seen) - 1
    if ending == SORRY:
        messages = run["result"]["messages"]
        assert messages[-1]["content"] == SORRY
        assert messages[-1]["tool_calls"] == []
        assert len(messages) == 2 * len(seen)
    else:
        assert run["result"][:2] == ("raised", "GraphRecursionError")
        assert run["result"][2].startswith(f"Recursion limit of {limit} reached")


RETURN_DIRECT = {1: [0], 2: [1], 3: [2], 4: [3], 7: [6]}


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("limit", sorted(RETURN_DIRECT))
def test_remaining_steps_return_direct(limit, version):
    run = assert_same(always_tool_calling, limit=limit, version=version, return_direct=True)
    assert run["seen"] == RETURN_DIRECT[limit]
    if limit == 1:
        assert is_error(run["result"]) and run["result"][1] == "GraphRecursionError"
    elif limit == 2:
        assert run["result"]["messages"][-1]["content"] == SORRY
    else:
        assert run["tool_runs"] == 1
        assert run["result"]["messages"][-1]["content"] == "finished 1"


@pytest.mark.parametrize("limit", [3, 4, 5, 6, 7, 8])
def test_remaining_steps_with_pre_model_hook(limit):
    """A pre_model_hook adds a super-step per round: the parity pattern shifts, identically."""
    run = assert_same(always_tool_calling, limit=limit, version="v2", pre_hook=True)
    assert run["seen"][0] == limit - 2  # the hook ran first, at step 1


def default_limit(ns):
    seen = []

    def prompt(state):
        seen.append(state["remaining_steps"])
        return state["messages"]

    agent = ns.create_react_agent(ns.FakeToolCallingModel(), [], prompt=prompt)
    agent.invoke({"messages": [ns.HumanMessage("go", id="h")]})
    return seen


def test_default_recursion_limit():
    assert assert_same(default_limit) == [10006]
