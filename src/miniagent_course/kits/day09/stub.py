"""Day 09: ``remaining_steps`` vs ``recursion_limit`` -- the soft landing, and when it fails.

Lesson:    course/days/day09-remaining-steps.md
Notebook:  notebooks/day09_remaining_steps.ipynb
Check:     miniagent check day09        Stuck?  miniagent hint day09

Two parts, graded separately:

(1) ``make_are_more_steps_needed``: the check the agent runs after every model call.
(2) Repair: ``answer``, the travel desk, which misbehaves as it shipped (the lesson's *Repair:
    the travel desk* prints it). Find why in the source, and repair it here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.errors import GraphRecursionError
from miniagent.messages import AIMessage, BaseMessage
from miniagent.models import BaseChatModel
from miniagent.prebuilt import create_react_agent
from miniagent.prebuilt.chat_agent_executor import _get_state_value
from miniagent.runnables import RunnableConfig
from miniagent.tools import BaseTool
from miniagent_course.todo import NotStarted

MAX_TOOL_CALLS = 3  # what the travel desk pays for, per question


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


def answer(
    question: str, model: BaseChatModel, tools: list[BaseTool], config: RunnableConfig
) -> str:
    """The travel desk: answer one customer question with a ReAct agent; return the reply's text.

    The chat platform calls ``answer`` once per question. It passes the desk's model, its tools
    (``search``, and often ``book``, a tool built with ``return_direct=True`` whose confirmation
    is the reply) and its own run config ``config``: the ticket in ``metadata``, its ``tags``,
    and the ``recursion_limit`` the platform stamps on every run it starts (25). The desk as it
    shipped is ``answer_as_shipped`` on the lesson page and in the notebook: start from it.

    The desk must behave like this, whatever the model does:

    * the platform's config reaches the run: every tool sees the ticket in its config's
      ``metadata``;
    * a model that looks something up twice and then answers: its answer is the reply;
    * a model that looks something up twice and then calls ``book``: the booking is made (the
      tool runs once) and its confirmation is the reply;
    * a model that never stops calling tools: no more than ``MAX_TOOL_CALLS`` tool calls run,
      and ``answer`` raises ``GraphRecursionError`` (the platform catches it and hands the
      ticket to a person). The reply "Sorry, need more steps to process this request." is
      never returned as an answer.

    Repair the application, not the library: code that changes a function of miniagent's agent,
    tool node or loop fails, whatever it returns.

    The form (not the repair): a str, the text of the last message of the run, e.g.

    >>> answer("When does LH123 leave?", model, tools, {"metadata": {"ticket": "T-1"}})
    'LH123 leaves at 9:40 from gate B12.'

    Why it misbehaves: the lesson, *Repair: the travel desk* and the source it prints.
    """
    # TODO(day09): copy answer_as_shipped's body here, then repair it.
    raise NotStarted("day09")
