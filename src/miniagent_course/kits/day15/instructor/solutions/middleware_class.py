"""Day 15, solved with a middleware class: the guardrail is an ``AgentMiddleware`` subclass with
its own ``wrap_tool_call`` and ``state_schema``, the prompt is a ``match`` on the order, and the
budget is a helper that returns both limits."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from miniagent.agents import create_agent
from miniagent.agents.middleware import (
    AgentMiddleware,
    ModelCallLimitMiddleware,
    ToolCallLimitMiddleware,
    dynamic_prompt,
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

TOOLS = work_order_tools(mini())
WorkOrderState = state_schema(mini())


def order_prompt(request: Any) -> str:
    match request.state.get("current_order"):
        case dict() as order if order:
            tail = "Current order: " + json.dumps(order, sort_keys=True)
        case _:
            tail = "No current order yet."
    return "\n".join((RULES, tail))


def guard_escalation(request: Any, handler: Callable[[Any], Any]) -> Any:
    call = request.tool_call
    confirmed = bool(request.state.get("confirmed", False))
    if call["name"] != "escalate" or confirmed:
        return handler(request)
    return ToolMessage(
        content=NEEDS_CONFIRMATION, tool_call_id=call["id"], name="escalate", status="error"
    )


class ConfirmEscalation(AgentMiddleware):
    """Refuses escalate until the state says confirmed."""

    state_schema = WorkOrderState

    def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        return guard_escalation(request, handler)


def _budget() -> list[AgentMiddleware]:
    return [
        ModelCallLimitMiddleware(run_limit=MODEL_CALLS, exit_behavior="end"),
        ToolCallLimitMiddleware(run_limit=TOOL_CALLS, exit_behavior="continue"),
    ]


def build_agent(model: Any) -> Any:
    # the guardrail's state_schema carries `confirmed` and `current_order` into the state
    return create_agent(
        model=model,
        tools=TOOLS,
        middleware=[dynamic_prompt(order_prompt), ConfirmEscalation(), *_budget()],
        response_format=ToolStrategy(schema=WorkOrder),
    )


def predictions() -> dict[str, tuple[str, tuple[str, ...]]]:
    structured = ("lookup_customer", "create_work_order", "WorkOrder")
    return {
        "happy": ("work_order", structured),
        "unknown_customer": ("work_order", structured),
        "refused": ("reply", ("create_work_order",)),
        "confirmed": ("work_order", ("create_work_order", "escalate", "WorkOrder")),
        "budget": ("model_limit", ("lookup_customer",) * 3),
        "two_at_once": ("work_order", structured),
    }
