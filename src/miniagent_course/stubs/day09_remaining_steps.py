"""Day 09: ``remaining_steps`` vs ``recursion_limit`` -- the soft landing, and when it fails.

Lesson:    course/days/day09-remaining-steps.md
Notebook:  notebooks/day09_remaining_steps.ipynb
Check:     miniagent check day09        Stuck?  miniagent hint day09

Two tasks, graded separately:

(a) ``make_are_more_steps_needed``: the check the agent runs after every model call.
(b) ``predictions``: before you run the notebook's table, predict how an agent whose model
    calls a tool on every turn ends, for recursion limits 2 to 7. The graders run the agent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.messages import AIMessage, BaseMessage
from miniagent.prebuilt.chat_agent_executor import _get_state_value
from miniagent_course.todo import NotStarted


def make_are_more_steps_needed(
    should_return_direct: set[str],
) -> Callable[[Any, BaseMessage], bool]:
    """Build and return ``_are_more_steps_needed(state, response) -> bool``.

    ``create_react_agent`` defines this function inside itself, where it can see
    ``should_return_direct``: the names of the tools built with ``return_direct=True``. Here the
    set arrives as an argument; define the function inside this one and return it (a closure).
    The graders put the function you return into a real agent, in place of its own.

    The agent calls it right after the model answered, with the node's input ``state`` (a dict
    or a pydantic object) and the model's ``response``. It must return ``True`` -- "give up:
    answer 'Sorry, need more steps to process this request.' instead" -- exactly when:

    * the state holds ``remaining_steps`` (read it with ``_get_state_value``, default ``None``;
      a state without it never gives up), and
    * either ``remaining_steps < 1`` and every tool call of the response names a return-direct
      tool (for an ``AIMessage`` with no tool calls this holds too: ``all([])`` is ``True``;
      for a message that is not an ``AIMessage`` it does not hold),
    * or ``remaining_steps < 2`` and the response is an ``AIMessage`` with tool calls.

    Otherwise return ``False``. Return a real ``bool``. For example, with
    ``check = make_are_more_steps_needed({"finish"})``:

    * ``check({"messages": [], "remaining_steps": 5}, AIMessage("hi"))`` is ``False``;
    * ``check({"messages": []}, any_response)`` is ``False`` (no ``remaining_steps``).

    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:620`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day09): define _are_more_steps_needed(state, response) here and return it.
    raise NotStarted("day09")


def predictions() -> dict[int, tuple[str, int]]:
    """Your prediction, for recursion limits 2, 3, 4, 5, 6 and 7, of how this run ends:

        agent = create_react_agent(model_that_always_calls_a_tool, [noop])
        agent.invoke({"messages": [("user", "go")]}, {"recursion_limit": limit})

    For each limit give ``(outcome, tool_calls)``:

    * ``outcome`` -- ``"sorry"`` if ``invoke`` returns and the last message is "Sorry, need more
      steps to process this request.", or ``"error"`` if it raises ``GraphRecursionError``;
    * ``tool_calls`` -- how many times the ``noop`` tool ran before the run ended.

    Return a literal table with one entry per limit. Its shape (the values are placeholders,
    not answers): ``{2: ("error", 9), 3: ("sorry", 9), ..., 7: ("sorry", 9)}``. Work it out from
    the lesson before you run the notebook's table: the graders run the real agent and compare.
    """
    # TODO(day09): replace the line below with `return {2: (..., ...), 3: ..., ..., 7: ...}`.
    raise NotStarted("day09")
