"""Day 05: turn any ``prompt`` a user may pass into one Runnable: state -> model input.

Lesson:    course/days/day05-prompt.md
Notebook:  notebooks/day05_prompt.ipynb
Check:     miniagent check day05        Stuck?  miniagent hint day05

Two tasks, graded separately:

(a) ``_get_prompt_runnable``: the function ``create_react_agent`` calls on its ``prompt``.
(b) ``predictions``: before you run the notebook's table, predict what the model is sent for
    thirteen prompts, or which error the run raises. The graders run the real agent.
"""

from __future__ import annotations

import inspect  # noqa: F401  (you will need it)
from typing import Any

from miniagent.messages import SystemMessage  # noqa: F401
from miniagent.prebuilt.chat_agent_executor import (  # noqa: F401
    PROMPT_RUNNABLE_NAME,
    _get_state_value,
)
from miniagent.runnables import Runnable, RunnableCallable  # noqa: F401
from miniagent_course.todo import NotStarted


def _get_prompt_runnable(prompt: Any) -> Runnable:
    """Return a Runnable that maps the agent's state to what the model must see.

    Input: ``prompt``, what the user passed to ``create_react_agent(..., prompt=...)``. The agent
    calls this function once, when it is built, and pipes the result into the model
    (``_get_prompt_runnable(prompt) | model``).

    Output: a Runnable whose input is the agent's state (a dict or a pydantic object) and whose
    output, for each kind of ``prompt``, is:

    * ``None``: the state's messages, unchanged;
    * a ``str``: a ``SystemMessage`` with that content in front of the state's messages, made
      once, when this function runs (every call puts the same object in front);
    * a ``SystemMessage``: that very object in front of the state's messages;
    * an ``async def`` function: what it returns for the whole state; the Runnable is async-only
      (``ainvoke``), with no sync function;
    * any other callable: what it returns for the whole state, as it is; a parameter named
      ``config``, ``runtime`` or ``store`` gets what ``RunnableCallable`` injects;
    * a ``Runnable`` that is not callable: the user's own object, as it is.

    Every Runnable you build yourself is a ``RunnableCallable`` named ``PROMPT_RUNNABLE_NAME``
    (``"Prompt"``). The state and its list of messages are never changed.

    Error: any other ``prompt`` raises at once, while the agent is built,
    ``ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")``; for 123 the text is
    ``Got unexpected type for `prompt`: <class 'int'>``.

    >>> _get_prompt_runnable("Be brief.").invoke({"messages": []})
    [SystemMessage(content='Be brief.', ...)]

    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:137`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day05): replace the line below with your code.
    raise NotStarted("day05")


def predictions() -> dict[str, list[tuple[str, str]] | str]:
    """Your prediction, for each prompt below, of what this run sends the model:

        model = ScriptedChatModel([AIMessage("ok")])        # records what it is sent
        agent = create_react_agent(model, [], prompt=PROMPT)
        agent.invoke({"messages": [("user", "hi")]},
                     {"configurable": {"lang": "fr"}},      # the run's config
                     context={"user": "Ada"})               # the run's context

    For each case give either the messages of the model's first call, as a list of
    ``(type, content)`` pairs (``[("system", "Be brief."), ("human", "hi")]``), or, if building
    the agent or running it raises, the name of the exception's class (``"KeyError"``).

    The prompts, by case name (``SystemMessage`` and ``RunnableLambda`` as in this file)::

        "none":           None
        "empty_str":      ""
        "str":            "Be brief."
        "system_message": SystemMessage("Be terse.")
        "function":       def state_keys(state):
                              return [SystemMessage(", ".join(sorted(state)))] + state["messages"]
        "returns_str":    def just_answer(state):
                              return "Just answer."
        "config":         def with_config(state, config):
                              lang = config["configurable"]["lang"]
                              return [SystemMessage(lang)] + state["messages"]
        "runtime":        def with_runtime(state, runtime):
                              return [SystemMessage(runtime.context["user"])] + state["messages"]
        "other_param":    def with_lang(state, lang):
                              return [SystemMessage(lang)] + state["messages"]
        "async_function": async def in_french(state):
                              return [SystemMessage("Answer in French.")] + state["messages"]
        "runnable":       RunnableLambda(lambda state: [("system", "Piped.")] + state["messages"])
        "int":            123
        "message_list":   [SystemMessage("Be brief.")]

    Return a literal table with one entry per case. Its shape (the values are placeholders, not
    answers): ``{"none": [("human", "?")], "empty_str": "KeyError", ..., "message_list": [...]}``.
    Work it out from the lesson: the graders run the agent.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the real run gives.
    """
    # TODO(day05): replace the line below with `return {"none": [...], ..., "message_list": ...}`.
    raise NotStarted("day05")
