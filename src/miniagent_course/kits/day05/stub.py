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

    ``prompt`` is what the user passed to ``create_react_agent(..., prompt=...)``. The agent
    calls this function once, when it is built, and pipes the result into the model
    (``_get_prompt_runnable(prompt) | model``). What each kind of prompt must become:

    * ``None`` (only ``None``: an empty string is a string): the state's messages, unchanged.
    * a ``str``: ``SystemMessage(content=prompt)`` in front of the state's messages. The message
      is made when this function runs, so every call puts the same object in front.
    * a ``SystemMessage``: that very object in front of the state's messages.
    * an ``async def`` function (it is callable too, but counts as async): an async-only
      Runnable. ``ainvoke`` awaits ``prompt(state)``; ``invoke`` fails with the
      ``TypeError`` that ``RunnableCallable`` raises when it has no sync function
      (``No synchronous function provided to "Prompt". ...``).
    * any other callable: ``prompt(state)`` with the whole state, every key of it; whatever it
      returns goes to the model as it is. A function that declares a parameter named
      ``config``, ``runtime`` or ``store`` must receive it, as ``RunnableCallable`` injects it.
    * a ``Runnable`` that is not callable: the user's own object, unwrapped, with its own name.
    * anything else (a number, a dict, a list of messages...): raise at once, while the agent is
      built, ``ValueError(f"Got unexpected type for `prompt`: {type(prompt)}")``; for 123 the
      text is ``Got unexpected type for `prompt`: <class 'int'>``.

    Every Runnable you build yourself is a ``RunnableCallable`` named ``PROMPT_RUNNABLE_NAME``
    (``"Prompt"``). The state may be a dict or a pydantic object: read the messages with
    ``_get_state_value(state, "messages")``. Never change the state or its list: the prompt
    shapes the model's input, it is not stored.

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
    Work it out from the lesson before you run the notebook's table: the graders run the agent.
    """
    # TODO(day05): replace the line below with `return {"none": [...], ..., "message_list": ...}`.
    raise NotStarted("day05")
