"""Day 15, the capstone: a guarded work-order agent, assembled from your own pieces.

Lesson:    course/days/day15-capstone.md
Notebook:  notebooks/day15_capstone.ipynb
Check:     miniagent check day15        Stuck?  miniagent hint day15

Two parts, graded separately:

(1) ``order_prompt``, ``guard_escalation`` and ``build_agent``: the agent's dynamic prompt, its
    guardrail, and the agent itself. The graders run your agent on six scripted conversations
    (a refusal, a budget hit and a failing tool among them) and compare everything one can
    observe with what upstream's ``create_agent`` did with the same pieces (recorded as data).
(2) Predict: ``predictions`` says how each conversation ends, before you run it.

Given (imported below, ready-made): the three tools ``TOOLS`` (``lookup_customer`` fails for an
unknown id with a ``ToolException`` the model reads; ``create_work_order`` saves the order into
the state's ``current_order``; ``escalate`` pages a person), the state schema ``WorkOrderState``
(adds ``current_order`` and ``confirmed``), the result schema ``WorkOrder`` and the constants.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.agents import create_agent
from miniagent.agents.middleware import (
    ModelCallLimitMiddleware,
    ModelRequest,
    ToolCallLimitMiddleware,
    dynamic_prompt,
    wrap_tool_call,
)
from miniagent.agents.structured_output import ToolStrategy
from miniagent.messages import ToolMessage
from miniagent_course.kits.day15.cases import (
    MODEL_CALLS,
    NEEDS_CONFIRMATION,
    RULES,
    TOOL_CALLS,
    WorkOrder,
    state_schema,
    work_order_tools,
)
from miniagent_course.sides import mini
from miniagent_course.todo import NotStarted

TOOLS = work_order_tools(mini())
WorkOrderState = state_schema(mini())

__all__ = [
    "MODEL_CALLS",
    "NEEDS_CONFIRMATION",
    "RULES",
    "TOOLS",
    "TOOL_CALLS",
    "ModelCallLimitMiddleware",
    "ToolCallLimitMiddleware",
    "ToolMessage",
    "ToolStrategy",
    "WorkOrder",
    "WorkOrderState",
    "create_agent",
    "dynamic_prompt",
    "wrap_tool_call",
]


def order_prompt(request: ModelRequest) -> str:
    """The system message of one model call, built from the current order (seed 002).

    Input: the ``ModelRequest`` of this call; the order is ``request.state`` 's
    ``"current_order"`` (a dict), missing or empty before ``create_work_order`` ran.

    Output, a str:

    * no order: ``RULES + "\\nNo current order yet."``;
    * an order: ``RULES + "\\nCurrent order: "`` and the order as JSON, keys sorted, default
      separators (``{"id": 7, "room": "101"}``).

    Errors: none; it never raises.

    It becomes middleware through ``dynamic_prompt``: decorate it with ``@dynamic_prompt`` or wrap
    it in ``build_agent``; either way it is graded as written. The lesson, *Why this design*, says
    why the order lives in the state and not in the history.

    >>> from types import SimpleNamespace
    >>> order_prompt(SimpleNamespace(state={})).endswith("No current order yet.")
    True
    """
    # TODO(day15): the rules, then the current order (or that there is none yet).
    raise NotStarted("day15")


def guard_escalation(request: Any, handler: Callable[[Any], Any]) -> Any:
    """The guardrail's ``wrap_tool_call``: refuse ``escalate`` until the user confirmed.

    Input: a ``ToolCallRequest`` (``request.tool_call`` is the call dict with ``"name"``,
    ``"args"``, ``"id"``; ``request.state`` is the agent's state) and ``handler``, which runs the
    tool.

    Output:

    * the call names ``"escalate"`` and the state has no true ``"confirmed"``: the tool does not
      run; ``ToolMessage(NEEDS_CONFIRMATION, tool_call_id=<the call's id>, name=<the call's
      name>, status="error")``, so the model reads why;
    * any other call, or a confirmed escalation: what ``handler`` returns for the request,
      unchanged.

    Errors: none of its own.

    >>> from types import SimpleNamespace
    >>> call = {"name": "escalate", "args": {}, "id": "c1"}
    >>> refused = guard_escalation(SimpleNamespace(tool_call=call, state={}), print)
    >>> refused.content == NEEDS_CONFIRMATION, refused.tool_call_id, refused.status
    (True, 'c1', 'error')
    """
    # TODO(day15): refuse escalate until the state says confirmed.
    raise NotStarted("day15")


def build_agent(model: Any) -> Any:
    """The capstone: ``create_agent`` on ``model`` with your pieces and the given ones.

    Input: ``model``, a chat model (the graders' scripted ones, or yours).

    Output: the compiled agent (the graders call ``invoke`` on it), which has:

    * the tools ``TOOLS`` and the state schema ``WorkOrderState`` (without it the input's
      ``confirmed`` never reaches the state);
    * your ``order_prompt`` as a ``@dynamic_prompt`` and your ``guard_escalation`` as a
      ``@wrap_tool_call`` middleware, in that order;
    * a budget: at most ``MODEL_CALLS`` model calls per run, ending the run with upstream's
      message when they are used up (``ModelCallLimitMiddleware``, ``exit_behavior="end"``), and
      at most ``TOOL_CALLS`` tool calls per run, each call beyond answered with an error the model
      reads (``ToolCallLimitMiddleware``, its default behaviour);
    * a structured result: ``WorkOrder`` through a tool call (``ToolStrategy``);
    * no ``system_prompt``: the dynamic prompt is the whole system message.

    Errors: none of its own.

    >>> from miniagent.testing import ScriptedChatModel
    >>> type(build_agent(ScriptedChatModel([]))).__name__
    'CompiledStateGraph'
    """
    # TODO(day15): assemble the agent.
    raise NotStarted("day15")


# --- part 2: predict ------------------------------------------------------------------------


def predictions() -> dict[str, tuple[str, tuple[str, ...]]]:
    """How each scripted conversation ends, predicted before you run it.

    The conversations are the six of the lesson's table (*Your turn*, part 2: the user's message
    and the model's scripted replies). For every key give ``(ending, tools)``:

    * ``ending``: ``"work_order"`` (the run's ``structured_response`` is a ``WorkOrder``; the
      other endings leave it ``None``), ``"model_limit"`` (the model-call budget ended it) or
      ``"reply"`` (a plain answer ended it);
    * ``tools``: the names of the tool messages with ``status == "success"``, in the order they
      are in the history. A refused, failed or over-budget call is not one; the structured
      result's own tool message (named ``"WorkOrder"``) is.

    Write the table by hand (a dict literal). Running the agent here is not predicting.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the real run gives.
    """
    # TODO(day15): part 2, your table of six predictions.
    raise NotStarted("day15")
