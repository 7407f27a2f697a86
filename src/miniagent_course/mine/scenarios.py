"""Scripted conversations that every ``create_react_agent`` must get exactly right.

Each scenario is a function of one *side* (``miniagent_course.sides``: the same names from
miniagent or from upstream) and returns plain data: the final messages as a trace, or the error
the run raised. ``react.json`` holds upstream's results, recorded from the pinned packages; the
contributors' suite records them again and checks both sides against the file, and ``miniagent
mine`` runs the learner's own agent against the file without importing upstream.

Each entry also says which days' functions a scenario exercises: when it fails, those are the
days to revisit (``miniagent mine`` narrows them down by putting the reference back one day at a
time). A day kit adds scenarios of its own in its ``kit.toml`` (``[[mine.scenarios]]``: Day 12's
streamed runs); ``miniagent mine`` runs them after these, and ``react.json`` records them too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from miniagent.testing import message_trace


def _call(name: str, n: int = 1, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args, "id": f"call_{n}"}


def _tools(lib: Any) -> dict[str, Any]:
    @lib.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @lib.tool
    def fail(x: int) -> int:
        """Always fails."""
        raise ValueError(f"cannot use {x}")

    @lib.tool(return_direct=True)
    def finish(answer: str) -> str:
        """Give the final answer and stop."""
        return f"final: {answer}"

    return {"add": add, "fail": fail, "finish": finish}


def _run(agent: Any, state: Any, config: dict[str, Any] | None = None) -> Any:
    """The trace of the final messages, or ``{"error": type, "message": first line}``."""
    try:
        result = agent.invoke(state, config)
    except Exception as error:  # the scenario's expected outcome may be an error
        return {"error": type(error).__name__, "message": str(error).splitlines()[0]}
    messages = result["messages"] if isinstance(result, dict) else result.messages
    return message_trace(messages)


def _model(lib: Any, *replies: list[dict[str, Any]]) -> Any:
    return lib.FakeToolCallingModel(tool_calls=list(replies) + [[]])


def _hi(text: str = "2 + 3?") -> dict[str, Any]:
    return {"messages": [("user", text)]}


def one_tool_round(lib: Any) -> Any:
    model = _model(lib, [_call("add", a=2, b=3)])
    return _run(lib.create_react_agent(model, [_tools(lib)["add"]]), _hi())


def two_parallel_calls(lib: Any) -> Any:
    model = _model(lib, [_call("add", 1, a=1, b=2), _call("add", 2, a=3, b=4)])
    return _run(lib.create_react_agent(model, [_tools(lib)["add"]]), _hi())


def tool_error_fed_back(lib: Any) -> Any:
    model = _model(lib, [_call("fail", x=7)])
    return _run(lib.create_react_agent(model, [_tools(lib)["fail"]]), _hi())


def str_prompt(lib: Any) -> Any:
    model = _model(lib)
    return _run(lib.create_react_agent(model, [], prompt="Be brief."), _hi())


def system_message_prompt(lib: Any) -> Any:
    prompt = lib.SystemMessage("You are terse.")
    return _run(lib.create_react_agent(_model(lib), [], prompt=prompt), _hi())


def function_prompt(lib: Any) -> Any:
    def prompt(state: Any) -> list[Any]:
        return [lib.SystemMessage("Answer in French.")] + state["messages"][-1:]

    return _run(lib.create_react_agent(_model(lib), [], prompt=prompt), _hi())


def bad_prompt(lib: Any) -> Any:
    try:
        lib.create_react_agent(_model(lib), [], prompt=123)
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)}
    return "built"


def pydantic_state(lib: Any) -> Any:
    model = _model(lib, [_call("add", a=2, b=3)])
    agent = lib.create_react_agent(model, [_tools(lib)["add"]], state_schema=lib.AgentStatePydantic)
    return _run(agent, _hi())


def prebound_model_is_kept(lib: Any) -> Any:
    add = _tools(lib)["add"]
    model = _model(lib, [_call("add", a=2, b=3)]).bind_tools([add])
    return _run(lib.create_react_agent(model, [add]), _hi())


def prebound_model_missing_a_tool(lib: Any) -> Any:
    tools = _tools(lib)
    model = _model(lib).bind_tools([tools["add"]])
    try:
        lib.create_react_agent(model, [tools["add"], tools["fail"]])
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error)}
    return "built"


def unanswered_tool_call_in_history(lib: Any) -> Any:
    history = [
        lib.HumanMessage("hi", id="h1"),
        lib.AIMessage("", id="a1", tool_calls=[_call("add", a=1, b=1)]),
        lib.HumanMessage("and?", id="h2"),
    ]
    return _run(lib.create_react_agent(_model(lib), [_tools(lib)["add"]]), {"messages": history})


def empty_history(lib: Any) -> Any:
    return _run(lib.create_react_agent(_model(lib), []), {"messages": []})


def empty_history_pydantic(lib: Any) -> Any:
    agent = lib.create_react_agent(_model(lib), [], state_schema=lib.AgentStatePydantic)
    return _run(agent, {"messages": []})


def named_agent(lib: Any) -> Any:
    model = _model(lib, [_call("add", a=2, b=3)])
    return _run(lib.create_react_agent(model, [_tools(lib)["add"]], name="calc"), _hi())


def endless_tool_calls(limit: int) -> Callable[[Any], Any]:
    """A model that calls a tool on every turn, run with ``recursion_limit=limit``."""

    def scenario(lib: Any) -> Any:
        model = lib.FakeToolCallingModel(tool_calls=[[_call("add", a=1, b=1)]])
        agent = lib.create_react_agent(model, [_tools(lib)["add"]])
        return _run(agent, _hi(), {"recursion_limit": limit})

    return scenario


def return_direct_ends_the_run(lib: Any) -> Any:
    model = _model(lib, [_call("finish", answer="5")])
    return _run(lib.create_react_agent(model, [_tools(lib)["finish"]]), _hi())


def return_direct_near_the_limit(lib: Any) -> Any:
    model = lib.FakeToolCallingModel(tool_calls=[[_call("finish", answer="5")]])
    agent = lib.create_react_agent(model, [_tools(lib)["finish"]])
    return _run(agent, _hi(), {"recursion_limit": 2})


def dynamic_model(lib: Any) -> Any:
    add = _tools(lib)["add"]
    cheap = _model(lib, [_call("add", a=2, b=3)]).bind_tools([add])

    def choose(state: Any, runtime: Any) -> Any:
        return cheap

    return _run(lib.create_react_agent(choose, [add]), _hi())


def dynamic_model_with_prompt(lib: Any) -> Any:
    model = _model(lib)

    def choose(state: Any, runtime: Any) -> Any:
        return model

    return _run(lib.create_react_agent(choose, [], prompt="Be brief."), _hi())


def docstring_tools(lib: Any) -> Any:
    """What the model is told about two tools (Day 02's functions write the words), then a run."""

    @lib.tool(parse_docstring=True)
    def forecast(city: str, days: int = 3) -> str:
        """Get a forecast.

        Returns:
            The forecast.

        Args:
            city (str): The city name,
                as the user wrote it.
            days: Number of days.
        """
        return f"{days} days of sun in {city}"

    def shout(text: Annotated[str, "What to shout."]) -> str:
        """Shout a text."""
        return text.upper()

    calls = [_call("forecast", 1, city="Paris"), _call("shout", 2, text="hi")]
    model = lib.ScriptedChatModel([lib.AIMessage("", tool_calls=calls), lib.AIMessage("Done.")])
    trace = _run(lib.create_react_agent(model, [forecast, shout]), _hi("Weather in Paris?"))
    return {"bound": model.calls[0]["kwargs"]["tools"], "messages": trace}


def a_reply_reuses_an_id(lib: Any) -> Any:
    """The model answers with the id of its earlier reply: add_messages replaces that one."""
    replies = [
        lib.AIMessage("", id="reply", tool_calls=[_call("add", a=2, b=3)]),
        lib.AIMessage("2 + 3 = 5", id="reply"),
    ]
    agent = lib.create_react_agent(lib.ScriptedChatModel(replies), [_tools(lib)["add"]])
    return _run(agent, _hi())


def a_thread_rewritten_with_remove_all(lib: Any) -> Any:
    """A saved thread, then a turn that starts with RemoveMessage(id=REMOVE_ALL_MESSAGES)."""
    replies = [
        lib.AIMessage("", tool_calls=[_call("add", a=2, b=3)]),
        lib.AIMessage("2 + 3 = 5"),
        lib.AIMessage("hello again"),
    ]
    agent = lib.create_react_agent(
        lib.ScriptedChatModel(replies), [_tools(lib)["add"]], checkpointer=lib.InMemorySaver()
    )
    config = {"configurable": {"thread_id": "rewritten"}}
    agent.invoke(_hi(), config)
    clear = lib.RemoveMessage(id=lib.REMOVE_ALL_MESSAGES)
    return _run(agent, {"messages": [clear, ("user", "start over")]}, config)


def tool_error_policy(policy: str) -> Callable[[Any], Any]:
    """The tool ``fail`` raises ValueError inside a ToolNode built with one error policy (Day 11)."""

    def scenario(lib: Any) -> Any:
        def typed(e: ValueError) -> str:
            return f"handled {type(e).__name__}: {e}"

        flags = {"True": True, "str": "Try again.", "typed": typed, "tuple": (TypeError,)}
        node = lib.ToolNode([_tools(lib)["fail"]], handle_tool_errors=flags[policy])
        return _run(lib.create_react_agent(_model(lib, [_call("fail", x=7)]), node), _hi())

    return scenario


def bad_arguments_fed_back(lib: Any) -> Any:
    """The model calls ``add`` with an argument that fails validation; the default policy."""
    model = _model(lib, [_call("add", a="two", b=3)])
    return _run(lib.create_react_agent(model, [_tools(lib)["add"]]), _hi())


# name -> (the function, the days whose functions it exercises); the kits add theirs after these
# (``[[mine.scenarios]]`` in a kit.toml: see :func:`miniagent_course.mine.scenarios_of`)
SCENARIOS: dict[str, tuple[Callable[[Any], Any], tuple[str, ...]]] = {
    "one tool round": (one_tool_round, ("day00", "day01", "day07", "day08", "day09")),
    "two parallel tool calls": (two_parallel_calls, ("day01", "day07", "day08")),
    "a tool error is fed back": (tool_error_fed_back, ("day01", "day07", "day08")),
    "a str prompt": (str_prompt, ("day01", "day04", "day05", "day08")),
    "a SystemMessage prompt": (system_message_prompt, ("day01", "day05")),
    "a function prompt": (function_prompt, ("day00", "day01", "day05")),
    "a prompt of the wrong type": (bad_prompt, ("day05",)),
    "a pydantic state": (pydantic_state, ("day00", "day01", "day07", "day09")),
    "a pre-bound model is kept": (prebound_model_is_kept, ("day01", "day04", "day06")),
    "a pre-bound model missing a tool": (prebound_model_missing_a_tool, ("day06",)),
    "an unanswered tool call in the history": (unanswered_tool_call_in_history, ("day01", "day07")),
    "an empty history": (empty_history, ("day00", "day01", "day07", "day08")),
    "an empty history, pydantic state": (
        empty_history_pydantic,
        ("day00", "day01", "day07", "day08"),
    ),
    "a named agent": (named_agent, ("day01", "day08")),
    "endless tool calls, recursion_limit 2": (endless_tool_calls(2), ("day01", "day08", "day09")),
    "endless tool calls, recursion_limit 3": (endless_tool_calls(3), ("day01", "day08", "day09")),
    "endless tool calls, recursion_limit 4": (endless_tool_calls(4), ("day01", "day08", "day09")),
    "a return_direct tool ends the run": (return_direct_ends_the_run, ("day01", "day09")),
    "return_direct at recursion_limit 2": (return_direct_near_the_limit, ("day01", "day09")),
    "a dynamic model": (dynamic_model, ("day01", "day10")),
    "a dynamic model with a prompt": (dynamic_model_with_prompt, ("day01", "day05", "day10")),
    "a reply that reuses an id": (a_reply_reuses_an_id, ("day01",)),
    "a thread rewritten with REMOVE_ALL_MESSAGES": (
        a_thread_rewritten_with_remove_all,
        ("day01", "day07"),
    ),
    "tools from docstrings, bound and run": (docstring_tools, ("day01", "day02", "day07", "day08")),
    "handle_tool_errors=True": (tool_error_policy("True"), ("day01", "day11")),
    "handle_tool_errors as a str": (tool_error_policy("str"), ("day01", "day11")),
    "handle_tool_errors as a typed handler": (tool_error_policy("typed"), ("day01", "day11")),
    "handle_tool_errors as a tuple that misses": (tool_error_policy("tuple"), ("day11",)),
    "bad arguments, the default policy": (bad_arguments_fed_back, ("day01", "day11")),
}


# --- create_agent (Part III): the learner's Day 13 onion joins here -----------------------------


def _layer(lib: Any, name: str, log: list[str]) -> Any:
    """A ``wrap_model_call`` middleware that logs on the way in and on the way out."""

    def wrap(request: Any, handler: Callable[[Any], Any]) -> Any:
        log.append(f"{name}>")
        response = handler(request)
        log.append(f"<{name}")
        return response

    return lib.mw.wrap_model_call(wrap, name=name)


def two_layers_around_the_model(lib: Any) -> Any:
    log: list[str] = []
    model = _model(lib, [_call("add", a=2, b=3)])
    layers = [_layer(lib, "outer", log), _layer(lib, "inner", log)]
    agent = lib.create_agent(model, [_tools(lib)["add"]], middleware=layers)
    return {"messages": _run(agent, _hi()), "log": log}


def a_layer_answers_without_the_model(lib: Any) -> Any:
    log: list[str] = []

    def cached(request: Any, handler: Callable[[Any], Any]) -> Any:
        return lib.AIMessage("from the cache", id="cached-1")

    layers = [_layer(lib, "outer", log), lib.mw.wrap_model_call(cached, name="cache")]
    agent = lib.create_agent(_model(lib), [], middleware=layers)
    return {"messages": _run(agent, _hi()), "log": log}


def a_dynamic_prompt_and_a_trimming_layer(lib: Any) -> Any:
    def prompt(request: Any) -> str:
        return f"Be brief; {len(request.messages)} message(s) in the history."

    def last_only(request: Any, handler: Callable[[Any], Any]) -> Any:
        return handler(request.override(messages=request.messages[-1:]))

    layers = [lib.mw.dynamic_prompt(prompt), lib.mw.wrap_model_call(last_only, name="trim")]
    history = {"messages": [("user", "first"), ("ai", "ok"), ("user", "second")]}
    agent = lib.create_agent(_model(lib), [], system_prompt="Static.", middleware=layers)
    return _run(agent, history)


# name -> (the function, the days whose functions it exercises): run on the learner's create_agent
AGENT_SCENARIOS: dict[str, tuple[Callable[[Any], Any], tuple[str, ...]]] = {
    "create_agent: two layers around the model": (two_layers_around_the_model, ("day13",)),
    "create_agent: a layer answers without the model": (
        a_layer_answers_without_the_model,
        ("day13",),
    ),
    "create_agent: a dynamic prompt and a trimming layer": (
        a_dynamic_prompt_and_a_trimming_layer,
        ("day13",),
    ),
}
