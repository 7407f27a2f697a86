"""Day 09's reference: ``_are_more_steps_needed`` and what the agent does at the recursion limit.

Upstream defines ``_are_more_steps_needed`` inside ``create_react_agent``
(chat_agent_executor.py:620), where it closes over one value, ``should_return_direct`` (the
names of the tools built with ``return_direct=True``, l.597). The exercise passes that set as
an argument instead; this module turns it back into the real function, so the reference *is*
miniagent's ``_are_more_steps_needed`` and never a second copy of it.

    check = make_are_more_steps_needed({"finish"})   # the real closure, over {"finish"}
    check({"messages": [], "remaining_steps": 1}, response)

``predictions()`` is the second task's answer, and it is not written down anywhere: it runs
the real agent, with a model that calls a tool on every turn, for recursion limits 2 to 7.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.errors import GraphRecursionError
from miniagent.messages import BaseMessage
from miniagent_course.grading.closures import (
    rebind,
    reference_inner_function,
)

SORRY = "Sorry, need more steps to process this request."
LIMITS = range(2, 8)  # the recursion limits the learner predicts


def make_are_more_steps_needed(
    should_return_direct: set[str],
) -> Callable[[Any, BaseMessage], bool]:
    """The real ``_are_more_steps_needed`` (chat_agent_executor.py:620), over this set.

    Python keeps a closure's free variables in cells; a new function object made from the real
    function's code and a fresh cell holding ``should_return_direct`` is the function
    ``create_react_agent`` builds for an agent with those return-direct tools. Read the code in
    ``src/miniagent/prebuilt/chat_agent_executor.py`` (snippet ``are_more_steps_needed``).
    """
    real = reference_inner_function("_are_more_steps_needed")
    return rebind(real, should_return_direct=should_return_direct)  # its only free variable


def run_to_the_limit(recursion_limit: int) -> tuple[str, int]:
    """Run a real agent whose model always calls a tool: ``("sorry" | "error", tool calls run)``."""
    from miniagent.prebuilt import create_react_agent
    from miniagent.testing import FakeToolCallingModel
    from miniagent.tools import tool

    runs: list[int] = []

    @tool
    def noop() -> str:
        """Do nothing."""
        runs.append(1)
        return "ok"

    model = FakeToolCallingModel(tool_calls=[[{"name": "noop", "args": {}, "id": "call-1"}]])
    agent = create_react_agent(model, [noop])
    try:
        result = agent.invoke({"messages": [("user", "go")]}, {"recursion_limit": recursion_limit})
    except GraphRecursionError:
        return "error", len(runs)
    assert result["messages"][-1].content == SORRY  # the only other way this run can end
    return "sorry", len(runs)


def predictions() -> dict[int, tuple[str, int]]:
    """How the real agent ends for recursion limits 2 to 7, and how many tool calls ran."""
    return {limit: run_to_the_limit(limit) for limit in LIMITS}


def install_make_are_more_steps_needed(agent: Any, make: Callable[..., Any]) -> None:
    """Put the check ``make`` builds into ``agent``, over the agent's own return-direct set."""
    from miniagent_course.grading.closures import agent_node_function, closure_vars, swap_closure

    call_model = agent_node_function(agent)
    real = closure_vars(call_model)["_are_more_steps_needed"]
    should_return_direct = closure_vars(real)["should_return_direct"]
    swap_closure(call_model, "_are_more_steps_needed", make(should_return_direct))
