"""Day 05's second part: what reaches the model, for each kind of ``prompt``.

The graders grade a prediction by running it: for a prompt of :func:`prompts` they build a real
agent, run one turn, and record what the model was sent (:func:`what_the_model_sees`). The
learner predicts the table before running it.

Both helpers take ``lib``, a namespace of the names they use (``create_react_agent``,
``SystemMessage``, ``AIMessage``, ``RunnableLambda``, ``ScriptedChatModel``): miniagent's
here, upstream's in the differential test and in the notebook, so one scenario runs on both.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

RUN_INPUT = {"messages": [("user", "hi")]}
RUN_CONFIG = {"configurable": {"lang": "fr"}}
RUN_CONTEXT = {"user": "Ada"}

Seen = list[tuple[str, str]] | str  # (type, content) of each message the model got, or an error


def miniagent_names() -> SimpleNamespace:
    """The names the scenario needs, from miniagent (the notebooks' ``lab.MINI`` has more)."""
    from miniagent.messages import AIMessage, SystemMessage
    from miniagent.prebuilt import create_react_agent
    from miniagent.runnables import RunnableLambda
    from miniagent.testing import ScriptedChatModel

    return SimpleNamespace(
        name="miniagent",
        create_react_agent=create_react_agent,
        AIMessage=AIMessage,
        SystemMessage=SystemMessage,
        RunnableLambda=RunnableLambda,
        ScriptedChatModel=ScriptedChatModel,
    )


def prompts(lib: Any) -> dict[str, Any]:
    """The prompts of the table, by case name, built with ``lib``'s classes.

    The stub's docstring shows the same definitions; keep the two in step.
    """
    SystemMessage = lib.SystemMessage

    def state_keys(state):
        return [SystemMessage(", ".join(sorted(state)))] + state["messages"]

    def just_answer(state):
        return "Just answer."

    def with_config(state, config):
        lang = config["configurable"]["lang"]
        return [SystemMessage(lang)] + state["messages"]

    def with_runtime(state, runtime):
        return [SystemMessage(runtime.context["user"])] + state["messages"]

    def with_lang(state, lang):
        return [SystemMessage(lang)] + state["messages"]

    async def in_french(state):
        return [SystemMessage("Answer in French.")] + state["messages"]

    return {
        "none": None,
        "empty_str": "",
        "str": "Be brief.",
        "system_message": SystemMessage("Be terse."),
        "function": state_keys,
        "returns_str": just_answer,
        "config": with_config,
        "runtime": with_runtime,
        "other_param": with_lang,
        "async_function": in_french,
        "runnable": lib.RunnableLambda(lambda state: [("system", "Piped.")] + state["messages"]),
        "int": 123,
        "message_list": [SystemMessage("Be brief.")],
    }


def what_the_model_sees(lib: Any, prompt: Any) -> Seen:
    """Build an agent with ``prompt``, run one turn; the model's input, or the error's class name.

    The model is scripted to answer "ok" and records every call; the run passes a config
    (``{"configurable": {"lang": "fr"}}``) and a context (``{"user": "Ada"}``).
    """
    model = lib.ScriptedChatModel([lib.AIMessage("ok")])
    try:
        agent = lib.create_react_agent(model, [], prompt=prompt)
        agent.invoke(RUN_INPUT, RUN_CONFIG, context=RUN_CONTEXT)
    except Exception as error:  # when building or when running: the prediction names the class
        return type(error).__name__
    return [(message.type, message.content) for message in model.calls[0]["messages"]]
