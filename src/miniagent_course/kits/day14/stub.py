"""Day 14: the last step of context assembly, a message as the provider receives it.

Lesson:    course/days/day14-context-assembly.md
Notebook:  notebooks/day14_context_assembly.ipynb
Check:     miniagent check day14        Stuck?  miniagent hint day14

Two parts, graded separately:

(1) ``_convert_message_to_dict``: one message as the dict the Chat Completions API receives
    (``miniagent/openai/chat_models/base.py``; upstream ``langchain_openai/chat_models/base.py:476``).
    Graded against langchain-openai's own conversions, recorded as data; then put into
    ``ChatOpenAI``'s payload builder, so the tracer shows your payload for a whole agent run.
(2) ``predictions``: for seven small ``create_agent`` setups, predict the payload's ``messages``.
"""

from __future__ import annotations

from typing import Any

from miniagent.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from miniagent.openai.chat_models.base import (
    _format_message_content,
    _lc_invalid_tool_call_to_openai_tool_call,
    _lc_tool_call_to_openai_tool_call,
    _sanitize_chat_completions_content,
)
from miniagent_course.todo import NotStarted


def _convert_message_to_dict(message: BaseMessage) -> dict:
    """The dict Chat Completions receives for ``message``, keys in upstream's order.

    Keys, in this order: ``content``, then ``name``, then ``role``, then the role's extras.

    * ``content``: ``_format_message_content(message.content, role=message.type)`` (a string
      stays a string; a list of blocks is filtered and converted for you).
    * ``name``: ``message.name``, or else ``message.additional_kwargs["name"]``; the key is
      present only when the one found is not ``None``.
    * ``role``: ``"user"`` for a ``HumanMessage``, ``"assistant"`` for an ``AIMessage``,
      ``"tool"`` for a ``ToolMessage``; a ``SystemMessage`` is ``"system"`` unless its
      ``additional_kwargs["__openai_role__"]`` names another (``"developer"``).
    * An ``AIMessage`` with ``tool_calls`` or ``invalid_tool_calls`` gets ``"tool_calls"``: the
      valid ones then the invalid ones, each converted by ``_lc_tool_call_to_openai_tool_call`` /
      ``_lc_invalid_tool_call_to_openai_tool_call``. Without either, raw calls in
      ``additional_kwargs["tool_calls"]`` are sent, each cut to its ``id``, ``type`` and
      ``function`` keys; else an ``additional_kwargs["function_call"]`` is sent as
      ``"function_call"``. With ``tool_calls`` or ``function_call`` present, an empty content
      (``""``, ``[]``) is sent as ``None``. (Audio replies: not graded, leave them out.)
    * A ``ToolMessage`` keeps only ``content``, ``role`` and ``"tool_call_id"``; its content goes
      through ``_sanitize_chat_completions_content`` (text blocks cut to ``type`` and ``text``).
    * Nothing else is sent: not the ``id``, not the other ``additional_kwargs``.
    * Any other message class: ``TypeError(f"Got unknown type {message}")``.

    Upstream: ``_convert_message_to_dict`` (langchain_openai/chat_models/base.py:476).
    """
    # TODO(day14): replace the line below with your code.
    raise NotStarted("day14")


# --- part 2: predict what the model sees --------------------------------------------------------


def predictions() -> dict[str, list[tuple[str, Any]]]:
    """Your prediction of the payload's ``messages`` in the first model call of seven setups.

    Every setup is ``create_agent(model, tools=[], system_prompt=..., middleware=[...])`` whose
    model answers ``"ok"`` at once. ``BASE_PROMPT`` is ``"You handle work orders."``;
    ``ORDER`` is ``"WO-7: fix the pump, due Friday"``. ``HISTORY`` is the input::

        HumanMessage("Open WO-7")
        AIMessage("", tool_calls=[get_order(id=7), id "call_1"])
        ToolMessage(ORDER, tool_call_id="call_1", name="get_order")
        AIMessage("Checking.", tool_calls=[get_status(id=7), id "call_2"])
        ToolMessage("open", tool_call_id="call_2", name="get_status")
        HumanMessage("Move it to tomorrow")

    ``TRIM`` is ``ContextEditingMiddleware(edits=[ClearToolUsesEdit(trigger=10, keep=1)])``;
    ``QUOTE`` is a ``@dynamic_prompt`` returning ``f"First tool result: {first.content}"``, where
    ``first`` is the first ``ToolMessage`` of ``request.messages``.

    * ``plain`` -- no system prompt, no middleware, input ``[HumanMessage("Move it to tomorrow")]``;
    * ``system_prompt`` -- the same input, ``system_prompt=BASE_PROMPT``;
    * ``dynamic_prompt`` -- the same, plus a ``@dynamic_prompt`` returning
      ``f"{BASE_PROMPT}\\nCurrent order: {ORDER}"``;
    * ``tool_round`` -- ``system_prompt=BASE_PROMPT``, input ``HISTORY``;
    * ``trimmed`` -- the same, ``middleware=[TRIM]``;
    * ``prompt_outside_trim`` -- the same, ``middleware=[QUOTE, TRIM]``;
    * ``prompt_inside_trim`` -- the same, ``middleware=[TRIM, QUOTE]``.

    For each key give the payload's messages in order, one ``(role, content)`` tuple each:
    ``role`` as the API spells it (``"system"``, ``"user"``, ``"assistant"``, ``"tool"``),
    ``content`` as the payload holds it (a string, or ``None``).

    Return a literal dict with all seven keys. Its shape (placeholders, not answers):
    ``{"plain": [("user", "hi")], ...}``. Predict from the lesson before you run the notebook:
    the graders compare with real runs read by the tracer.
    """
    # TODO(day14): replace the line below with `return {"plain": [...], ...}`.
    raise NotStarted("day14")
