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

    Input: ``message``, a ``HumanMessage``, ``AIMessage``, ``SystemMessage`` or ``ToolMessage``.

    Output: a dict with the keys ``content``, then ``name``, then ``role``, then the role's extras:

    * ``content`` -- the content as the API takes it: a string stays a string, a list of content
      blocks is filtered and converted (``_format_message_content``, imported above, does that);
    * ``name`` -- ``message.name``, or else ``message.additional_kwargs["name"]``; the key is
      there only when the one found is not ``None``;
    * ``role`` -- ``"user"``, ``"assistant"``, ``"tool"``, or for a ``SystemMessage``
      ``"system"``, unless its ``additional_kwargs["__openai_role__"]`` names another
      (``"developer"``);
    * an ``AIMessage`` with ``tool_calls`` or ``invalid_tool_calls``: ``"tool_calls"``, the valid
      ones then the invalid ones, in the API's shape (the two ``_lc_..._to_openai_tool_call``
      helpers imported above convert one each). Without either: the raw calls of
      ``additional_kwargs["tool_calls"]``, each cut to its ``id``, ``type`` and ``function``, or
      else ``additional_kwargs["function_call"]`` as ``"function_call"``. With tool calls or a
      function call sent, an empty content (``""``, ``[]``) is ``None``. (Audio replies: not
      graded, leave them out.)
    * a ``ToolMessage``: only ``content`` (text blocks cut to ``type`` and ``text``:
      ``_sanitize_chat_completions_content``), ``role`` and ``"tool_call_id"``.

    Nothing else is sent: not the ``id``, not the other ``additional_kwargs``.

    Error: any other message class raises ``TypeError(f"Got unknown type {message}")``.

    >>> _convert_message_to_dict(HumanMessage("hi", name="ada", id="h1"))
    {'content': 'hi', 'name': 'ada', 'role': 'user'}

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
    ``{"plain": [("user", "hi")], ...}``. Predict from the lesson: the graders compare with real
    runs read by the tracer.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the real run gives.
    """
    # TODO(day14): replace the line below with `return {"plain": [...], ...}`.
    raise NotStarted("day14")
