"""Day 14: the last step of context assembly, a message as the provider receives it.

Lesson:    course/days/day14-context-assembly.md
Notebook:  notebooks/day14_context_assembly.ipynb
Check:     miniagent check day14        Stuck?  miniagent hint day14

Two parts, graded separately:

(1) ``_convert_message_to_dict``: one message as the dict the Chat Completions API receives
    (``miniagent/openai/chat_models/base.py``; upstream ``langchain_openai/chat_models/base.py:476``).
    Graded against langchain-openai's own conversions, recorded as data; then put into
    ``ChatOpenAI``'s payload builder, so the tracer shows your payload for a whole agent run.
(2) ``predictions``, read alone: ``SummarizationMiddleware._find_safe_cutoff_point`` in the
    installed langchain, which no page explains; for eleven cuts of small histories, the index
    it returns.
"""

from __future__ import annotations

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


# --- part 2, read alone: where a summary may cut ------------------------------------------------


def predictions() -> dict[str, int]:
    """What ``SummarizationMiddleware._find_safe_cutoff_point(messages, cutoff_index)`` returns
    for eleven histories and cuts, from your reading of it in the installed package::

        python -c "import inspect; from langchain.agents.middleware.summarization import SummarizationMiddleware as S; print(inspect.getsource(S._find_safe_cutoff_point))"

    A history is written one message a token, numbered from 0: ``H`` a ``HumanMessage``, ``A`` an
    ``AIMessage`` without tool calls, ``A[a,b]`` an ``AIMessage`` whose ``tool_calls`` have the
    ids ``"a"`` and ``"b"``, ``T(a)`` a ``ToolMessage`` with ``tool_call_id="a"``. The cut is the
    ``cutoff_index`` given::

        key                    history                          cut
        at_a_question          H A[a] T(a) A H A                  4
        at_the_end             H A[a] T(a) H A                    5
        at_the_call            H A H A[a] T(a) A                  3
        at_a_result            H A[a] T(a) H                      2
        at_the_second_result   H A H A[a,b] T(a) T(b) A           5
        past_a_plain_reply     H A[a] A T(a) H                    3
        past_another_call      H A H A[a] A[b] T(b) T(a) A        6
        orphans                H T(x) T(y) H A                    1
        orphan_first           T(x) H A                           0
        orphan_after_a_pair    H A[a] T(a) T(z) H                 3
        mixed_run              H A[a] T(a) A[b] T(z) T(b) H       4

    Return a literal dict with all eleven keys, each the ``int`` the function returns. Its
    shape (placeholders, not answers): ``{"at_a_question": 42, ...}``. Predict by reading: the
    graders compare with upstream's own results, recorded.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the function returns.
    """
    # TODO(day14): replace the line below with `return {"at_a_question": ..., ...}`.
    raise NotStarted("day14")
