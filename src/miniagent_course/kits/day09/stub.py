"""Day 09: ``remaining_steps`` vs ``recursion_limit`` -- the soft landing, and when it fails.

Lesson:    course/days/day09-remaining-steps.md
Notebook:  notebooks/day09_remaining_steps.ipynb
Check:     miniagent check day09        Stuck?  miniagent hint day09

Two parts, graded separately:

(1) ``make_are_more_steps_needed``: the check the agent runs after every model call.
(2) Predict: ``predictions``, before you run the notebook's table, says how an agent whose model
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
    """Build and return ``_are_more_steps_needed(state, response) -> bool``: the soft landing.

    ``create_react_agent`` defines the check inside itself and closes over the set below; here the
    set is an argument and you return the check. The graders put it into real agents, in place of
    their own.

    Input: ``should_return_direct``, the names of the agent's tools built with
    ``return_direct=True``.

    Output: the check, a function of ``state`` (the agent node's input: a dict or a pydantic
    object, which may have no ``remaining_steps`` at all) and ``response`` (the model's reply).
    It returns a real ``bool``: ``True`` means "too few steps are left for what this response
    needs: replace it with 'Sorry, need more steps to process this request.'". For an
    ``AIMessage`` response:

    ==================  ==============  =====================  ==========================
    remaining_steps     a final answer  calls tools, not all   calls return-direct tools
                        (no tool calls) of them return-direct  only
    ==================  ==============  =====================  ==========================
    not in the state    False           False                  False
    2 or more           False           False                  False
    1                   False           True                   True
    0 or less           True            True                   True
    ==================  ==============  =====================  ==========================

    Any other response (a ``ToolMessage``, a ``HumanMessage``): ``False``.

    Errors: none, for any of these states and responses.

    >>> check = make_are_more_steps_needed(set())
    >>> check({"messages": [], "remaining_steps": 0}, AIMessage("done"))
    True

    Why these thresholds (what a round costs in super-steps, and what ``remaining_steps``
    counts): the lesson, *Line by line* and *Where the number comes from*.
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
    the lesson (*The surprise*, before you open its table): the graders run the real agent for
    each limit and compare, one limit at a time.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the real run gives.
    """
    # TODO(day09): replace the line below with `return {2: (..., ...), 3: ..., ..., 7: ...}`.
    raise NotStarted("day09")
