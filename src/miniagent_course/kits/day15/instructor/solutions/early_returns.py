"""Day 15, solved with early returns and a conditional expression: the prompt picks its last
line in one expression, the guard returns the tool's answer first, and the middleware list is
built step by step."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from miniagent.agents import create_agent
from miniagent.agents.middleware import (
    ModelCallLimitMiddleware,
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

TOOLS = work_order_tools(mini())
WorkOrderState = state_schema(mini())


def order_prompt(request: Any) -> str:
    order = request.state.get("current_order") or None
    last = "No current order yet." if order is None else f"Current order: {_as_json(order)}"
    return f"{RULES}\n{last}"


def _as_json(order: dict[str, Any]) -> str:
    return json.dumps(dict(sorted(order.items())))


def _is_unconfirmed_escalation(request: Any) -> bool:
    return request.tool_call["name"] == "escalate" and request.state.get("confirmed") is not True


def guard_escalation(request: Any, handler: Callable[[Any], Any]) -> Any:
    if not _is_unconfirmed_escalation(request):
        return handler(request)
    call_id, name = request.tool_call["id"], request.tool_call["name"]
    return ToolMessage(NEEDS_CONFIRMATION, tool_call_id=call_id, name=name, status="error")


def build_agent(model: Any) -> Any:
    middleware: list[Any] = []
    middleware.append(dynamic_prompt(order_prompt))
    middleware.append(wrap_tool_call(guard_escalation))
    middleware.append(ModelCallLimitMiddleware(run_limit=MODEL_CALLS))  # "end" is the default
    middleware.append(ToolCallLimitMiddleware(run_limit=TOOL_CALLS))
    return create_agent(
        model,
        TOOLS,
        middleware=middleware,
        response_format=ToolStrategy(WorkOrder),
        state_schema=WorkOrderState,
    )


def predictions() -> dict[str, tuple[str, tuple[str, ...]]]:
    table: dict[str, tuple[str, tuple[str, ...]]] = {}
    for key in ("happy", "unknown_customer", "two_at_once"):
        table[key] = ("work_order", ("lookup_customer", "create_work_order", "WorkOrder"))
    table["refused"] = ("reply", ("create_work_order",))
    table["confirmed"] = ("work_order", ("create_work_order", "escalate", "WorkOrder"))
    table["budget"] = ("model_limit", ("lookup_customer", "lookup_customer", "lookup_customer"))
    return table
