"""Day 15, the capstone: a guarded work-order agent, its pieces, its conversations, and upstream's
results of those conversations recorded as data.

The agent (seeds 002 and 003 put together): three tools (look a customer up, create a work order,
escalate it), a ``@dynamic_prompt`` that projects the current order from the state into the
system message, a budget (``ModelCallLimitMiddleware``, ``ToolCallLimitMiddleware``), a
``wrap_tool_call`` guardrail that refuses ``escalate`` until the user confirmed, tool errors fed
back to the model, and a structured ``WorkOrder`` result (``ToolStrategy``).

* :func:`work_order_tools`, :class:`WorkOrder`, :func:`state_schema`: the given pieces, built on
  either side (``lib`` is ``miniagent_course.sides.mini()`` or ``upstream()``).
* :func:`order_prompt`, :func:`guard_escalation`: the reference of the learner's two pieces.
* :func:`build` assembles the agent on a side from given pieces; :func:`build_agent` is the
  reference of the learner's ``build_agent(model)`` (miniagent only).
* :data:`CONVERSATIONS` and :func:`outcome`: each scripted conversation run once, and what one
  can observe of it (the messages, what each model call was told, the structured result).
* ``instructor/recorded.json`` (:data:`RECORDING`): :func:`outcome` of every conversation on
  upstream's ``create_agent`` with the same pieces. The graders compare the learner's agent with
  it and never import upstream; ``instructor/test_day15_capstone_diff.py`` records it again.
  Re-record after changing a conversation::

      python -m miniagent_course.grading.recording day15

* :func:`ending`: how a conversation ended, the form of part 2's predictions; the graders read
  it from the recording.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pydantic import BaseModel, Field
from typing_extensions import NotRequired

from miniagent_course.grading.recording import Recording

RECORDED = Path(__file__).parent / "instructor" / "recorded.json"

CUSTOMERS = {
    "C-1": {"name": "Ana Lima", "site": "Porto plant", "plan": "gold"},
    "C-2": {"name": "Ben Okafor", "site": "Lagos depot", "plan": "basic"},
}
RULES = "You handle maintenance work orders. Escalate only when the user asks."
NEEDS_CONFIRMATION = "escalate needs the user's confirmation first."
MODEL_CALLS = 4  # the run's model-call budget
TOOL_CALLS = 3  # the run's tool-call budget


class WorkOrder(BaseModel):
    """The agent's final answer: the work order it handled."""

    order_id: str = Field(description="The work order's id, e.g. WO-1")
    customer_id: str = Field(description="The customer's id, e.g. C-1")
    priority: str = Field(description="low, normal or high")
    escalated: bool = Field(description="Whether the order was escalated")


# --- the given pieces, on either side ----------------------------------------------------------


def _lib(lib: SimpleNamespace) -> SimpleNamespace:
    """What the capstone needs of the side ``lib`` names."""
    if lib.name == "miniagent":
        from miniagent.agents import create_agent
        from miniagent.agents import middleware as mw
        from miniagent.agents.structured_output import ToolStrategy
        from miniagent.messages import AIMessage, ToolMessage
        from miniagent.prebuilt import ToolRuntime
        from miniagent.testing import ScriptedChatModel
        from miniagent.tools import ToolException, tool
        from miniagent.types import Command
    else:
        from langchain.agents import create_agent
        from langchain.agents import middleware as mw
        from langchain.agents.structured_output import ToolStrategy
        from langchain.tools import ToolRuntime
        from langchain_core.messages import AIMessage, ToolMessage
        from langchain_core.tools import ToolException, tool
        from langgraph.types import Command

        from miniagent_course.lab.upstream_fakes import ScriptedChatModel
    return SimpleNamespace(
        create_agent=create_agent,
        mw=mw,
        ToolStrategy=ToolStrategy,
        AIMessage=AIMessage,
        ToolMessage=ToolMessage,
        ToolRuntime=ToolRuntime,
        ScriptedChatModel=ScriptedChatModel,
        ToolException=ToolException,
        tool=tool,
        Command=Command,
    )


def state_schema(lib: SimpleNamespace) -> Any:
    """The agent's state: the messages, the current order, and the user's confirmation."""

    class WorkOrderState(_lib(lib).mw.AgentState):
        current_order: NotRequired[dict]
        confirmed: NotRequired[bool]

    return WorkOrderState


_TOOLS: dict[tuple[Any, ...], list[Any]] = {}


def work_order_tools(lib: SimpleNamespace) -> list[Any]:
    """``lookup_customer`` (fails for an unknown id, the error goes back to the model),
    ``create_work_order`` (saves the order into the state) and ``escalate`` (the risky one).

    Made once per side and handed out as copies (reading a function's schema is most of the
    cost; a copy changed by one run is not seen by the next)."""
    ns = _lib(lib)
    key = (ns.tool, ns.ToolException, ns.ToolMessage, ns.Command, ns.ToolRuntime)
    if key not in _TOOLS:
        _TOOLS[key] = _make_tools(ns)
    return [copy.copy(made) for made in _TOOLS[key]]


def _make_tools(ns: SimpleNamespace) -> list[Any]:

    @ns.tool
    def lookup_customer(customer_id: str) -> str:
        """Look a customer up by id (C-1, C-2, ...)."""
        if customer_id not in CUSTOMERS:
            raise ns.ToolException(f"No customer {customer_id}. Ask the user for the id.")
        return json.dumps({"id": customer_id, **CUSTOMERS[customer_id]})

    lookup_customer.handle_tool_error = True  # a ToolException becomes the tool's answer

    def create_work_order(customer_id: str, title: str, priority: str, runtime: Any) -> Any:
        """Create the work order for a customer; priority is low, normal or high."""
        order = {"id": "WO-1", "customer_id": customer_id, "title": title, "priority": priority}
        summary = f"Created WO-1 for {customer_id}."
        message = ns.ToolMessage(summary, tool_call_id=runtime.tool_call_id)
        return ns.Command(update={"current_order": order, "messages": [message]})

    # the side's ToolRuntime (injected, hidden from the model); this module's annotations are
    # strings, so the real class is set before the schema is read
    create_work_order.__annotations__ = {
        "customer_id": str,
        "title": str,
        "priority": str,
        "runtime": ns.ToolRuntime,
        "return": Any,
    }
    create_work_order = ns.tool(create_work_order)

    @ns.tool
    def escalate(order_id: str, reason: str) -> str:
        """Escalate a work order to the on-call lead (pages a person: only on request)."""
        return f"Escalated {order_id} to the on-call lead: {reason}"

    return [lookup_customer, create_work_order, escalate]


# --- the reference of the learner's pieces -----------------------------------------------------


def order_prompt(request: Any) -> str:
    """The system message of this model call: the rules, then the current order from the state."""
    order = request.state.get("current_order")
    if not order:
        return f"{RULES}\nNo current order yet."
    return f"{RULES}\nCurrent order: {json.dumps(order, sort_keys=True)}"


def guard_escalation(request: Any, handler: Callable[[Any], Any]) -> Any:
    """``wrap_tool_call``: ``escalate`` answers with an error until the state says confirmed."""
    from miniagent.messages import ToolMessage

    call = request.tool_call
    if call["name"] == "escalate" and not request.state.get("confirmed"):
        return ToolMessage(
            NEEDS_CONFIRMATION, tool_call_id=call["id"], name=call["name"], status="error"
        )
    return handler(request)


# --- the agent ---------------------------------------------------------------------------------


def _on_side(ns: SimpleNamespace, guard: Callable[..., Any]) -> Callable[..., Any]:
    """The guard as a ``wrap_tool_call`` of the side: upstream, a miniagent ``ToolMessage`` the
    guard returns is handed on as upstream's (same fields); what ``handler`` returns passes."""
    if ns.lib.name == "miniagent":
        return guard

    def on_upstream(request: Any, handler: Callable[[Any], Any]) -> Any:
        from miniagent.messages import ToolMessage

        result = guard(request, handler)
        if isinstance(result, ToolMessage):
            fields = ("content", "tool_call_id", "name", "status", "id")
            return ns.ToolMessage(**{f: getattr(result, f) for f in fields})
        return result

    return on_upstream


def build(
    lib: SimpleNamespace,
    model: Any,
    prompt: Callable[[Any], str] = order_prompt,
    guard: Callable[..., Any] = guard_escalation,
) -> Any:
    """The capstone agent on the side ``lib``, from the given prompt and guardrail functions."""
    ns = _lib(lib)
    ns.lib = lib
    middleware = [
        ns.mw.dynamic_prompt(prompt),
        ns.mw.wrap_tool_call(_on_side(ns, guard)),
        ns.mw.ModelCallLimitMiddleware(run_limit=MODEL_CALLS, exit_behavior="end"),
        ns.mw.ToolCallLimitMiddleware(run_limit=TOOL_CALLS),
    ]
    return ns.create_agent(
        model,
        tools=work_order_tools(lib),
        middleware=middleware,
        state_schema=state_schema(lib),
        response_format=ns.ToolStrategy(WorkOrder),
    )


def build_agent(model: Any) -> Any:
    """The reference of the learner's ``build_agent``: the capstone on miniagent, spelled out.

    :func:`build` is the same assembly on either side; the differential test keeps them equal.
    """
    from miniagent.agents import create_agent
    from miniagent.agents.middleware import (
        ModelCallLimitMiddleware,
        ToolCallLimitMiddleware,
        dynamic_prompt,
        wrap_tool_call,
    )
    from miniagent.agents.structured_output import ToolStrategy
    from miniagent_course.sides import mini

    return create_agent(
        model,
        tools=work_order_tools(mini()),
        middleware=[
            dynamic_prompt(order_prompt),
            wrap_tool_call(guard_escalation),
            ModelCallLimitMiddleware(run_limit=MODEL_CALLS, exit_behavior="end"),
            ToolCallLimitMiddleware(run_limit=TOOL_CALLS),
        ],
        state_schema=state_schema(mini()),
        response_format=ToolStrategy(WorkOrder),
    )


# --- the scripted conversations ----------------------------------------------------------------


def _call(name: str, i: int, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args, "id": f"call_{i}", "type": "tool_call"}


LOOKUP_1 = ("lookup_customer", {"customer_id": "C-1"})
LOOKUP_2 = ("lookup_customer", {"customer_id": "C-2"})
LOOKUP_9 = ("lookup_customer", {"customer_id": "C-9"})
CREATE_1 = (
    "create_work_order",
    {"customer_id": "C-1", "title": "Pump leaks", "priority": "high"},
)
ESCALATE = ("escalate", {"order_id": "WO-1", "reason": "the line is down"})


def _result(escalated: bool) -> tuple[str, dict[str, Any]]:
    args = {"order_id": "WO-1", "customer_id": "C-1", "priority": "high", "escalated": escalated}
    return ("WorkOrder", args)


# key -> (the user's message, extra input keys, the model's replies in order: a tuple of
# (tool, args) pairs is one reply calling those tools, a string a plain reply).
CONVERSATIONS: dict[str, tuple[str, dict[str, Any], list[Any]]] = {
    "happy": (
        "C-1 reports a leaking pump, high priority.",
        {},
        [(LOOKUP_1,), (CREATE_1,), (_result(False),)],
    ),
    "unknown_customer": (
        "Customer C-9 has a leaking pump.",
        {},
        [(LOOKUP_9,), (LOOKUP_1,), (CREATE_1,), (_result(False),)],
    ),
    "refused": (
        "C-1's pump leaks and the line is down: open an order and escalate it.",
        {},
        [(CREATE_1,), (ESCALATE,), "I need your confirmation before I page the on-call lead."],
    ),
    "confirmed": (
        "C-1's pump leaks and the line is down: open an order and escalate it. I confirm.",
        {"confirmed": True},
        [(CREATE_1,), (ESCALATE,), (_result(True),)],
    ),
    "budget": (
        "Compare customers C-1 and C-2 twice over.",
        {},
        [(LOOKUP_1,), (LOOKUP_2,), (LOOKUP_1,), (LOOKUP_2,), "never said"],
    ),
    "two_at_once": (
        "Open an order for C-1 and escalate it now.",
        {},
        [(LOOKUP_1, ESCALATE), (CREATE_1,), (_result(False),)],
    ),
}


def script(lib: SimpleNamespace, key: str) -> list[Any]:
    """The model's replies of a conversation, as the side's ``AIMessage``s."""
    ns = _lib(lib)
    replies: list[Any] = []
    for i, reply in enumerate(CONVERSATIONS[key][2], 1):
        if isinstance(reply, str):
            replies.append(ns.AIMessage(reply, id=f"ai_{i}"))
            continue
        calls = [_call(name, 10 * i + j, **args) for j, (name, args) in enumerate(reply)]
        replies.append(ns.AIMessage("", id=f"ai_{i}", tool_calls=calls))
    return replies


def scripted_model(lib: SimpleNamespace, key: str) -> Any:
    """A fake chat model of the side that answers the conversation's replies in order."""
    return _lib(lib).ScriptedChatModel(script(lib, key))


def _row(message: Any) -> list[Any]:
    row = [message.type, message.content]
    if message.type == "ai":
        row.append([[c["name"], c["args"]] for c in message.tool_calls])
    if message.type == "tool":
        row += [message.name, message.status]
    return row


def outcome(agent: Any, model: Any, key: str) -> dict[str, Any]:
    """Run the conversation once on ``agent`` (built on ``model``); what one can observe.

    ``messages``: the final state's messages as rows (type, content, then the calls of an AI
    message, or the name and status of a tool message); ``prompts``: the system message of each
    model call; ``structured``: the ``structured_response`` as a dict, or ``None``;
    ``order``: the state's ``current_order``.
    """
    text, extra, _ = CONVERSATIONS[key]
    out = agent.invoke({"messages": [{"role": "user", "content": text, "id": "h1"}], **extra})
    prompts = []
    for call in model.calls:
        first = call["messages"][0]
        prompts.append(first.content if first.type == "system" else None)
    structured = out.get("structured_response")
    return json.loads(
        json.dumps(
            {
                "messages": [_row(m) for m in out["messages"]],
                "prompts": prompts,
                "structured": structured.model_dump() if structured is not None else None,
                "order": out.get("current_order"),
            }
        )
    )


def run(lib: SimpleNamespace, key: str, **pieces: Any) -> dict[str, Any]:
    """:func:`outcome` of the conversation on the capstone built on ``lib`` from ``pieces``."""
    model = scripted_model(lib, key)
    return outcome(build(lib, model, **pieces), model, key)


# --- run it against your model ----------------------------------------------------------------


def with_your_model(
    text: str, *, confirmed: bool = False, build: Callable[[Any], Any] | None = None
) -> tuple[dict[str, Any], Any]:
    """One turn of the capstone on the model ``MINIAGENT_MODEL`` names, traced.

    Any OpenAI-compatible endpoint: ``MINIAGENT_MODEL=openai:<model>``, ``OPENAI_BASE_URL`` and
    ``OPENAI_API_KEY`` (see ``miniagent_course.models``). ``build`` is your ``build_agent`` (the
    reference's by default). Returns the final state and the ``PayloadTracer``, whose ``calls``
    hold the request body of every model call.
    """
    from miniagent_course.models import course_model, named_model
    from miniagent_course.tracer import PayloadTracer

    if named_model() is None:
        raise RuntimeError("name a model first: MINIAGENT_MODEL=openai:<model> (and a base URL)")
    tracer = PayloadTracer()
    agent = (build or build_agent)(course_model(None, temperature=0, max_retries=0))
    inputs = {"messages": [{"role": "user", "content": text}], "confirmed": confirmed}
    return agent.invoke(inputs, {"callbacks": [tracer]}), tracer


# --- part 2: how each conversation ends --------------------------------------------------------

ENDINGS = ("work_order", "reply", "model_limit")


def ending(result: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    """How a run ended, and the tools that answered successfully, in order."""
    last = result["messages"][-1]
    if result["structured"] is not None:
        how = "work_order"
    elif last[0] == "ai" and last[1].startswith("Model call limits exceeded"):
        how = "model_limit"
    else:
        how = "reply"
    ok = tuple(m[2] for m in result["messages"] if m[0] == "tool" and m[3] == "success")
    return how, ok


# --- the recording -----------------------------------------------------------------------------


def upstream_results(side: SimpleNamespace) -> dict[str, Any]:
    """Upstream's outcome of every conversation, computed on ``side`` (the recording)."""
    return {key: run(side, key) for key in CONVERSATIONS}


RECORDING = Recording(RECORDED, upstream_results)
record = RECORDING.record  # the outcomes afresh (contributors: needs the pinned packages)
recorded = RECORDING.recorded  # the outcomes as the file holds them
