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

    ``should_return_direct`` holds the names of the agent's tools built with
    ``return_direct=True``. ``create_react_agent`` defines the check inside itself and closes
    over that set; here the set is an argument, and you return the check (a closure). The
    graders put the function you return into real agents, in place of their own.

    The agent calls the check right after each model call, with the node's input ``state`` (a
    dict or a pydantic object, which may have no ``remaining_steps`` at all) and the model's
    ``response``. ``True`` means "too few steps left for what this response needs: replace it
    with 'Sorry, need more steps to process this request.'". Return a real ``bool``, and never
    raise for any of these states or responses:

    ==================  ==============  =====================  ==========================
    remaining_steps     a final answer  calls tools, not all   calls return-direct tools
                        (no tool calls) of them return-direct  only
    ==================  ==============  =====================  ==========================
    not in the state    False           False                  False
    2 or more           False           False                  False
    1                   False           True                   True
    0 or less           True            True                   True
    ==================  ==============  =====================  ==========================

    The columns are ``AIMessage`` responses. Any other response (a ``ToolMessage``, a
    ``HumanMessage``) is never replaced: ``False``. Why these thresholds (what a round costs in
    super-steps, and what ``remaining_steps`` counts): the lesson, *Line by line* and *Where the
    number comes from*.

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
    the lesson (*The surprise*, before you open its table) and before you run the notebook's
    section 3: the graders run the real agent for each limit and compare, one limit at a time.
    """
    # TODO(day09): replace the line below with `return {2: (..., ...), 3: ..., ..., 7: ...}`.
    raise NotStarted("day09")
