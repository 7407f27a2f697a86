"""Day 13: ``create_agent`` and middleware -- compose the model-call onion, and guard a booking.

Lesson:    course/days/day13-create-agent.md
Notebook:  notebooks/day13_create_agent.ipynb
Check:     miniagent check day13        Stuck?  miniagent hint day13

Two parts, graded separately:

(1) ``_chain_model_call_handlers``: turn the ``wrap_model_call`` hooks of several middleware
    into the one function the ``model`` node calls.
(2) Extend: ``guard_request`` and ``guard_tool_call``, the two hooks of a
    ``ConfirmBeforeBooking`` guardrail. Upstream has none; the contract is in the docstrings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from miniagent.agents.factory import _ComposedExtendedModelResponse, _normalize_to_model_response
from miniagent.agents.middleware import ExtendedModelResponse, ModelRequest, ModelResponse
from miniagent.messages import AIMessage, HumanMessage, ToolMessage
from miniagent.types import Command
from miniagent_course.todo import NotStarted


def _chain_model_call_handlers(
    handlers: Sequence[Callable[..., Any]],
) -> Callable[..., _ComposedExtendedModelResponse] | None:
    """Compose ``wrap_model_call`` handlers into one, the first handler the outermost layer.

    Input: ``handlers``, the ``wrap_model_call`` hooks of the agent's middleware in registration
    order (``create_agent`` calls this once, with ``[m.wrap_model_call for m in middleware]``).
    Each is ``handler(request, call_next)``: it may call ``call_next`` zero times (it answers
    itself), once, or several times (a retry), with the request it got or a changed one
    (``request.override(...)``), and returns a ``ModelResponse``, a bare ``AIMessage`` or an
    ``ExtendedModelResponse(model_response, command)``.

    Output: ``None`` for no handlers (the ``model`` node then calls the model directly);
    otherwise ``composed(request, execute_model) -> _ComposedExtendedModelResponse``, which the
    node calls with the real model call ``execute_model(request) -> ModelResponse``. Within it:

    * with ``handlers == [a, b, c]``, ``a`` gets the request and a ``call_next`` that runs ``b``,
      ``b``'s runs ``c``, and ``c``'s is ``execute_model``;
    * what a layer's ``call_next`` gives back is always a plain ``ModelResponse``;
    * the result's ``model_response`` is the outermost layer's answer, as a ``ModelResponse``;
      its ``commands`` are the ``command`` of every ``ExtendedModelResponse`` a layer returned
      (``None`` skipped), the innermost first, the outermost last; when a layer calls
      ``call_next`` several times, only the commands of its last call count;
    * with a single handler, the result is still a ``_ComposedExtendedModelResponse``.

    Errors: none of its own; what a layer or the model raises reaches the layer outside it.

    >>> def outer(request, call_next):
    ...     return call_next(request)
    >>> def inner(request, call_next):
    ...     return AIMessage("inner answers itself")
    >>> composed = _chain_model_call_handlers([outer, inner])
    >>> composed(None, lambda request: AIMessage("the model")).model_response.result[0].content
    'inner answers itself'

    Why the first is outermost, and what a layer's retry does to the inner commands: the lesson,
    *Read the source* and *Edge cases and surprises*.
    Upstream: ``langchain/agents/factory.py:284`` (langchain 1.5.2).
    """
    # TODO(day13): return None, or the composed handler.
    raise NotStarted("day13")


# --- part 2: extend ---------------------------------------------------------------------------

GUARDED_TOOL = "book_hotel"
BLOCKED_PHRASES = ("directly", "without asking")
REFUSAL = "I can't make a risky booking for you directly."
NEEDS_CONFIRMATION = "book_hotel needs the user's confirmation first."


def guard_request(state: dict[str, Any]) -> dict[str, Any] | None:
    """``ConfirmBeforeBooking.before_model``: stop a blocked request before any model call.

    The middleware declares ``can_jump_to=["end"]`` and runs this before every model call.

    * Input: the agent's state, a dict whose ``"messages"`` is the history (maybe empty).
    * Blocked: the *last* message of the history is a ``HumanMessage`` whose text contains one
      of ``BLOCKED_PHRASES``, ignoring case. An earlier blocked message does not count (the
      user has written since), nor a tool result in the last place (the loop's second round).
    * Blocked -> return ``{"messages": [AIMessage(REFUSAL)], "jump_to": "end"}``: the refusal
      is the reply and the model is never called. Seed 003's guardrail forgot the jump.
    * Otherwise -> ``None`` (no update). Never raise.
    """
    # TODO(day13): part 2, refuse a blocked request and end the run.
    raise NotStarted("day13")


def guard_tool_call(request: Any, handler: Callable[[Any], Any]) -> Any:
    """``ConfirmBeforeBooking.wrap_tool_call``: refuse the guarded tool until confirmed.

    * Input: a ``ToolCallRequest`` (``request.tool_call`` is the call dict with ``"name"``,
      ``"args"``, ``"id"``; ``request.state`` is the agent's state dict) and ``handler``, which
      runs the tool.
    * The call names ``GUARDED_TOOL`` and ``request.state`` has no true ``"user_confirmed"``
      -> do not run the tool; return ``ToolMessage(NEEDS_CONFIRMATION, tool_call_id=<the
      call's id>, name=<the call's name>, status="error")``, so the model reads why.
    * Any other call, or the user confirmed -> return ``handler(request)`` unchanged.
    """
    # TODO(day13): part 2, refuse book_hotel until the state says confirmed.
    raise NotStarted("day13")
