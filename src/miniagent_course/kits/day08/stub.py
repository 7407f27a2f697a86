"""Day 08: write ``call_model``, the function behind the agent's ``agent`` node.

Lesson:    course/days/day08-call-model.md
Notebook:  notebooks/day08_call_model.ipynb
Check:     miniagent check day08        Stuck?  miniagent hint day08

Two parts, graded separately:

(1) ``make_call_model``: write the node function.
(2) ``predictions``: for ten situations, predict what the agent node does. The graders run each
    situation on the real agent and compare.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from miniagent.messages import AIMessage, BaseMessage
from miniagent.runnables import Runnable, RunnableConfig
from miniagent.runtime import Runtime
from miniagent_course.todo import NotStarted


def make_call_model(
    *,
    is_async_dynamic_model: bool,
    is_dynamic_model: bool,
    static_model: Runnable | None,
    name: str | None,
    get_model_input_state: Callable[[Any], Any],
    resolve_model: Callable[[Any, Runtime], Runnable],
    are_more_steps_needed: Callable[[Any, BaseMessage], bool],
) -> Callable[[Any, Runtime, RunnableConfig], dict[str, Any]]:
    """Build and return ``call_model(state, runtime, config)``, the sync ``agent`` node.

    ``create_react_agent`` defines ``call_model`` inside itself and closes over these values; here
    they arrive as arguments (the graders take them from a real agent).

    Input:

    * ``is_async_dynamic_model`` -- ``model`` was an ``async def`` callable;
    * ``is_dynamic_model`` -- ``model`` was a callable ``(state, runtime) -> chat model``;
    * ``static_model`` -- the ``prompt | model`` Runnable (``None`` when the model is dynamic);
    * ``name`` -- the agent's ``name=`` argument (may be ``None``);
    * ``get_model_input_state`` -- takes the state; gives the state the model must see, or
      raises ``ValueError`` for a broken history (Day 07);
    * ``resolve_model`` -- takes the state and the runtime; gives this step's ``prompt | model``
      for a dynamic model (Day 10);
    * ``are_more_steps_needed`` -- takes the state and the model's response; ``True`` when too
      few steps are left to act on it (Day 09).

    Output: the node, a function whose parameters are exactly ``(state, runtime, config)`` (the
    agent injects the runtime and the config by these names). For a ``state`` (a dict or a
    pydantic object) it returns the update ``{"messages": [message]}``: a one-element list
    holding only the new message, never the history or the model's input. The message is

    * the reply of this step's model (``static_model``, or the one ``resolve_model`` gives) to
      the state ``get_model_input_state`` prepared, called with the node's ``config``: the very
      object the model returned, its ``name`` now the agent's ``name`` (so ``name=None`` erases a
      name the model set);
    * or, when ``are_more_steps_needed`` says so for that named reply, a new ``AIMessage`` with
      the reply's ``id``, the content ``"Sorry, need more steps to process this request."`` and
      nothing else (no tool calls, no name).

    Each piece runs at most once per step; for a state ``get_model_input_state`` refuses, no
    model is resolved or called.

    Errors:

    * an async dynamic model on this sync path: ``RuntimeError`` with exactly ``"Async model
      callable provided but agent invoked synchronously. Use agent.ainvoke() or agent.astream(),
      or provide a sync model callable."`` (one line, one space after each full stop), before any
      piece runs;
    * what ``get_model_input_state`` raises, unchanged.

    >>> from miniagent.runnables import RunnableLambda
    >>> model = RunnableLambda(lambda state: AIMessage("hi", id="r1", name="bot"))
    >>> node = make_call_model(
    ...     is_async_dynamic_model=False, is_dynamic_model=False, static_model=model,
    ...     name="helper", get_model_input_state=lambda state: state,
    ...     resolve_model=None, are_more_steps_needed=lambda state, reply: False)
    >>> [(m.content, m.name, m.id) for m in node({"messages": []}, None, {})["messages"]]
    [('hi', 'helper', 'r1')]

    How and why, gate by gate: the lesson's "Read the source" and "Line by line".
    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:661`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day08): define call_model(state, runtime, config) here and return it.
    raise NotStarted("day08")


# --- part 2: predict what the agent node does -------------------------------------------------


def predictions() -> dict[str, tuple[int, str, str | None]]:
    """Your prediction of what the ``agent`` node does in each of ten situations.

    Each situation is one run of ``create_react_agent(model, [add], ...)`` in which the agent
    node runs once. Unless its line below says otherwise, the model is a static chat model, the
    agent has no ``name`` and no ``pre_model_hook``, the recursion limit is the default, the run
    is ``agent.invoke(...)``, the history is one question, and the model replies
    ``AIMessage("2 + 3 = 5", name="bot")``. A callable ``model`` returns that same chat model,
    with the tools bound.

    * ``async_model_ainvoke`` -- ``model`` is an ``async def`` callable; the run is
      ``agent.ainvoke(...)``;
    * ``async_model_unanswered_call`` -- ``model`` is an ``async def`` callable; the history
      ends with an AI tool call that has no answer;
    * ``async_model_unanswered_call_ainvoke`` -- the same, and the run is ``agent.ainvoke(...)``;
    * ``unanswered_call`` -- the history ends with an AI tool call that has no answer;
    * ``dynamic_model_unanswered_call`` -- the same, and ``model`` is a sync callable;
    * ``hook_hides_unanswered_call`` -- the history is a question, an unanswered tool call and a
      second question; a ``pre_model_hook`` returns ``{"llm_input_messages": [last message]}``;
    * ``unnamed_agent`` -- nothing else (the baseline);
    * ``named_agent`` -- ``name="helper"``;
    * ``tool_call_one_step_left`` -- ``name="helper"``, ``recursion_limit=2`` (so the node sees
      ``remaining_steps == 1``), and the model replies ``AIMessage("let me add", name="bot",
      tool_calls=[a call of add])``;
    * ``answer_one_step_left`` -- ``name="helper"``, ``recursion_limit=2``.

    For each key give ``(gate, text, name)``. ``gate`` is where the node stops, numbered as in
    the lesson: 1 the async guard, 2 the input state, 3 the model, 4 the name, 5 the more-steps
    check (the Sorry reply), 6 the normal update. Then:

    * if the run raises: ``(gate, "ErrorTypeName", None)``, e.g. ``(3, "KeyError", None)``;
    * if the node returns its update: ``(gate, content, name)`` of the one message in it.

    Return a literal dict with all ten keys. Its shape (the values are placeholders, not
    answers): ``{"async_model_ainvoke": (4, "hi", "bot"), ...}``. Predict from the lesson: the
    graders run each situation and compare.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the real run gives.
    """
    # TODO(day08): replace the line below with `return {"async_model_ainvoke": (...), ...}`.
    raise NotStarted("day08")
