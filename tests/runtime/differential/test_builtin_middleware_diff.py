"""The built-in middleware against langchain 1.5.2's: the same scripts, the same outcome.

Each test runs one script through ``miniagent.agents.middleware``'s built-ins and
``langchain.agents.middleware``'s (fake models on both sides: ``tests/runtime/sides``) and
compares the ``updates`` stream, the final state, what the model saw, the graph, and the
errors: limits (``ModelCallLimitMiddleware``, ``ToolCallLimitMiddleware``), fallback and retries
(``ModelFallbackMiddleware``, ``ModelRetryMiddleware``, ``ToolRetryMiddleware``), trimming
(``ContextEditingMiddleware``) and the PII guardrail (``PIIMiddleware``). Retries run with
``initial_delay=0``, so no test sleeps.
"""

from __future__ import annotations

import asyncio
import random
import warnings
from functools import partial

import pytest

pytest.importorskip("langchain.agents")

from miniagent.testing import normalize_ids  # noqa: E402

from .agent_helpers import (  # noqa: E402
    final,
    on_both,
    outcome,
    plain,
    script,
    tool_call,
    updates,
    weather_tool,
)

INPUT = {"messages": [{"role": "user", "content": "what is the weather in sf", "id": "h-1"}]}


def run(ns, build, inputs=INPUT, *, is_async=False):
    """``build() -> (agent, model)``, twice: the ``updates`` stream of one run and the final
    state of another, plus the messages the second model saw, per call."""
    agent, _ = build()
    if is_async:

        async def collect():
            return [
                normalize_ids(plain(c)) async for c in agent.astream(inputs, stream_mode="updates")
            ]

        stream = outcome(lambda: asyncio.run(collect()))
        agent, model = build()
        result = outcome(lambda: final(asyncio.run(agent.ainvoke(inputs))))
    else:
        stream = outcome(lambda: updates(agent, inputs))
        agent, model = build()
        result = outcome(lambda: final(agent.invoke(inputs)))
    return stream, result, seen(model)


def seen(model):
    return [normalize_ids(plain(call["messages"])) for call in model.calls]


def graph(ns, middleware, tools=True):
    agent = ns.create_agent(
        script(ns, "hi"), [weather_tool(ns)] if tools else [], middleware=middleware
    )
    return list(agent.nodes), agent.get_graph().draw_mermaid()


def lookup_tool(ns):
    @ns.tool
    def lookup(q: str) -> str:
        """Look something up."""
        return f"found {q}"

    return lookup


# ---- ModelCallLimitMiddleware -----------------------------------------------------------------

CALL_LIMITS = [
    (None, 1, "end"),
    (None, 2, "end"),
    (2, None, "end"),
    (1, 1, "end"),
    (None, 1, "error"),
    (3, 2, "error"),
    (5, 5, "end"),  # not reached
]


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("thread_limit,run_limit,exit_behavior", CALL_LIMITS)
def test_model_call_limit(thread_limit, run_limit, exit_behavior, is_async):
    def go(ns):
        def build():
            model = script(ns, [tool_call()], [tool_call(id="call_2")], "done")
            limit = ns.mw.ModelCallLimitMiddleware(
                thread_limit=thread_limit, run_limit=run_limit, exit_behavior=exit_behavior
            )
            return ns.create_agent(model, [weather_tool(ns)], middleware=[limit]), model

        return run(ns, build, is_async=is_async)

    stream, result, _ = on_both(go)
    if exit_behavior == "error" and isinstance(result, tuple):
        assert result[1] == "ModelCallLimitExceededError"


def test_model_call_limit_counts_the_thread_across_runs_and_the_run_afresh():
    """``thread_model_call_count`` is checkpointed; ``run_model_call_count`` (an
    ``UntrackedValue``) is not, so each run starts it at 0."""

    def go(ns):
        model = script(ns, *[[tool_call(id=f"call_{i}")] if i % 2 else "ok" for i in range(1, 12)])
        limit = ns.mw.ModelCallLimitMiddleware(thread_limit=5, run_limit=2)
        agent = ns.create_agent(
            model, [weather_tool(ns)], middleware=[limit], checkpointer=ns.InMemorySaver()
        )
        config = {"configurable": {"thread_id": "t"}}
        out = []
        for turn in range(4):
            result = agent.invoke(
                {"messages": [{"role": "user", "content": f"turn {turn}"}]}, config
            )
            values = agent.get_state(config).values
            out.append(
                (
                    [m["content"] for m in final(result)["messages"]][-2:],
                    sorted(result),
                    values.get("thread_model_call_count"),
                    "run_model_call_count" in values,
                )
            )
        return out

    out = on_both(go)
    assert [saved for _, _, saved, _ in out] == [2, 4, 5, 5]
    assert not any(run_saved for *_, run_saved in out)
    assert out[-1][0][-1] == "Model call limits exceeded: thread limit (5/5)"


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"run_limit": 1, "exit_behavior": "raise"}, {"thread_limit": 0}],
    ids=["no_limit", "bad_exit", "zero"],
)
def test_model_call_limit_arguments(kwargs):
    on_both(lambda ns: outcome(lambda: ns.mw.ModelCallLimitMiddleware(**kwargs).name))


def test_model_call_limit_graph():
    on_both(lambda ns: graph(ns, [ns.mw.ModelCallLimitMiddleware(run_limit=1)]))


# ---- ToolCallLimitMiddleware ------------------------------------------------------------------

PARALLEL = [
    tool_call(id="call_1"),
    tool_call(args={"location": "nyc"}, id="call_2"),
    tool_call("lookup", {"q": "x"}, id="call_3"),
]
TOOL_LIMITS = [(None, 1), (2, None), (3, 2), (None, 4)]


@pytest.mark.parametrize("exit_behavior", ["continue", "end", "error"])
@pytest.mark.parametrize("tool_name", [None, "check_weather"])
@pytest.mark.parametrize("thread_limit,run_limit", TOOL_LIMITS)
def test_tool_call_limit(thread_limit, run_limit, tool_name, exit_behavior):
    """Three calls in parallel, then one more: some are blocked, the run ends, or it raises.
    (Parallel ``tools`` tasks finish in any order: the final state is compared, and what the
    model saw, not the stream.)"""

    def go(ns):
        model = script(ns, PARALLEL, [tool_call(args={"location": "la"}, id="call_4")], "done")
        limit = ns.mw.ToolCallLimitMiddleware(
            tool_name=tool_name,
            thread_limit=thread_limit,
            run_limit=run_limit,
            exit_behavior=exit_behavior,
        )
        agent = ns.create_agent(model, [weather_tool(ns), lookup_tool(ns)], middleware=[limit])
        return outcome(lambda: final(agent.invoke(INPUT))), seen(model)

    on_both(go)


@pytest.mark.parametrize("exit_behavior", ["continue", "end"])
def test_tool_call_limit_stream_with_one_call_per_turn(exit_behavior):
    def go(ns):
        def build():
            model = script(ns, [tool_call()], [tool_call(id="call_2")], "done")
            limit = ns.mw.ToolCallLimitMiddleware(run_limit=1, exit_behavior=exit_behavior)
            return ns.create_agent(model, [weather_tool(ns)], middleware=[limit]), model

        return run(ns, build) + run(ns, build, is_async=True)

    on_both(go)


def test_tool_call_limit_two_instances_and_the_thread_count():
    """One instance per tool (names ``ToolCallLimitMiddleware[<tool>]``); thread counts add
    up across runs, run counts start afresh."""

    def go(ns):
        replies = [[tool_call(id="a1"), tool_call("lookup", {"q": "x"}, id="a2")], "ok"] * 3
        model = script(ns, *replies)
        weather = ns.mw.ToolCallLimitMiddleware(tool_name="check_weather", thread_limit=2)
        lookups = ns.mw.ToolCallLimitMiddleware(tool_name="lookup", run_limit=1)
        agent = ns.create_agent(
            model,
            [weather_tool(ns), lookup_tool(ns)],
            middleware=[weather, lookups],
            checkpointer=ns.InMemorySaver(),
        )
        config = {"configurable": {"thread_id": "t"}}
        results = []
        for turn in range(3):
            result = agent.invoke(
                {"messages": [{"role": "user", "content": f"turn {turn}"}]}, config
            )
            values = agent.get_state(config).values
            results.append(
                (
                    final(result)["messages"][-3:],
                    values.get("thread_tool_call_count"),
                    "run_tool_call_count" in values,
                )
            )
        return [weather.name, lookups.name], list(agent.nodes), results

    names, _, results = on_both(go)
    assert names == ["ToolCallLimitMiddleware[check_weather]", "ToolCallLimitMiddleware[lookup]"]
    assert results[-1][1] == {"check_weather": 2, "lookup": 3}


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"run_limit": 1, "exit_behavior": "stop"},
        {"thread_limit": 1, "run_limit": 2},
        {"thread_limit": 2, "run_limit": 2, "tool_name": "x"},
    ],
    ids=["no_limit", "bad_exit", "run_over_thread", "ok"],
)
def test_tool_call_limit_arguments(kwargs):
    on_both(lambda ns: outcome(lambda: ns.mw.ToolCallLimitMiddleware(**kwargs).name))


def test_tool_call_limit_graph():
    on_both(lambda ns: graph(ns, [ns.mw.ToolCallLimitMiddleware(run_limit=1)]))


# ---- failing models and tools -------------------------------------------------------------


def flaky_model(ns, label, failures, *replies, log):
    """A ScriptedChatModel that raises ``failures`` (exceptions, in order) before replying;
    each call is logged as ``(label, "fail"|"ok")``."""
    base = type(script(ns, "x"))
    plan = list(failures)

    class Flaky(base):
        def _generate(self, messages, *args, **kwargs):
            if plan:
                log.append((label, "fail"))
                raise plan.pop(0)
            log.append((label, "ok"))
            return super()._generate(messages, *args, **kwargs)

    return Flaky(script(ns, *replies).responses)


# ---- ModelFallbackMiddleware ------------------------------------------------------------------

FALLBACKS = {
    "primary_ok": (0, 0, 0),
    "first_fallback": (1, 0, 0),
    "second_fallback": (1, 1, 0),
    "all_fail": (1, 1, 1),
}


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("case", sorted(FALLBACKS))
def test_model_fallback(case, is_async):
    fails = FALLBACKS[case]

    def go(ns):
        log: list = []

        def build():
            models = [
                flaky_model(
                    ns, label, [ValueError(f"{label} down")] * n, [tool_call()], "done", log=log
                )
                for label, n in zip(("primary", "fb1", "fb2"), fails, strict=True)
            ]
            fallback = ns.mw.ModelFallbackMiddleware(models[1], models[2])
            agent = ns.create_agent(models[0], [weather_tool(ns)], middleware=[fallback])
            return agent, models[0]

        stream, result, _ = run(ns, build, is_async=is_async)
        return stream, result, log

    stream, result, log = on_both(go)
    if case == "all_fail":
        assert result == ("raised", "ValueError", "fb2 down")


def test_model_fallback_binds_the_tools_to_the_fallback():
    def go(ns):
        log: list = []
        primary = flaky_model(ns, "primary", [RuntimeError("boom")], "never", log=log)
        backup = script(ns, [tool_call()], "done")
        agent = ns.create_agent(
            primary,
            [weather_tool(ns)],
            system_prompt="Be brief",
            middleware=[ns.mw.ModelFallbackMiddleware(backup)],
        )
        result = final(agent.invoke(INPUT))
        kwargs = [normalize_ids(plain(call["kwargs"])) for call in backup.calls]
        return result, seen(backup), kwargs, log

    on_both(go)


# ---- ModelRetryMiddleware ---------------------------------------------------------------------

RETRY_CASES = {
    "ok_first": (0, {}),
    "ok_after_two": (2, {}),
    "continue": (3, {}),
    "error": (3, {"on_failure": "error"}),
    "custom_text": (3, {"on_failure": lambda e: f"sorry: {e}"}),
    "no_retries": (1, {"max_retries": 0}),
    "not_retried_type": (1, {"retry_on": (KeyError,)}),
    "retried_type": (1, {"retry_on": (ValueError,)}),
    "predicate": (2, {"retry_on": lambda e: "again" in str(e)}),
}


@pytest.mark.parametrize("case", sorted(RETRY_CASES))
def test_model_retry(case):
    failures, kwargs = RETRY_CASES[case]

    def go(ns):
        log: list = []

        def build():
            errors = [ValueError(f"try again {i}") for i in range(failures)]
            model = flaky_model(ns, "m", errors, [tool_call()], "done", log=log)
            retry = ns.mw.ModelRetryMiddleware(initial_delay=0, jitter=False, **kwargs)
            return ns.create_agent(model, [weather_tool(ns)], middleware=[retry]), model

        return run(ns, build), log

    on_both(go)


def test_model_retry_async():
    def go(ns):
        log: list = []

        def build():
            model = flaky_model(ns, "m", [ValueError("a"), ValueError("b")], "done", log=log)
            retry = ns.mw.ModelRetryMiddleware(max_retries=1, initial_delay=0)
            return ns.create_agent(model, middleware=[retry]), model

        return run(ns, build, is_async=True), log

    (_, result, _), _ = on_both(go)
    assert (
        result["messages"][-1]["content"] == "Model call failed after 2 attempts with ValueError: b"
    )


# ---- ToolRetryMiddleware ----------------------------------------------------------------------


def flaky_tool(ns, failures, log):
    plan = list(failures)

    @ns.tool
    def check_weather(location: str) -> str:
        """Return the weather forecast for the specified location."""
        if plan:
            log.append("fail")
            raise plan.pop(0)
        log.append("ok")
        return f"It's always sunny in {location}"

    return check_weather


TOOL_RETRY_CASES = {
    "ok_after_one": (1, {}),
    "continue": (3, {}),
    "error": (3, {"on_failure": "error"}),
    "custom_text": (3, {"on_failure": lambda e: f"tool broke: {e}"}),
    "other_tool_only": (1, {"tools": ["lookup"]}),
    "this_tool_by_object": (1, {"tools": "weather"}),
    "not_retried_type": (1, {"retry_on": (KeyError,)}),
    "one_retry": (2, {"max_retries": 1}),
}


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("case", sorted(TOOL_RETRY_CASES))
def test_tool_retry(case, is_async):
    failures, kwargs = TOOL_RETRY_CASES[case]

    def go(ns):
        log: list = []

        def build():
            tool = flaky_tool(ns, [ValueError(f"flaky {i}") for i in range(failures)], log)
            options = dict(kwargs)
            if options.get("tools") == "weather":
                options["tools"] = [tool]
            retry = ns.mw.ToolRetryMiddleware(initial_delay=0, jitter=False, **options)
            model = script(ns, [tool_call()], "done")
            return ns.create_agent(model, [tool, lookup_tool(ns)], middleware=[retry]), model

        return run(ns, build, is_async=is_async), log

    on_both(go)


@pytest.mark.parametrize("old", ["raise", "return_message"])
def test_tool_retry_deprecated_on_failure_values(old):
    def go(ns):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            retry = ns.mw.ToolRetryMiddleware(on_failure=old)
        return retry.on_failure, [(w.category.__name__, str(w.message)) for w in caught]

    on_both(go)


# ---- the retry helpers ----------------------------------------------------------------------


def retry_module(ns):
    if ns.name == "miniagent":
        from miniagent.agents.middleware import _retry
    else:
        from langchain.agents.middleware import _retry
    return _retry


@pytest.mark.parametrize("jitter", [False, True])
def test_calculate_delay(jitter):
    def go(ns):
        retry = retry_module(ns)
        random.seed(7)  # the jitter is random.uniform on both sides
        return [
            retry.calculate_delay(
                n, backoff_factor=factor, initial_delay=1.0, max_delay=10.0, jitter=jitter
            )
            for factor in (0.0, 1.5, 2.0)
            for n in range(6)
        ]

    delays = on_both(go)
    if not jitter:
        assert delays[6:12] == [1.0, 1.5, 2.25, 3.375, 5.0625, 7.59375]


@pytest.mark.parametrize(
    "args", [(-1, 1, 1, 1), (1, -1, 1, 1), (1, 1, -1, 1), (1, 1, 1, -1), (0, 0, 0, 0)]
)
def test_retry_parameters_are_validated(args):
    def go(ns):
        return (
            outcome(lambda: ns.mw.ModelRetryMiddleware(max_retries=args[0], initial_delay=args[1],
                                                       max_delay=args[2], backoff_factor=args[3]).name),
            outcome(lambda: ns.mw.ToolRetryMiddleware(max_retries=args[0], initial_delay=args[1],
                                                      max_delay=args[2], backoff_factor=args[3]).name),
        )  # fmt: skip

    on_both(go)


# ---- ContextEditingMiddleware -----------------------------------------------------------------


def tool_history(ns):
    """Three tool rounds with long results (the middle one with two calls), then a question."""
    m = ns.m
    long = "sunny and warm " * 40
    calls = [
        [tool_call(id="t1")],
        [tool_call("lookup", {"q": "a"}, id="t2"), tool_call(args={"location": "la"}, id="t3")],
        [tool_call(args={"location": "nyc"}, id="t4")],
    ]
    messages = [m.HumanMessage("weather?", id="h1")]
    for i, round_calls in enumerate(calls):
        messages.append(m.AIMessage("", id=f"a{i}", tool_calls=round_calls))
        for call in round_calls:
            messages.append(
                m.ToolMessage(
                    f"{call['id']}: {long}",
                    tool_call_id=call["id"],
                    name=call["name"],
                    id=f"r{call['id']}",
                    artifact={"raw": call["id"]},
                )
            )
    messages.append(m.HumanMessage("and now?", id="h2"))
    return {"messages": messages}


EDITS = {
    "default_not_triggered": {},
    "keep_1": {"trigger": 100, "keep": 1},
    "keep_0": {"trigger": 100, "keep": 0},
    "keep_all": {"trigger": 100, "keep": 5},
    "clear_inputs": {"trigger": 100, "keep": 1, "clear_tool_inputs": True},
    "exclude": {"trigger": 100, "keep": 0, "exclude_tools": ("lookup",)},
    "clear_at_least": {"trigger": 100, "keep": 0, "clear_at_least": 150},
    "placeholder": {"trigger": 500, "keep": 2, "placeholder": "<gone>"},
}


def seen_in_full(model):
    """What the model saw, with the fields the edit touches."""
    return [
        [
            (
                msg.type,
                msg.content,
                getattr(msg, "tool_calls", None),
                msg.response_metadata,
                getattr(msg, "artifact", None),
            )
            for msg in call["messages"]
        ]
        for call in model.calls
    ]


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("case", sorted(EDITS))
def test_context_editing(case, is_async):
    def go(ns):
        def build():
            model = script(ns, "done")
            edit = ns.mw.ClearToolUsesEdit(**EDITS[case])
            middleware = [ns.mw.ContextEditingMiddleware(edits=[edit])]
            tools = [weather_tool(ns), lookup_tool(ns)]
            return ns.create_agent(model, tools, middleware=middleware), model

        agent, model = build()
        history = tool_history(ns)
        if is_async:
            result = asyncio.run(agent.ainvoke(history))
        else:
            result = agent.invoke(history)
        return final(result), seen_in_full(model)

    result, sent = on_both(go)
    assert result["messages"][2]["content"].startswith("t1: sunny")  # the state is not edited


def test_context_editing_with_a_custom_counter_and_two_edits():
    def go(ns):
        counted = []

        def count(messages):
            counted.append(len(messages))
            return 10 * len(messages)

        model = script(ns, "done")
        edits = [
            ns.mw.ClearToolUsesEdit(trigger=50, keep=2),
            ns.mw.ClearToolUsesEdit(trigger=50, keep=0, placeholder="[gone]"),
        ]
        middleware = [ns.mw.ContextEditingMiddleware(edits=edits, token_counter=count)]
        agent = ns.create_agent(model, [weather_tool(ns), lookup_tool(ns)], middleware=middleware)
        agent.invoke(tool_history(ns))
        return seen_in_full(model), counted

    on_both(go)


def test_context_editing_in_a_loop_leaves_the_state_alone():
    def go(ns):
        def build():
            model = script(ns, [tool_call()], [tool_call(id="call_2")], "done")
            edit = ns.mw.ClearToolUsesEdit(trigger=10, keep=1)
            agent = ns.create_agent(
                model, [weather_tool(ns)], middleware=[ns.mw.ContextEditingMiddleware(edits=[edit])]
            )
            return agent, model

        return run(ns, build)

    on_both(go)


# ---- PIIMiddleware: detectors and strategies ------------------------------------------------

TEXTS = [
    "Mail ada@example.com or bob.smith+x@mail.co.uk now",
    "Card 4111 1111 1111 1111, bad card 4111-1111-1111-1112, plain 5500000000000004",
    "Server 192.168.0.1 and 999.1.1.1 and 10.0.0.255",
    "MAC 00:1A:2b:3C:4d:5E and 00-1a-2b-3c-4d-5e",
    "See https://example.com/a?b=c, www.example.org, docs.python.org/3/ and example.com",
    "nothing to see here",
]
TYPES = ["email", "credit_card", "ip", "mac_address", "url"]


def redaction_module(ns):
    if ns.name == "miniagent":
        from miniagent.agents.middleware import _redaction
    else:
        from langchain.agents.middleware import _redaction
    return _redaction


@pytest.mark.parametrize("pii_type", TYPES)
def test_detectors_and_strategies(pii_type):
    def go(ns):
        redaction = redaction_module(ns)
        detector = redaction.BUILTIN_DETECTORS[pii_type]
        out = []
        for text in TEXTS:
            matches = detector(text)
            applied = [
                outcome(partial(redaction.apply_strategy, text, matches, strategy))
                for strategy in ("redact", "mask", "hash", "block")
            ]
            out.append((matches, applied))
        return out

    out = on_both(go)
    assert any(matches for matches, _ in out)


def test_custom_detectors_and_unknown_types():
    def go(ns):
        by_regex = ns.mw.PIIMiddleware("api_key", detector=r"sk-[a-z0-9]{8}", strategy="mask")
        by_function = ns.mw.PIIMiddleware(
            "name",
            detector=lambda text: [
                {"text": "Ada", "start": i, "end": i + 3} for i in range(len(text)) if text.startswith("Ada", i)
            ],
            strategy="hash",
        )  # fmt: skip
        text = "Ada uses sk-abcd1234 and Ada again"
        return (
            by_regex.name,
            by_regex.detector(text),
            by_function.detector(text),
            by_function._process_content(text),
            by_regex._process_content([{"type": "text", "text": text}, {"type": "image", "url": "u"}]),
            outcome(lambda: ns.mw.PIIMiddleware("phone").name),
        )  # fmt: skip

    on_both(go)


# ---- PIIMiddleware in an agent --------------------------------------------------------------

PII_USER = "Email ada@example.com about card 4111 1111 1111 1111 from 10.0.0.1"


def pii_build(ns, middleware, replies, *, tool_result="It's always sunny"):
    @ns.tool
    def check_weather(location: str) -> str:
        """Return the weather forecast for the specified location."""
        return f"{tool_result} (from 192.168.1.20)"

    def build():
        model = script(ns, *replies)
        return ns.create_agent(model, [check_weather], middleware=middleware(ns)), model

    return build


PII_CASES = {
    "redact_input": (
        lambda ns: [ns.mw.PIIMiddleware("email")],
        ("Sure.",),
    ),
    "mask_input_twice": (
        lambda ns: [ns.mw.PIIMiddleware("email", strategy="mask"),
                    ns.mw.PIIMiddleware("credit_card", strategy="mask")],
        ([tool_call()], "Sure."),
    ),
    "block_input": (
        lambda ns: [ns.mw.PIIMiddleware("credit_card", strategy="block")],
        ("Sure.",),
    ),
    "hash_output": (
        lambda ns: [ns.mw.PIIMiddleware("email", strategy="hash", apply_to_input=False,
                                        apply_to_output=True)],
        ("Write to bob@example.org.",),
    ),
    "block_output": (
        lambda ns: [ns.mw.PIIMiddleware("url", strategy="block", apply_to_input=False,
                                        apply_to_output=True)],
        ("See https://example.com/x",),
    ),
    "tool_results": (
        lambda ns: [ns.mw.PIIMiddleware("ip", strategy="redact", apply_to_input=False,
                                        apply_to_tool_results=True)],
        ([tool_call()], "Done."),
    ),
    "everything": (
        lambda ns: [ns.mw.PIIMiddleware("ip", strategy="mask", apply_to_output=True,
                                        apply_to_tool_results=True)],
        ([tool_call()], "Your IP 10.0.0.1 is fine."),
    ),
    "nothing_to_do": (
        lambda ns: [ns.mw.PIIMiddleware("mac_address", apply_to_input=True)],
        ("Sure.",),
    ),
}  # fmt: skip


@pytest.mark.parametrize("is_async", [False, True], ids=["sync", "async"])
@pytest.mark.parametrize("case", sorted(PII_CASES))
def test_pii_in_an_agent(case, is_async):
    middleware, replies = PII_CASES[case]
    inputs = {"messages": [{"role": "user", "content": PII_USER, "id": "h-1"}]}

    def go(ns):
        return run(ns, pii_build(ns, middleware, replies), inputs, is_async=is_async)

    stream, result, sent = on_both(go)
    if case.startswith("block"):
        assert result[1] == "PIIDetectionError"


def test_pii_block_list_content_and_the_last_user_message_only():
    def go(ns):
        m = ns.m
        inputs = {
            "messages": [
                m.HumanMessage("old: ada@example.com", id="h0"),
                m.AIMessage("ok", id="a0"),
                m.HumanMessage(
                    [{"type": "text", "text": "new: bob@example.org"}, "and cat@example.net"],
                    id="h1",
                ),
            ]
        }
        build = pii_build(ns, lambda ns: [ns.mw.PIIMiddleware("email", strategy="mask")], ["ok"])
        return run(ns, build, inputs)

    on_both(go)


def test_pii_graph():
    on_both(
        lambda ns: graph(
            ns,
            [
                ns.mw.PIIMiddleware("email"),
                ns.mw.PIIMiddleware("url", apply_to_output=True),
            ],
        )
    )


# ---- all together -------------------------------------------------------------------------------


def test_the_built_ins_together():
    """A guardrail, limits, retries and trimming on one agent: one trace, the same on both."""

    def go(ns):
        log: list = []

        def build():
            model = flaky_model(
                ns,
                "m",
                [ValueError("blip")],
                [tool_call()],
                [tool_call(args={"location": "nyc"}, id="call_2")],
                [tool_call(id="call_3")],
                "done",
                log=log,
            )
            middleware = [
                ns.mw.PIIMiddleware("email"),
                ns.mw.ModelCallLimitMiddleware(run_limit=3),
                ns.mw.ToolCallLimitMiddleware(run_limit=2),
                ns.mw.ModelRetryMiddleware(initial_delay=0),
                ns.mw.ToolRetryMiddleware(initial_delay=0),
                ns.mw.ContextEditingMiddleware(edits=[ns.mw.ClearToolUsesEdit(trigger=50, keep=1)]),
            ]
            return ns.create_agent(model, [weather_tool(ns)], middleware=middleware), model

        inputs = {"messages": [{"role": "user", "content": "I am ada@example.com", "id": "h-1"}]}
        agent, _ = build()
        return run(ns, build, inputs), log, agent.get_graph().draw_mermaid()

    on_both(go)


# ---- count_tokens_approximately (the default token counter) ---------------------------------


def count_module(ns):
    if ns.name == "miniagent":
        from miniagent.messages import utils
    else:
        from langchain_core.messages import utils
    return utils


def test_count_tokens_approximately():
    def go(ns):
        count = count_module(ns).count_tokens_approximately
        history = tool_history(ns)["messages"]
        m = ns.m
        usage = {"input_tokens": 300, "output_tokens": 20, "total_tokens": 320}
        scaled = [
            m.HumanMessage("hello " * 30),
            m.AIMessage(
                "hi " * 10, usage_metadata=usage, response_metadata={"model_provider": "x"}
            ),
            m.HumanMessage("more"),
        ]
        blocks = m.HumanMessage(
            [{"type": "text", "text": "see"}, {"type": "image_url", "image_url": {"url": "u"}},
             {"type": "audio", "data": "zz"}, "plain"],
            name="ada",
        )  # fmt: skip
        tools = [weather_tool(ns), {"type": "function", "function": {"name": "x"}}]
        return [
            count(history),
            count(history, chars_per_token=3.3, extra_tokens_per_message=2.5, count_name=False),
            count([blocks, m.SystemMessage("be brief")], tokens_per_image=100),
            count(scaled),
            count(scaled, use_usage_metadata_scaling=True),
            count([("user", "a dict-like tuple")], tools=tools),
        ]

    on_both(go)
