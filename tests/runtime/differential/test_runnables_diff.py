"""miniagent.runnables against langchain-core / langgraph: same calls, same results and errors.

No ``from __future__ import annotations``: RunnableCallable looks at real annotation objects.
"""

import asyncio
import warnings
from collections.abc import Callable
from functools import partial
from types import SimpleNamespace
from typing import Any, Optional

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langgraph")

import langchain_core.runnables as up_runnables  # noqa: E402
import langchain_core.runnables.config as up_config  # noqa: E402
from langgraph._internal._runnable import RunnableCallable as UpRunnableCallable  # noqa: E402
from langgraph.runtime import Runtime as UpRuntime  # noqa: E402

import miniagent.runnables as mini_runnables  # noqa: E402
import miniagent.runnables.config as mini_config  # noqa: E402
from miniagent.runtime import Runtime as MiniRuntime  # noqa: E402

UP = SimpleNamespace(
    R=up_runnables,
    config=up_config,
    RunnableCallable=UpRunnableCallable,
    Runtime=UpRuntime,
    RunnableConfig=up_runnables.RunnableConfig,
)
MINI = SimpleNamespace(
    R=mini_runnables,
    config=mini_config,
    RunnableCallable=mini_runnables.RunnableCallable,
    Runtime=MiniRuntime,
    RunnableConfig=mini_runnables.RunnableConfig,
)
RUNTIME_KEY = "__pregel_runtime"


def outcome(fn: Callable[[], Any]) -> tuple[Any, ...]:
    """("ok", value) or ("error", exception type name, message)."""
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001
        return ("error", type(e).__name__, str(e))


def both(scenario: Callable[[SimpleNamespace], Any]) -> tuple[Any, Any]:
    """Run one scenario on each side; the scenario returns plain data to compare."""
    return outcome(lambda: scenario(MINI)), outcome(lambda: scenario(UP))


def assert_same(scenario: Callable[[SimpleNamespace], Any]) -> None:
    mini, up = both(scenario)
    assert mini == up


def add_one(x: int) -> int:
    return x + 1


async def aadd_one(x: int) -> int:
    return x + 1


def named(lib: SimpleNamespace, *names: str) -> list[Any]:
    return [lib.R.RunnableLambda(add_one, name=n) for n in names]


def describe(seq: Any) -> dict[str, Any]:
    return {
        "steps": [s.get_name() for s in seq.steps],
        "first": seq.first.get_name(),
        "middle": [s.get_name() for s in seq.middle],
        "last": seq.last.get_name(),
        "name": seq.name,
        "get_name": seq.get_name(),
        "result": seq.invoke(0),
    }


# ---------------------------------------------------------------- sequences

SEQUENCES: dict[str, Callable[[SimpleNamespace], Any]] = {
    "a|b": lambda L: (lambda a, b: a | b)(*named(L, "a", "b")),
    "(a|b)|c": lambda L: (lambda a, b, c: (a | b) | c)(*named(L, "a", "b", "c")),
    "a|(b|c)": lambda L: (lambda a, b, c: a | (b | c))(*named(L, "a", "b", "c")),
    "(a|b)|(c|d)": lambda L: (lambda a, b, c, d: (a | b) | (c | d))(*named(L, *"abcd")),
    "ctor nested": lambda L: (
        lambda a, b, c, d: L.R.RunnableSequence(a, L.R.RunnableSequence(b, c), d)
    )(*named(L, *"abcd")),
    "ctor first/middle/last": lambda L: (
        lambda a, b, c: L.R.RunnableSequence(first=a, middle=[b], last=c)
    )(*named(L, *"abc")),
    "callable|a": lambda L: add_one | named(L, "a")[0],
    "a|lambda": lambda L: named(L, "a")[0] | (lambda x: x * 10),
    "a|dict": lambda L: named(L, "a")[0] | {"p": add_one, "q": lambda x: -x},
    "pipe named": lambda L: (lambda a, b, c: a.pipe(b, c, name="P"))(*named(L, *"abc")),
    "named|c": lambda L: (lambda a, b, c: L.R.RunnableSequence(a, b, name="n") | c)(
        *named(L, *"abc")
    ),
    "c|named": lambda L: (lambda a, b, c: c | L.R.RunnableSequence(a, b, name="n"))(
        *named(L, *"abc")
    ),
    "callable|named": lambda L: (lambda a, b: add_one | L.R.RunnableSequence(a, b, name="n"))(
        *named(L, *"ab")
    ),
    "named|named2": lambda L: (
        lambda a, b, c, d: (
            L.R.RunnableSequence(a, b, name="n") | L.R.RunnableSequence(c, d, name="m")
        )
    )(*named(L, *"abcd")),
    "seq|named": lambda L: (
        lambda a, b, c, d: L.R.RunnableSequence(a, b) | L.R.RunnableSequence(c, d, name="m")
    )(*named(L, *"abcd")),
}


@pytest.mark.parametrize("shape", list(SEQUENCES))
def test_sequence_shapes(shape: str) -> None:
    assert_same(lambda L: describe(SEQUENCES[shape](L)))


@pytest.mark.parametrize("n", [0, 1])
def test_sequence_needs_two_steps(n: int) -> None:
    mini, up = both(lambda L: L.R.RunnableSequence(*named(L, *"abc"[:n])))
    assert mini == up and up[0] == "error"
    mini, up = both(lambda L: named(L, "a")[0].pipe())
    assert mini == up and up[0] == "error"


def test_sequence_kwargs_reach_first_step_only() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        first = L.R.RunnableLambda(lambda x, **kw: {"x": x, "kw": kw})
        second = L.R.RunnableLambda(lambda d, **kw: {"prev": d, "kw": kw})
        return (first | second).invoke(1, None, k=1)

    assert_same(scenario)


def test_sequence_steps_get_fresh_configs() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        class Mutates(L.R.Runnable):
            def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
                config["configurable"]["leak"] = True
                config["tags"].append("leak")
                return input

        def read(x: int, config: Any) -> Any:
            return config["tags"], config["configurable"], config.get("run_name")

        given = {"tags": ["t"], "configurable": {"a": 1}, "run_name": "top"}
        return (Mutates() | L.R.RunnableLambda(read)).invoke(1, given), given

    assert_same(scenario)


def test_sequence_async_stream_and_repr() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        seq = L.R.RunnableLambda(add_one) | L.R.RunnableLambda(aadd_one)

        async def go() -> Any:
            return await seq.ainvoke(1), [c async for c in seq.astream(1)]

        return asyncio.run(go()), repr(seq), list((add_one | L.R.RunnableLambda(add_one)).stream(1))

    assert_same(scenario)


# ---------------------------------------------------------------- bindings


def test_bind_merges_kwargs_over_the_same_bound() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        model = L.R.RunnableLambda(lambda x, **kw: kw, name="model")
        b = model.bind(a=1).bind(b=2)
        override = model.bind(a=1).bind(a=3)
        return {
            "type": type(b).__name__,
            "kwargs": b.kwargs,
            "same_bound": b.bound is model,
            "config": b.config,
            "override": override.kwargs,
            "invoke": b.invoke(0, None, a=9, c=3),
            "name": (b.get_name(), b.name),
        }

    assert_same(scenario)


def test_with_config_and_bind_compose() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        def read(x: int, config: Any) -> Any:
            return sorted(config["tags"]), config["metadata"], config.get("run_name")

        model = L.R.RunnableLambda(read)
        b = model.bind(a=1).with_config(tags=["x"]).with_config({"metadata": {"k": 1}})
        c = model.with_config(tags=["y"], run_name="r").bind(z=1)
        d = model.with_config(tags=["b"], metadata={"x": 1})
        return {
            "b": (b.bound is model, b.kwargs, b.config),
            "c": (c.bound is model, c.kwargs, c.config),
            "d": d.invoke(0, {"tags": ["a"], "metadata": {"y": 2}}),
        }

    assert_same(scenario)


def test_binding_getattr() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        b = L.R.RunnableLambda(add_one).bind(a=1)
        return b.func is add_one, outcome(lambda: b.nope)

    assert_same(scenario)


# ---------------------------------------------------------------- RunnableLambda


CALLABLES: dict[str, Callable[[], tuple[Any, Any]]] = {
    "def": lambda: (add_one, None),
    "lambda": lambda: (lambda x: x, None),
    "partial": lambda: (partial(add_one), None),
    "async def": lambda: (aadd_one, None),
    "def + afunc": lambda: (add_one, aadd_one),
    "lambda + afunc": lambda: (lambda x: x, aadd_one),
}


@pytest.mark.parametrize("kind", list(CALLABLES))
def test_lambda_names(kind: str) -> None:
    def scenario(L: SimpleNamespace) -> Any:
        func, afunc = CALLABLES[kind]()
        r = L.R.RunnableLambda(func, afunc=afunc)
        return r.get_name(), r.get_name("input"), L.R.RunnableLambda(func, name="given").get_name()

    assert_same(scenario)


def test_lambda_reprs() -> None:
    f = lambda x: x + 1  # noqa: E731

    def returns_lambda(x: int) -> Any:
        return f  # no lambda in this source: the name is used

    assert_same(
        lambda L: [repr(L.R.RunnableLambda(g)) for g in (add_one, aadd_one, f, returns_lambda)]
    )


ERRORS: dict[str, Callable[[SimpleNamespace], Any]] = {
    "async-only invoke": lambda L: L.R.RunnableLambda(aadd_one).invoke(1),
    "async-only stream": lambda L: list(L.R.RunnableLambda(aadd_one).stream(1)),
    "two async": lambda L: L.R.RunnableLambda(aadd_one, afunc=aadd_one),
    "not callable": lambda L: L.R.RunnableLambda(5),
    "coerce int": lambda L: L.R.RunnableLambda(add_one) | 5,
    "ror int": lambda L: 5 | L.R.RunnableLambda(add_one),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_lambda_errors(case: str) -> None:
    mini, up = both(ERRORS[case])
    assert mini == up and up[0] == "error"


def test_lambda_config_injection() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        def positional(x: int, config: Any) -> Any:
            return sorted(config), config["tags"], config["recursion_limit"]

        def keyword_only(x: int, *, config: Any = None) -> Any:
            return config["tags"], config["metadata"]

        cfg = {"tags": ["t"], "metadata": {"m": 1}, "run_name": "r", "recursion_limit": 7}
        return (
            L.R.RunnableLambda(positional).invoke(1, cfg),
            L.R.RunnableLambda(keyword_only).invoke(1, cfg),
            L.R.RunnableLambda(lambda x, **kw: kw).invoke(1, None, a=2),
            asyncio.run(L.R.RunnableLambda(positional).ainvoke(1, cfg)),
        )

    assert_same(scenario)


def test_lambda_nested_call_inherits_the_current_config() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        def node(x: int) -> Any:
            cfg = L.config.ensure_config()  # no config passed: the current one is used
            return cfg["tags"], cfg["metadata"], cfg["recursion_limit"]

        return L.R.RunnableLambda(node).invoke(1, {"tags": ["t"], "metadata": {"k": 1}})

    assert_same(scenario)


def test_lambda_returning_a_runnable() -> None:
    def rec(L: SimpleNamespace) -> Any:
        def f(x: int) -> Any:
            return L.R.RunnableLambda(f)

        f.__name__ = "rec"
        return L.R.RunnableLambda(f)

    assert_same(lambda L: L.R.RunnableLambda(lambda x: L.R.RunnableLambda(add_one)).invoke(3))
    assert_same(lambda L: rec(L).invoke(3))
    assert_same(lambda L: rec(L).invoke(3, {"recursion_limit": 2}))


# ---------------------------------------------------------------- RunnableCallable


def test_async_only_callable_invoked_synchronously() -> None:
    for build in (
        lambda L: L.RunnableCallable(None, aadd_one, name="Prompt"),
        lambda L: L.RunnableCallable(None, aadd_one),
        lambda L: L.RunnableCallable(None, lambda x: x),
    ):
        mini, up = both(lambda L, build=build: build(L).invoke(1))
        assert mini == up and up[0] == "error" and "No synchronous function" in up[2]
    mini, up = both(lambda L: L.RunnableCallable(None, None))
    assert mini == up and up[0] == "error"


def test_callable_names() -> None:
    assert_same(
        lambda L: [
            (r.name, r.get_name())
            for r in (
                L.RunnableCallable(add_one),
                L.RunnableCallable(lambda x: x),
                L.RunnableCallable(None, lambda x: x),
                L.RunnableCallable(None, aadd_one),
                L.RunnableCallable(partial(add_one)),
                L.RunnableCallable(add_one, name="Prompt"),
            )
        ]
    )


def f_config(state, config):  # noqa: ANN001
    return config


def f_runtime(state, runtime):  # noqa: ANN001
    return type(runtime).__name__


def f_store(state, store):  # noqa: ANN001
    return store


def f_store_default(state, store=None):  # noqa: ANN001
    return store


def f_store_kw(state, *, store):  # noqa: ANN001
    return store


def f_previous(state, previous):  # noqa: ANN001
    return previous


def f_writer(state, *, writer):  # noqa: ANN001
    return writer("x")


def f_prompt(state, config, *, store):  # noqa: ANN001
    return config["tags"], store


def f_pos_only(state, config, /):  # noqa: ANN001
    return config


def f_var_kw(state, **kwargs):  # noqa: ANN001
    return kwargs


def f_opt_store(state, *, store: "Optional[BaseStore]"):  # noqa: F821, UP037
    return store


INJECTION = [
    f_config,
    f_runtime,
    f_store,
    f_store_default,
    f_store_kw,
    f_previous,
    f_writer,
    f_prompt,
    f_pos_only,
    f_var_kw,
    f_opt_store,
]


def injection_config(L: SimpleNamespace, with_runtime: bool) -> dict[str, Any]:
    cfg: dict[str, Any] = {"tags": ["t"]}
    if with_runtime:
        runtime = L.Runtime(store="S", previous="P", stream_writer=lambda c: f"wrote {c}")
        cfg["configurable"] = {RUNTIME_KEY: runtime}
    return cfg


@pytest.mark.parametrize("with_runtime", [False, True])
@pytest.mark.parametrize("func", INJECTION, ids=lambda f: f.__name__)
def test_callable_injection(func: Any, with_runtime: bool) -> None:
    def scenario(L: SimpleNamespace) -> Any:
        cfg = injection_config(L, with_runtime)
        out = L.RunnableCallable(func, trace=False).invoke(1, cfg)
        return "the given config" if out is cfg else out

    assert_same(scenario)


def test_callable_config_when_none_is_given() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        cfg = L.RunnableCallable(f_config).invoke(1)
        return sorted(cfg), cfg["tags"], dict(cfg["metadata"]), cfg["configurable"]

    assert_same(scenario)


def test_callable_explicit_and_bound_kwargs() -> None:
    assert_same(
        lambda L: (
            L.RunnableCallable(f_runtime).invoke(1, None, runtime=3),
            L.RunnableCallable(f_var_kw, foo=1).invoke(1, None, bar=2),
            asyncio.run(L.RunnableCallable(f_var_kw).ainvoke(1, None, dropped=1)),
        )
    )


def test_callable_recurse_and_async() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        inner = L.R.RunnableLambda(lambda y: y * 10)

        async def ainner(x: int) -> Any:
            return inner

        return (
            L.RunnableCallable(lambda x: inner).invoke(2),
            L.RunnableCallable(lambda x: inner, recurse=False).invoke(2) is inner,
            asyncio.run(L.RunnableCallable(None, ainner).ainvoke(2)),
            asyncio.run(L.RunnableCallable(add_one).ainvoke(2)),
        )

    assert_same(scenario)


def test_callable_config_annotation_warnings() -> None:
    def typed_dict(state: Any, config: dict) -> Any:
        return config

    def string_union(state: Any, config: "RunnableConfig | None") -> Any:  # noqa: F821, UP037
        return config

    def string_plain(state: Any, config: "RunnableConfig") -> Any:  # noqa: F821, UP037
        return config

    def scenario(L: SimpleNamespace) -> Any:
        out = []
        for f in (typed_dict, string_union, string_plain):
            with warnings.catch_warnings(record=True) as record:
                warnings.simplefilter("always")
                r = L.RunnableCallable(f)
            out.append(([str(w.message) for w in record], r.func_accepts))
        return out

    assert_same(scenario)


def test_callable_typed_config() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        def real(state: Any, config: L.RunnableConfig) -> Any:
            return config

        def optional(state: Any, config: Optional[L.RunnableConfig]) -> Any:  # noqa: UP045
            return config

        cfg = {"tags": ["x"]}
        return [L.RunnableCallable(f).invoke(1, cfg) is cfg for f in (real, optional)]

    assert_same(scenario)


def test_callable_current_config_while_running() -> None:
    def scenario(L: SimpleNamespace) -> Any:
        def peek(state: Any) -> Any:
            cfg = L.config.var_child_runnable_config.get()
            return None if cfg is None else (cfg.get("tags"), "run_name" in cfg)

        given = {"tags": ["t"], "run_name": "r"}
        return (
            L.RunnableCallable(peek).invoke(1, dict(given)),
            L.RunnableCallable(peek, trace=False).invoke(1, dict(given)),
        )

    assert_same(scenario)


# ---------------------------------------------------------------- config helpers

CONFIGS: list[dict[str, Any]] = [
    {},
    {"tags": ["a"], "metadata": {"k": 1}, "recursion_limit": 3},
    {"thread_id": "t1", "configurable": {"model": "gpt", "a": 1}},
    {"tags": None, "run_name": "r", "max_concurrency": 2},
    {"configurable": {"checkpoint_ns": "ns"}, "metadata": {"checkpoint_ns": "other"}},
]


@pytest.mark.parametrize("cfg", CONFIGS)
def test_ensure_config(cfg: dict[str, Any]) -> None:
    assert_same(lambda L: L.config.ensure_config(cfg))


@pytest.mark.parametrize("cfg", CONFIGS)
def test_ensure_config_under_a_current_config(cfg: dict[str, Any]) -> None:
    parent = {"tags": ["p"], "metadata": {"pm": 1}, "configurable": {"pc": 1}, "recursion_limit": 9}

    def scenario(L: SimpleNamespace) -> Any:
        token = L.config.var_child_runnable_config.set(parent)
        try:
            return L.config.ensure_config(cfg)
        finally:
            L.config.var_child_runnable_config.reset(token)

    assert_same(scenario)


@pytest.mark.parametrize(
    "configs",
    [
        (),
        ({}, {}),
        ({"tags": ["b", "a"], "metadata": {"x": 1}}, None, {"tags": ["a", "c"], "run_name": "r"}),
        ({"recursion_limit": 5}, {"recursion_limit": 25}),
        ({"recursion_limit": 5}, {"recursion_limit": 7}),
        ({"configurable": {"a": 1}}, {"configurable": {"b": 2}, "max_concurrency": 3}),
        ({"max_concurrency": 3}, {"max_concurrency": None}, {}),
        ({"callbacks": ["h1"]}, {"callbacks": ["h2"]}),
    ],
)
def test_merge_configs(configs: tuple[Any, ...]) -> None:
    assert_same(lambda L: L.config.merge_configs(*configs))


def test_patch_config() -> None:
    assert_same(
        lambda L: [
            L.config.patch_config({"run_name": "x", "tags": ["a"]}, callbacks=["h"]),
            L.config.patch_config({"run_name": "x"}, run_name="y", max_concurrency=2),
            L.config.patch_config(
                {"configurable": {"a": 1}}, configurable={"b": 2}, recursion_limit=3
            ),
        ]
    )


def test_batch() -> None:
    def boom(x: int) -> int:
        if x == 2:
            raise ValueError("boom")
        return x

    def scenario(L: SimpleNamespace) -> Any:
        r = L.R.RunnableLambda(boom)
        return (
            [repr(o) for o in r.batch([1, 2, 3], return_exceptions=True)],
            [repr(o) for o in asyncio.run(r.abatch([1, 3]))],
            r.batch([]),
            outcome(lambda: r.batch([1, 2], [{}])),
            outcome(lambda: r.batch([1, 2])),
        )

    assert_same(scenario)
