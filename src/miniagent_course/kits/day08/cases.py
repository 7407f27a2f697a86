"""Day 08's reference: ``call_model``, the ``agent`` node of ``create_react_agent``.

Upstream defines ``call_model`` inside ``create_react_agent`` (chat_agent_executor.py:661), so
it closes over seven values: three flags and settings (``is_async_dynamic_model``,
``is_dynamic_model``, ``static_model``, ``name``) and three sibling inner functions
(``_get_model_input_state``, ``_resolve_model``, ``_are_more_steps_needed``). The exercise
passes those seven values as arguments instead; this module turns them back into the real
function, so the reference *is* miniagent's ``call_model`` and never a second copy of it.

    pieces = call_model_pieces(agent)          # what `agent` was built with
    fn = make_call_model(**pieces)             # the real call_model, with those values

The second task is graded by running it: each situation of ``SITUATIONS`` runs on the miniature
while ``observe`` watches the agent node (:func:`what_call_model_does`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from miniagent_course.grading.closures import (
    agent_node_function,
    closure_vars,
    rebind,
    reference_inner_function,
    swap_closure,
)

# The exercise's keyword -> the free variable of call_model that holds it.
CLOSURE_NAMES = {
    "is_async_dynamic_model": "is_async_dynamic_model",
    "is_dynamic_model": "is_dynamic_model",
    "static_model": "static_model",
    "name": "name",
    "get_model_input_state": "_get_model_input_state",
    "resolve_model": "_resolve_model",
    "are_more_steps_needed": "_are_more_steps_needed",
}


def call_model_pieces(agent: Any) -> dict[str, Any]:
    """The arguments of ``make_call_model`` that rebuild ``agent``'s own ``call_model``."""
    values = closure_vars(agent_node_function(agent))
    return {keyword: values[free] for keyword, free in CLOSURE_NAMES.items()}


def make_call_model(
    *,
    is_async_dynamic_model: bool,
    is_dynamic_model: bool,
    static_model: Any,
    name: str | None,
    get_model_input_state: Callable[[Any], Any],
    resolve_model: Callable[[Any, Any], Any],
    are_more_steps_needed: Callable[[Any, Any], bool],
) -> Callable[..., dict[str, Any]]:
    """The real ``call_model`` (chat_agent_executor.py:661), closing over these values.

    Python keeps a closure's free variables in cells; a new function object made from
    ``call_model``'s code and fresh cells is ``call_model`` as ``create_react_agent`` would have
    built it with these values. Read the code itself in ``src/miniagent/prebuilt/
    chat_agent_executor.py`` (snippet ``call_model``) or upstream at line 661.
    """
    values = {  # the free variable names of call_model
        "is_async_dynamic_model": is_async_dynamic_model,
        "is_dynamic_model": is_dynamic_model,
        "static_model": static_model,
        "name": name,
        "_get_model_input_state": get_model_input_state,
        "_resolve_model": resolve_model,
        "_are_more_steps_needed": are_more_steps_needed,
    }
    return rebind(reference_inner_function("call_model"), **values)


def install_make_call_model(agent: Any, make_call_model: Callable[..., Any]) -> None:
    """Put the ``call_model`` that ``make_call_model`` builds into ``agent``'s ``agent`` node.

    Only the sync path: ``invoke`` and ``stream`` run it; ``ainvoke`` keeps the real twin.
    """
    agent.nodes["agent"].bound.func = make_call_model(**call_model_pieces(agent))


# --- part 2: what call_model does, situation by situation -----------------------------------

SORRY = "Sorry, need more steps to process this request."
ANSWER = "2 + 3 = 5"
CALL = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}


@dataclass(frozen=True)
class Situation:
    """One small agent and one run of it, in which the ``agent`` node runs once.

    The model replies ``AIMessage("2 + 3 = 5", name="bot")`` (``reply="answer"``) or
    ``AIMessage("let me add", name="bot", tool_calls=[add])`` (``reply="tool_call"``).
    """

    model: str = "static"  # "static"; "dynamic": a sync callable; "async": an async def callable
    reply: str = "answer"  # "answer" or "tool_call"
    history: str = "question"  # "question"; "unanswered": then an AI tool call left unanswered;
    #                            "unanswered_then_question": and then a second question
    name: str | None = None  # the agent's name=
    hook: bool = False  # a pre_model_hook that sends only the last message (llm_input_messages)
    recursion_limit: int = 25
    call: str = "invoke"  # "invoke" or "ainvoke"


SITUATIONS = {
    "async_model_ainvoke": Situation(model="async", call="ainvoke"),
    "async_model_unanswered_call": Situation(model="async", history="unanswered"),
    "async_model_unanswered_call_ainvoke": Situation(
        model="async", history="unanswered", call="ainvoke"
    ),
    "unanswered_call": Situation(history="unanswered"),
    "dynamic_model_unanswered_call": Situation(model="dynamic", history="unanswered"),
    "hook_hides_unanswered_call": Situation(history="unanswered_then_question", hook=True),
    "unnamed_agent": Situation(),
    "named_agent": Situation(name="helper"),
    "tool_call_one_step_left": Situation(reply="tool_call", name="helper", recursion_limit=2),
    "answer_one_step_left": Situation(name="helper", recursion_limit=2),
}


def build(lib: SimpleNamespace, situation: Situation) -> tuple[Any, dict[str, Any]]:
    """The situation's agent and its input, built with ``lib`` (miniagent's side or upstream's)."""

    @lib.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    if situation.reply == "answer":
        reply = lib.AIMessage(ANSWER, id="r0", name="bot")
    else:
        reply = lib.AIMessage("let me add", id="r0", name="bot", tool_calls=[CALL])
    scripted = lib.ScriptedChatModel([reply])
    model: Any = scripted
    if situation.model == "dynamic":

        def model(state, runtime):
            return scripted.bind_tools([add])

    elif situation.model == "async":

        async def model(state, runtime):
            return scripted.bind_tools([add])

    def keep_last(state):
        return {"llm_input_messages": state["messages"][-1:]}

    hook = keep_last if situation.hook else None
    agent = lib.create_react_agent(model, [add], name=situation.name, pre_model_hook=hook)
    messages = [lib.HumanMessage("2 + 3?", id="h1")]
    if situation.history != "question":
        messages.append(lib.AIMessage("", id="a1", tool_calls=[CALL]))
    if situation.history == "unanswered_then_question":
        messages.append(lib.HumanMessage("and 3 + 4?", id="h2"))
    return agent, {"messages": messages}


def observe(lib: SimpleNamespace, key: str) -> tuple[int, str, str | None]:
    """Run one situation and watch its ``agent`` node: ``(gate, text, name)``.

    The gate is read off the run, not computed: the node's own ``_get_model_input_state`` and
    ``_are_more_steps_needed`` are wrapped (their closure cells, shared by ``call_model`` and
    ``acall_model``) to record how far the node got. An error ends at gate 1 (before the input
    state), 2 (inside it) or 3 (after it): ``(gate, error type, None)``. A returned update ends
    at gate 5 (the more-steps check said yes) or 6: ``(gate, content, name)`` of its message.
    """
    situation = SITUATIONS[key]
    agent, inputs = build(lib, situation)
    node = agent_node_function(agent)
    real = closure_vars(node)
    reached: list[int] = []

    def get_model_input_state(state):
        reached.append(2)
        model_input = real["_get_model_input_state"](state)
        reached.append(3)
        return model_input

    def are_more_steps_needed(state, response):
        needed = real["_are_more_steps_needed"](state, response)
        reached.append(5 if needed else 6)
        return needed

    swap_closure(node, "_get_model_input_state", get_model_input_state)
    swap_closure(node, "_are_more_steps_needed", are_more_steps_needed)
    config = {"recursion_limit": situation.recursion_limit}
    try:
        if situation.call == "ainvoke":
            result = run_coroutine(agent.ainvoke(inputs, config))
        else:
            result = agent.invoke(inputs, config)
    except Exception as error:
        return (reached[-1] if reached else 1), type(error).__name__, None
    assert reached.count(2) == 1, f"{key}: the agent node ran {reached.count(2)} times"
    message = result["messages"][-1]  # the node ran last: its one message is the last one
    return reached[-1], message.content, message.name


def run_coroutine(coroutine: Any) -> Any:
    """``asyncio.run(coroutine)``, also from a notebook, whose thread already runs a loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def what_call_model_does(key: str) -> tuple[int, str, str | None]:
    """``observe`` on the miniature: the truth the learner's predictions are graded against."""
    from miniagent_course.sides import mini

    return observe(mini(), key)
