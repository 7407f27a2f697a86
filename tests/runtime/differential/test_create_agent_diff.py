"""``create_agent`` against langchain 1.5.2: the same runs, traces, graphs and errors.

Each test runs one script through ``miniagent.agents`` and ``langchain.agents`` (fake models on
both sides, ``tests/runtime/sides``) and compares what the middleware saw, the ``updates``
stream, the final state, the model calls, the mermaid text or the error.
"""

from __future__ import annotations

import asyncio
import itertools
import re

import pytest

pytest.importorskip("langchain.agents")

from typing_extensions import NotRequired  # noqa: E402

from miniagent.testing import normalize_ids  # noqa: E402

from .agent_helpers import (  # noqa: E402
    ALL_HOOKS,
    HOOKS,
    final,
    on_both,
    outcome,
    plain,
    recorder,
    script,
    subsets,
    tool_call,
    updates,
    weather_tool,
)

INPUT = {"messages": [{"role": "user", "content": "what is the weather in sf", "id": "h-1"}]}


# ---- graphs: node names and mermaid ---------------------------------------------------------


def graph_of(ns, middleware_specs, *, with_tools=True, **kwargs):
    log: list[str] = []
    middleware = [
        recorder(ns, name, hooks, log, can_jump_to=jumps) for name, hooks, jumps in middleware_specs
    ]
    tools = [weather_tool(ns)] if with_tools else []
    built = outcome(
        lambda: ns.create_agent(script(ns, "hi"), tools, middleware=middleware, **kwargs)
    )
    if isinstance(built, tuple):  # e.g. a jump to "tools" in a graph without tools
        return built
    return list(built.nodes), built.get_graph().draw_mermaid()


@pytest.mark.parametrize("with_tools", [True, False], ids=["tools", "no_tools"])
@pytest.mark.parametrize("hooks", subsets(ALL_HOOKS), ids=lambda h: "+".join(h) or "none")
def test_graph_one_middleware_every_subset_of_hooks(hooks, with_tools):
    on_both(lambda ns: graph_of(ns, [("MA", hooks, None)], with_tools=with_tools))


PAIR_HOOKS = subsets(HOOKS)


@pytest.mark.parametrize(
    "a,b", list(itertools.product(PAIR_HOOKS, PAIR_HOOKS)), ids=lambda h: "+".join(h) or "none"
)
def test_graph_two_middleware_pairs(a, b):
    on_both(lambda ns: graph_of(ns, [("MA", a, None), ("MB", b, None)]))


THREE = [
    (HOOKS, HOOKS, HOOKS),
    (("before_model",), ("after_model",), ("before_agent", "after_agent")),
    (("after_model",), (), ("after_model", "wrap_model_call")),
    (("before_agent",), ("before_agent", "after_agent"), ("after_agent", "wrap_tool_call")),
    (ALL_HOOKS, ("before_model", "after_model"), ALL_HOOKS),
]


@pytest.mark.parametrize("with_tools", [True, False], ids=["tools", "no_tools"])
@pytest.mark.parametrize("hooks", THREE, ids=[f"sample{i}" for i in range(len(THREE))])
def test_graph_three_middleware_sample(hooks, with_tools):
    specs = [(f"M{n}", h, None) for n, h in zip("ABC", hooks, strict=True)]
    on_both(lambda ns: graph_of(ns, specs, with_tools=with_tools))


JUMPS = [["model"], ["tools"], ["end"], ["model", "tools", "end"]]


@pytest.mark.parametrize("with_tools", [True, False], ids=["tools", "no_tools"])
@pytest.mark.parametrize("jumps", JUMPS, ids="+".join)
@pytest.mark.parametrize("hook", HOOKS)
def test_graph_can_jump_to_adds_conditional_edges(hook, jumps, with_tools):
    specs = [("MA", HOOKS, {hook: jumps}), ("MB", HOOKS, {hook: jumps})]
    on_both(lambda ns: graph_of(ns, specs, with_tools=with_tools))


@pytest.mark.parametrize("with_tools", [True, False], ids=["tools", "no_tools"])
@pytest.mark.parametrize("hooks", [(), ("after_model",), ("before_model", "after_model")])
def test_graph_with_tool_strategy(hooks, with_tools):
    def run(ns):
        return graph_of(
            ns,
            [("MA", hooks, None)],
            with_tools=with_tools,
            response_format=ns.so.ToolStrategy(Weather),
        )

    on_both(run)


def test_graph_return_direct_tool_adds_the_exit_edge():
    def run(ns):
        @ns.tool(return_direct=True)
        def lookup(q: str) -> str:
            """Look up."""
            return q

        agent = ns.create_agent(script(ns, "hi"), [lookup])
        return agent.get_graph().draw_mermaid()

    on_both(run)


def test_compiled_config_recursion_limit_and_metadata():
    def run(ns):
        plain_agent = ns.create_agent(script(ns, "hi"))
        named = ns.create_agent(script(ns, "hi"), name="helper")
        # upstream's with_config also adds an empty "configurable"; the miniature's does not
        return (
            (plain_agent.config["recursion_limit"], plain_agent.config["metadata"]),
            (named.config["recursion_limit"], named.config["metadata"]),
            named.name,
        )

    assert on_both(run) == (
        (9_999, {"ls_integration": "langchain_create_agent"}),
        (9_999, {"ls_integration": "langchain_create_agent", "lc_agent_name": "helper"}),
        "helper",
    )


# ---- hook order: traces of whole runs -------------------------------------------------------


def traced_run(ns, specs, *, is_async=False, replies=None, **kwargs):
    """Stream one run (``updates``), then invoke a fresh agent: the hook log of each, the
    stream and the final state."""
    replies = replies or ([tool_call()], "It's sunny in SF.")

    def build(log):
        middleware = [recorder(ns, n, h, log, is_async=is_async) for n, h in specs]
        model = script(ns, *replies)
        return ns.create_agent(model, [weather_tool(ns)], middleware=middleware, **kwargs)

    stream_log: list[str] = []
    invoke_log: list[str] = []
    if is_async:

        async def collect():
            agent = build(stream_log)
            return [
                normalize_ids(plain(c)) async for c in agent.astream(INPUT, stream_mode="updates")
            ]

        stream = asyncio.run(collect())
        result = asyncio.run(build(invoke_log).ainvoke(INPUT))
    else:
        stream = updates(build(stream_log), INPUT)
        result = build(invoke_log).invoke(INPUT)
    return stream_log, invoke_log, stream, final(result)


TRACE_SETS = [
    (("A", ALL_HOOKS), ("B", ALL_HOOKS)),
    (("A", ALL_HOOKS), ("B", ALL_HOOKS), ("C", ALL_HOOKS)),
    (("A", ("before_model", "wrap_model_call")), ("B", ("after_model", "wrap_tool_call"))),
    (("A", ("before_agent", "after_agent")), ("B", ALL_HOOKS), ("C", ("wrap_model_call",))),
    (("A", ("wrap_tool_call",)), ("B", ("wrap_tool_call", "after_agent")), ("C", HOOKS)),
]


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("specs", TRACE_SETS, ids=[f"set{i}" for i in range(len(TRACE_SETS))])
def test_hook_order_trace(specs, is_async):
    log, _, _, _ = on_both(lambda ns: traced_run(ns, specs, is_async=is_async))
    assert log  # the hooks ran


def test_hook_order_matches_the_spec_for_two_middleware():
    log, _, _, _ = on_both(lambda ns: traced_run(ns, TRACE_SETS[0]))
    wm, wt = "wrap_model_call", "wrap_tool_call"
    model_turn = ["A.before_model", "B.before_model", f"A.{wm}>", f"B.{wm}>", f"B.{wm}<"]
    model_turn += [f"A.{wm}<", "B.after_model", "A.after_model"]
    assert log == [
        "A.before_agent",
        "B.before_agent",
        *model_turn,
        *[f"A.{wt}>", f"B.{wt}>", f"B.{wt}<", f"A.{wt}<"],
        *model_turn,
        "B.after_agent",
        "A.after_agent",
    ]


def test_no_middleware_run_streams_like_the_spec():
    _, _, stream, result = on_both(lambda ns: traced_run(ns, [], system_prompt="Be brief"))
    assert [node for node, _ in stream] == ["model", "tools", "model"]
    assert [m["type"] for m in result["messages"]] == ["human", "ai", "tool", "ai"]


def test_two_tool_calls_run_as_two_tools_tasks():
    """Upstream runs the two ``tools`` tasks concurrently, so their ``updates`` chunks come in
    completion order: the stream is compared as a multiset, without the random ids."""
    calls = [tool_call(id="call_1"), tool_call(args={"location": "nyc"}, id="call_2")]

    def run(ns):
        stream_log, invoke_log, stream, result = traced_run(
            ns, TRACE_SETS[0], replies=(calls, "done")
        )
        chunks = sorted(re.sub(r"<id-\d+>", "<id>", repr(chunk)) for chunk in stream)
        return sorted(stream_log), sorted(invoke_log), chunks, result

    _, log, chunks, _ = on_both(run)
    assert sum(chunk.startswith("('tools'") for chunk in chunks) == 2
    assert log.count("A.wrap_tool_call>") == 2


# ---- jump_to ---------------------------------------------------------------------------------


def jump_run(ns, hook, target, *, declared=True, is_async=False):
    log: list[str] = []
    jumps = {hook: [target]} if declared else None
    a = recorder(
        ns, "MA", HOOKS, log, can_jump_to=jumps, returns={hook: [{"jump_to": target}]},
        is_async=is_async,
    )  # fmt: skip
    b = recorder(ns, "MB", HOOKS, log, is_async=is_async)
    model = script(ns, [tool_call()], "one", "two", "three")
    agent = ns.create_agent(model, [weather_tool(ns)], middleware=[a, b])
    if is_async:
        result = outcome(lambda: asyncio.run(agent.ainvoke(INPUT)))
    else:
        result = outcome(lambda: agent.invoke(INPUT))
    return log, result if isinstance(result, tuple) else final(result)


@pytest.mark.parametrize("target", ["model", "tools", "end"])
@pytest.mark.parametrize("hook", HOOKS)
def test_jump_to_from_each_hook(hook, target):
    on_both(lambda ns: jump_run(ns, hook, target))


@pytest.mark.parametrize("target", ["model", "end"])
@pytest.mark.parametrize("hook", ["before_model", "after_model"])
def test_jump_to_async(hook, target):
    on_both(lambda ns: jump_run(ns, hook, target, is_async=True))


@pytest.mark.parametrize("target", ["model", "tools", "end"])
@pytest.mark.parametrize("hook", HOOKS)
def test_jump_to_without_can_jump_to(hook, target):
    """Undeclared, a jump is ignored -- except on the loop exit node, whose router reads it."""
    on_both(lambda ns: jump_run(ns, hook, target, declared=False))


def test_jump_to_is_ephemeral_and_private():
    def run(ns):
        seen = []

        def remember(state):
            seen.append(state.get("jump_to"))

        log: list[str] = []
        a = recorder(
            ns, "MA", ("before_model", "after_model"), log,
            can_jump_to={"before_model": ["model"]},
            returns={"before_model": [{"jump_to": "model"}], "after_model": remember},
        )  # fmt: skip
        agent = ns.create_agent(script(ns, "one", "two"), middleware=[a])
        result = outcome(lambda: sorted(agent.invoke(INPUT)))
        return seen, result, log

    # a jump to "model" from the first before_model targets the node itself, which its
    # destinations leave out: both sides fail the same way
    on_both(run)


# ---- dynamic prompts ---------------------------------------------------------------------------


def prompt_run(ns, *, is_async=False, two=False, static="Static"):
    seen = []
    if is_async:

        @ns.mw.dynamic_prompt
        async def first(request):
            seen.append(request.system_prompt)
            return "Dynamic system prompt"

    else:

        @ns.mw.dynamic_prompt
        def first(request):
            seen.append(request.system_prompt)
            return "Dynamic system prompt"

    @ns.mw.dynamic_prompt
    def second(request):
        seen.append(request.system_prompt)
        return ns.m.SystemMessage("Second prompt")

    model = script(ns, "ok")
    middleware = [first, second] if two else [first]
    agent = ns.create_agent(model, system_prompt=static, middleware=middleware)
    run = agent.ainvoke(INPUT) if is_async else None
    result = asyncio.run(run) if is_async else agent.invoke(INPUT)
    sent = [[(m.type, m.content) for m in call["messages"]] for call in model.calls]
    return seen, sent, final(result)


@pytest.mark.parametrize("two", [False, True], ids=["one", "two"])
@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("static", ["Static", None])
def test_dynamic_prompt(is_async, two, static):
    seen, sent, result = on_both(
        lambda ns: prompt_run(ns, is_async=is_async, two=two, static=static)
    )
    assert [m["type"] for m in result["messages"]] == ["human", "ai"]  # no system message stored
    assert sent[0][0][0] == "system"


# ---- structured output (tool strategy) ---------------------------------------------------------

from pydantic import BaseModel  # noqa: E402


class Weather(BaseModel):
    """Weather report."""

    temperature: float


class Place(BaseModel):
    """A place."""

    name: str


def structured_run(ns, replies, response_format, *, with_tools=True):
    model = script(ns, *replies)
    tools = [weather_tool(ns)] if with_tools else []
    agent = ns.create_agent(model, tools, response_format=response_format(ns))
    result = outcome(lambda: final(agent.invoke(INPUT)))
    kwargs = [normalize_ids(plain(call["kwargs"])) for call in model.calls]
    return result, kwargs


STRUCTURED = {
    "one_call": ([[tool_call("Weather", {"temperature": 75}, "s1")]], lambda ns: ns.so.ToolStrategy(Weather)),
    "tool_then_structured": (
        [[tool_call()], [tool_call("Weather", {"temperature": 75}, "s1")]],
        lambda ns: ns.so.ToolStrategy(Weather),
    ),
    "raw_schema_auto": ([[tool_call("Weather", {"temperature": 75}, "s1")]], lambda ns: Weather),
    "bad_args_retry": (
        [[tool_call("Weather", {"temperature": "hot"}, "s1")], [tool_call("Weather", {"temperature": 70}, "s2")]],
        lambda ns: ns.so.ToolStrategy(Weather),
    ),
    "bad_args_raise": (
        [[tool_call("Weather", {"temperature": "hot"}, "s1")]],
        lambda ns: ns.so.ToolStrategy(Weather, handle_errors=False),
    ),
    "bad_args_custom_text": (
        [[tool_call("Weather", {}, "s1")], [tool_call("Weather", {"temperature": 1}, "s2")]],
        lambda ns: ns.so.ToolStrategy(Weather, handle_errors="Try again"),
    ),
    "two_structured_calls": (
        [
            [tool_call("Weather", {"temperature": 1}, "s1"), tool_call("Place", {"name": "x"}, "s2")],
            [tool_call("Place", {"name": "sf"}, "s3")],
        ],
        lambda ns: ns.so.ToolStrategy(Weather | Place),
    ),
    "custom_tool_message": (
        [[tool_call("Weather", {"temperature": 75}, "s1")]],
        lambda ns: ns.so.ToolStrategy(Weather, tool_message_content="Got it"),
    ),
    "plain_answer_no_structure": (["no tools needed"], lambda ns: ns.so.ToolStrategy(Weather)),
}  # fmt: skip


STRUCTURED_CASES = [
    (case, with_tools)
    for case in sorted(STRUCTURED)
    for with_tools in (True, False)
    if with_tools or case != "tool_then_structured"  # that script calls a client tool
]


@pytest.mark.parametrize(
    "case,with_tools",
    STRUCTURED_CASES,
    ids=[f"{c}-{'tools' if t else 'no_tools'}" for c, t in STRUCTURED_CASES],
)
def test_structured_output_tool_strategy(case, with_tools):
    replies, response_format = STRUCTURED[case]
    on_both(lambda ns: structured_run(ns, replies, response_format, with_tools=with_tools))


# ---- tools through wrap_tool_call ----------------------------------------------------------------


def tool_error_run(ns, mode):
    @ns.tool
    def flaky(location: str) -> str:
        """Fails."""
        raise ValueError(f"no weather for {location}")

    seen = []

    @ns.mw.wrap_tool_call
    def catch(request, handler):
        seen.append((request.tool_call["name"], len(request.state["messages"])))
        try:
            return handler(request)
        except ValueError as e:
            return ns.m.ToolMessage(
                f"caught: {e}", tool_call_id=request.tool_call["id"], status="error"
            )

    @ns.mw.wrap_tool_call
    def retry(request, handler):
        seen.append("retry")
        try:
            return handler(request)
        except ValueError:
            return handler(request.override(tool_call={**request.tool_call, "name": "nope"}))

    middleware = {"none": [], "catch": [catch], "retry_inside_catch": [catch, retry]}[mode]
    model = script(ns, [tool_call("flaky")], "done")
    agent = ns.create_agent(model, [flaky], middleware=middleware)
    return outcome(lambda: final(agent.invoke(INPUT))), seen


@pytest.mark.parametrize("mode", ["none", "catch", "retry_inside_catch"])
def test_tool_errors_through_wrap_tool_call(mode):
    on_both(lambda ns: tool_error_run(ns, mode))


def test_wrap_tool_call_short_circuits_an_unknown_tool():
    def run(ns):
        @ns.mw.wrap_tool_call
        def answer(request, handler):
            return ns.m.ToolMessage(
                f"tool={request.tool}", tool_call_id=request.tool_call["id"], name="x"
            )

        model = script(ns, [tool_call("made_up")], "done")
        agent = ns.create_agent(model, middleware=[answer])
        return list(agent.nodes), final(agent.invoke(INPUT))

    on_both(run)


# ---- errors --------------------------------------------------------------------------------------


def test_duplicate_middleware_error():
    def run(ns):
        log: list[str] = []
        a = recorder(ns, "Same", ("before_model",), log)
        b = recorder(ns, "Same", ("after_model",), log)
        return outcome(lambda: ns.create_agent(script(ns, "hi"), middleware=[a, b]))

    assert on_both(run) == (
        "raised",
        "AssertionError",
        "Please remove duplicate middleware instances.",
    )


def test_unknown_dynamic_tool_error():
    def run(ns):
        @ns.tool
        def extra(q: str) -> str:
            """Not registered."""
            return q

        @ns.mw.wrap_model_call
        def add_tool(request, handler):
            return handler(request.override(tools=[*request.tools, extra]))

        agent = ns.create_agent(script(ns, "hi"), [weather_tool(ns)], middleware=[add_tool])
        return outcome(lambda: agent.invoke(INPUT))

    kind, name, text = on_both(run)
    assert name == "ValueError" and "Unknown tools: ['extra']" in text


def wrap_variant(ns, hook, is_async):
    if hook == "wrap_model_call":
        if is_async:

            async def fn(request, handler):
                return await handler(request)

        else:

            def fn(request, handler):
                return handler(request)

        return ns.mw.wrap_model_call(fn)
    if is_async:

        async def fn(request, handler):
            return await handler(request)

    else:

        def fn(request, handler):
            return handler(request)

    return ns.mw.wrap_tool_call(fn)


@pytest.mark.parametrize("defined", ["sync", "async"])
@pytest.mark.parametrize("hook", ["wrap_model_call", "wrap_tool_call"])
def test_sync_only_or_async_only_wrap_hooks(hook, defined):
    def run(ns):
        middleware = [wrap_variant(ns, hook, is_async=defined == "async")]
        model = script(ns, [tool_call()], "done")
        agent = ns.create_agent(model, [weather_tool(ns)], middleware=middleware)
        if defined == "async":
            return outcome(lambda: agent.invoke(INPUT))
        return outcome(lambda: asyncio.run(agent.ainvoke(INPUT)))

    kind, name, _ = on_both(run)
    assert name == "NotImplementedError"


@pytest.mark.parametrize("hook", HOOKS)
def test_async_only_node_hook_on_the_sync_path(hook):
    def run(ns):
        log: list[str] = []
        middleware = [recorder(ns, "MA", (hook,), log, is_async=True)]
        agent = ns.create_agent(script(ns, "hi"), middleware=middleware)
        return outcome(lambda: agent.invoke(INPUT)), log

    (kind, name, text), _ = on_both(run)
    assert name == "TypeError" and f'"a{hook}"' in text


def test_extended_model_response_commands():
    def run(ns):
        class Extra(ns.mw.AgentState):
            note: str

        def make(label):
            def fn(request, handler):
                response = handler(request)
                return ns.mw.ExtendedModelResponse(
                    response,
                    ns.Command(
                        update={"note": label, "messages": [ns.m.HumanMessage(label, id=label)]}
                    ),
                )

            fn.__name__ = label
            return ns.mw.wrap_model_call(fn, state_schema=Extra)

        agent = ns.create_agent(script(ns, "ok"), middleware=[make("outer"), make("inner")])
        return outcome(lambda: updates(agent, INPUT))

    # both layers write the plain key "note" in one step: an InvalidUpdateError on both sides
    assert on_both(run)[1] == "InvalidUpdateError"


def test_extended_model_response_commands_inner_first():
    def run(ns):
        def make(label):
            def fn(request, handler):
                response = handler(request)
                message = ns.m.HumanMessage(label, id=label)
                return ns.mw.ExtendedModelResponse(
                    response, ns.Command(update={"messages": [message]})
                )

            fn.__name__ = label
            return ns.mw.wrap_model_call(fn)

        model = script(ns, "ok")
        agent = ns.create_agent(model, middleware=[make("outer"), make("inner")])
        return updates(agent, INPUT)

    stream = on_both(run)
    node, writes = stream[0]
    assert [w["messages"][0]["content"] for w in writes] == ["ok", "inner", "outer"]


def test_command_goto_in_wrap_model_call_is_not_supported():
    def run(ns):
        @ns.mw.wrap_model_call
        def go(request, handler):
            return ns.mw.ExtendedModelResponse(handler(request), ns.Command(goto="model"))

        agent = ns.create_agent(script(ns, "ok"), middleware=[go])
        return outcome(lambda: agent.invoke(INPUT))

    assert on_both(run)[1] == "NotImplementedError"


# ---- state schemas, invalid tool calls, memory -------------------------------------------------


def test_state_schemas_merge_and_private_fields():
    def run(ns):
        class CountState(ns.mw.AgentState):
            count: NotRequired[int]

        class UserState(ns.mw.AgentState):
            user: NotRequired[str]

        @ns.mw.before_agent(state_schema=CountState)
        def count(state, runtime):
            return {"count": state.get("count", 0) + 1}

        agent = ns.create_agent(script(ns, "ok"), middleware=[count], state_schema=UserState)
        result = agent.invoke({**INPUT, "user": "ada"})
        return sorted(agent.nodes), final(result)

    _, result = on_both(run)
    assert result["count"] == 1 and result["user"] == "ada"


def test_invalid_tool_calls_are_answered_and_persisted():
    def run(ns):
        bad = ns.m.AIMessage(
            "",
            id="ai-0",
            invalid_tool_calls=[
                {
                    "name": "check_weather",
                    "args": "{bad",
                    "id": "bad1",
                    "error": None,
                    "type": "invalid_tool_call",
                }
            ],
        )
        model = script(ns, "fixed")
        agent = ns.create_agent(model, [weather_tool(ns)])
        result = agent.invoke({"messages": [ns.m.HumanMessage("hi", id="h-1"), bad]})
        sent = [plain(m) for m in model.calls[0]["messages"]]
        return normalize_ids(sent), final(result)

    on_both(run)


def test_checkpointer_keeps_the_thread_and_structured_response_resets():
    def run(ns):
        model = script(
            ns,
            [tool_call("Weather", {"temperature": 75}, "s1")],
            "plain",
            [tool_call("Weather", {"temperature": 60}, "s2")],
        )
        agent = ns.create_agent(
            model, response_format=ns.so.ToolStrategy(Weather), checkpointer=ns.InMemorySaver()
        )
        config = {"configurable": {"thread_id": "t"}}
        first = final(agent.invoke(INPUT, config))
        second = final(agent.invoke({"messages": [{"role": "user", "content": "again"}]}, config))
        return first, second

    first, second = on_both(run)
    assert first["structured_response"] == {"temperature": 75.0}
    assert second["structured_response"] == {"temperature": 60.0}


def test_model_request_override_and_deprecated_assignment():
    def run(ns):
        model = script(ns, "hi")
        request = ns.mw.ModelRequest(model=model, messages=[], system_prompt="a")
        both = outcome(
            lambda: ns.mw.ModelRequest(
                model=model, messages=[], system_prompt="a", system_message=ns.m.SystemMessage("b")
            )
        )
        changed = request.override(system_prompt="c", tool_choice="any")
        import warnings

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            request.tool_choice = "auto"
        return (
            request.system_prompt,
            changed.system_prompt,
            changed.messages is request.messages,
            request.tool_choice,
            both,
            [(w.category.__name__, str(w.message)) for w in caught],
        )

    on_both(run)
