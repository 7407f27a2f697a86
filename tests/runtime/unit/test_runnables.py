"""Unit tests for miniagent.runnables: config, Runnable, sequences, lambdas, bindings, callables.

No ``from __future__ import annotations`` here: RunnableCallable looks at real annotation objects.
"""

import asyncio
import copy
import inspect
import warnings
from functools import partial
from typing import Any, Optional

import pytest

from miniagent.constants import CONFIG_KEY_RUNTIME
from miniagent.runnables import (
    DEFAULT_RECURSION_LIMIT,
    Runnable,
    RunnableBinding,
    RunnableCallable,
    RunnableConfig,
    RunnableLambda,
    RunnableParallel,
    RunnableSequence,
    coerce_to_runnable,
    ensure_config,
    get_config_list,
    merge_configs,
    patch_config,
    set_config_context,
    var_child_runnable_config,
)
from miniagent.runnables import callable as callable_module
from miniagent.runtime import Runtime

ASYNC_ONLY_ERROR = (
    'No synchronous function provided to "{}".\nEither initialize with a synchronous function '
    "or invoke via the async API (ainvoke, astream, etc.)"
)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def add_one(x: int) -> int:
    return x + 1


async def aadd_one(x: int) -> int:
    return x + 1


class Echo(Runnable):
    """Returns its input, its config and its kwargs, so tests can see what arrived."""

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        return {"input": input, "config": config, "kwargs": kwargs}


class Ensures(Runnable):
    """Returns ``ensure_config(config)``: what a model would report to."""

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        return ensure_config(config)


class Chunks(Runnable):
    """A Runnable with a real stream: one chunk per character."""

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        return str(input)

    def stream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        yield from str(input)

    async def astream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        for ch in str(input):
            yield ch


class Handler:
    """A stand-in callback handler (config["callbacks"] holds objects like this)."""


# ---------------------------------------------------------------- config


class TestEnsureConfig:
    def test_defaults(self) -> None:
        assert ensure_config() == {
            "tags": [],
            "metadata": {},
            "callbacks": None,
            "recursion_limit": 25,
            "configurable": {},
        }
        assert DEFAULT_RECURSION_LIMIT == 25

    def test_given_values_win_and_are_copied(self) -> None:
        given: RunnableConfig = {"tags": ["a"], "metadata": {"k": 1}, "recursion_limit": 3}
        out = ensure_config(given)
        assert out["tags"] == ["a"] and out["metadata"] == {"k": 1} and out["recursion_limit"] == 3
        out["tags"].append("b")
        out["metadata"]["j"] = 2
        assert given == {"tags": ["a"], "metadata": {"k": 1}, "recursion_limit": 3}

    def test_none_values_are_ignored(self) -> None:
        assert ensure_config({"tags": None, "recursion_limit": None})["recursion_limit"] == 25

    def test_unknown_top_level_keys_go_to_configurable(self) -> None:
        out = ensure_config({"thread_id": "t1", "configurable": {"a": 1}})
        assert out["configurable"] == {"a": 1, "thread_id": "t1"}

    def test_model_and_checkpoint_ns_are_copied_to_metadata(self) -> None:
        out = ensure_config({"configurable": {"model": "m", "checkpoint_ns": "ns", "x": "y"}})
        assert out["metadata"] == {"model": "m", "checkpoint_ns": "ns"}
        kept = ensure_config({"configurable": {"model": "m"}, "metadata": {"model": "other"}})
        assert kept["metadata"] == {"model": "other"}

    def test_starts_from_the_current_config(self) -> None:
        h = Handler()
        with set_config_context({"tags": ["p"], "callbacks": [h], "recursion_limit": 5}):
            inherited = ensure_config()
            overridden = ensure_config({"tags": ["c"]})
        assert inherited["tags"] == ["p"] and inherited["callbacks"] == [h]
        assert inherited["recursion_limit"] == 5
        assert overridden["tags"] == ["c"] and overridden["callbacks"] == [h]
        assert ensure_config()["callbacks"] is None


class TestSetConfigContext:
    def test_sets_and_resets(self) -> None:
        assert var_child_runnable_config.get() is None
        with set_config_context({"tags": ["x"]}) as cfg:
            assert var_child_runnable_config.get() == {"tags": ["x"]} == cfg
            with set_config_context({"tags": ["y"]}):
                assert var_child_runnable_config.get() == {"tags": ["y"]}
            assert var_child_runnable_config.get() == {"tags": ["x"]}
        assert var_child_runnable_config.get() is None

    def test_resets_on_error(self) -> None:
        with pytest.raises(KeyError), set_config_context({"tags": ["x"]}):
            raise KeyError("boom")
        assert var_child_runnable_config.get() is None


class TestMergeAndPatch:
    def test_merge_rules(self) -> None:
        h1, h2 = Handler(), Handler()
        out = merge_configs(
            {"tags": ["b", "a"], "metadata": {"x": 1}, "callbacks": [h1], "configurable": {"a": 1}},
            None,
            {"tags": ["a", "c"], "metadata": {"y": 2}, "callbacks": [h2], "run_name": "r"},
        )
        assert out["tags"] == ["a", "b", "c"]
        assert out["metadata"] == {"x": 1, "y": 2}
        assert out["callbacks"] == [h1, h2]
        assert out["configurable"] == {"a": 1}
        assert out["run_name"] == "r"

    def test_merge_does_not_duplicate_a_shared_handler(self) -> None:
        h = Handler()
        assert merge_configs({"callbacks": [h]}, {"callbacks": [h]})["callbacks"] == [h]

    def test_default_recursion_limit_does_not_override(self) -> None:
        assert (
            merge_configs({"recursion_limit": 5}, {"recursion_limit": 25})["recursion_limit"] == 5
        )
        assert merge_configs({"recursion_limit": 5}, {"recursion_limit": 7})["recursion_limit"] == 7

    def test_merge_nothing(self) -> None:
        assert merge_configs() == {}
        assert "callbacks" not in merge_configs({}, {})

    def test_patch(self) -> None:
        h = Handler()
        out = patch_config({"run_name": "x", "tags": ["a"]}, callbacks=[h], recursion_limit=3)
        assert "run_name" not in out and out["callbacks"] == [h] and out["recursion_limit"] == 3
        out = patch_config({"configurable": {"a": 1}}, configurable={"b": 2}, run_name="y")
        assert out["configurable"] == {"a": 1, "b": 2} and out["run_name"] == "y"

    def test_get_config_list(self) -> None:
        assert len(get_config_list({"tags": ["a"]}, 3)) == 3
        with pytest.raises(ValueError, match="^length must be >= 0, but got -1$"):
            get_config_list(None, -1)
        with pytest.raises(ValueError) as e:
            get_config_list([{}], 2)
        assert str(e.value) == (
            "config must be a list of the same length as inputs, but got 1 configs for 2 inputs"
        )


# ---------------------------------------------------------------- Runnable


class TestRunnable:
    def test_invoke_is_abstract(self) -> None:
        class NoInvoke(Runnable):
            pass

        with pytest.raises(TypeError):
            NoInvoke()  # type: ignore[abstract]

    def test_get_name(self) -> None:
        assert Echo().get_name() == "Echo"
        assert Echo().get_name("input") == "EchoInput"
        assert RunnableLambda(add_one).get_name("Input") == "add_one_input"
        assert Echo().get_name(name="other") == "other"

    def test_default_async_stream_and_batch(self) -> None:
        r = RunnableLambda(add_one)
        assert run(r.ainvoke(1)) == 2
        assert list(Echo().stream(1)) == [{"input": 1, "config": None, "kwargs": {}}]

        async def collect() -> list[Any]:
            return [c async for c in Echo().astream(1, None, k=1)]

        assert run(collect()) == [{"input": 1, "config": None, "kwargs": {"k": 1}}]
        assert r.batch([1, 2, 3]) == [2, 3, 4]
        assert r.batch([]) == []
        assert run(r.abatch([1, 2, 3])) == [2, 3, 4]

    def test_batch_passes_one_config_per_input(self) -> None:
        out = Echo().batch([1, 2], [{"tags": ["a"]}, {"tags": ["b"]}])
        assert [o["config"]["tags"] for o in out] == [["a"], ["b"]]

    def test_batch_exceptions(self) -> None:
        def boom(x: int) -> int:
            if x == 2:
                raise ValueError("boom")
            return x

        r = RunnableLambda(boom)
        with pytest.raises(ValueError, match="boom"):
            r.batch([1, 2, 3])
        out = r.batch([1, 2, 3], return_exceptions=True)
        assert out[0] == 1 and isinstance(out[1], ValueError) and out[2] == 3
        out = run(r.abatch([1, 2, 3], return_exceptions=True))
        assert out[0] == 1 and isinstance(out[1], ValueError) and out[2] == 3
        with pytest.raises(ValueError, match="boom"):
            run(r.abatch([2]))

    def test_or_coerces_callables_and_dicts(self) -> None:
        seq = RunnableLambda(add_one) | (lambda x: x * 10)
        assert isinstance(seq, RunnableSequence) and seq.invoke(1) == 20
        assert ((lambda x: x + 1) | RunnableLambda(add_one)).invoke(1) == 3
        par = RunnableLambda(add_one) | {"a": add_one, "b": lambda x: -x}
        assert par.invoke(1) == {"a": 3, "b": -2}
        assert ({"a": add_one} | RunnableLambda(lambda d: d["a"])).invoke(1) == 2

    def test_or_with_unsupported_type(self) -> None:
        msg = "Expected a Runnable, callable or dict.Instead got an unsupported type: <class 'int'>"
        with pytest.raises(TypeError) as e:
            RunnableLambda(add_one) | 5
        assert str(e.value) == msg
        with pytest.raises(TypeError) as e:
            5 | RunnableLambda(add_one)
        assert str(e.value) == msg
        with pytest.raises(TypeError) as e:
            coerce_to_runnable(5)
        assert str(e.value) == msg

    def test_coerce(self) -> None:
        r = Echo()
        assert coerce_to_runnable(r) is r
        assert isinstance(coerce_to_runnable(add_one), RunnableLambda)
        assert isinstance(coerce_to_runnable({"a": add_one}), RunnableParallel)

    def test_pipe(self) -> None:
        a, b, c = (RunnableLambda(add_one, name=n) for n in "abc")
        seq = a.pipe(b, c, name="P")
        assert [s.name for s in seq.steps] == ["a", "b", "c"] and seq.name == "P"
        assert seq.invoke(0) == 3

    def test_bind_and_with_config(self) -> None:
        r = Echo()
        b = r.bind(a=1)
        assert isinstance(b, RunnableBinding) and b.bound is r
        assert b.kwargs == {"a": 1} and b.config == {}
        w = r.with_config({"tags": ["x"]}, run_name="n")
        assert w.bound is r and w.kwargs == {} and w.config == {"tags": ["x"], "run_name": "n"}


# ---------------------------------------------------------------- RunnableSequence


class TestRunnableSequence:
    def setup_method(self) -> None:
        self.a, self.b, self.c, self.d = (RunnableLambda(add_one, name=n) for n in "abcd")

    def names(self, seq: RunnableSequence) -> list[str | None]:
        return [s.name for s in seq.steps]

    def test_first_middle_last(self) -> None:
        s = self.a | self.b
        assert s.first is self.a and s.last is self.b and s.middle == []
        s3 = self.a | self.b | self.c
        assert s3.middle == [self.b] and self.names(s3) == ["a", "b", "c"]

    def test_flattens(self) -> None:
        assert self.names((self.a | self.b) | (self.c | self.d)) == ["a", "b", "c", "d"]
        nested = RunnableSequence(self.a, RunnableSequence(self.b, self.c), self.d)
        assert self.names(nested) == ["a", "b", "c", "d"]
        built = RunnableSequence(first=self.a, middle=[self.b], last=self.c)
        assert self.names(built) == ["a", "b", "c"]

    @pytest.mark.parametrize("n", [0, 1])
    def test_needs_two_steps(self, n: int) -> None:
        with pytest.raises(ValueError) as e:
            RunnableSequence(*[self.a] * n)
        assert str(e.value) == f"RunnableSequence must have at least 2 steps, got {n}"
        with pytest.raises(ValueError, match="got 1$"):
            self.a.pipe()

    def test_names(self) -> None:
        named = RunnableSequence(self.a, self.b, name="n")
        assert named.get_name() == "n" and (self.a | self.b).get_name() == "RunnableSequence"
        assert (named | self.c).name == "n"
        assert (named | RunnableSequence(self.c, self.d, name="m")).name == "n"
        assert (RunnableSequence(self.c, self.d) | named).name == "n"
        assert (self.c | named).name is None  # Runnable.__or__ builds an unnamed sequence
        assert (add_one | named).name == "n"  # RunnableSequence.__ror__ keeps the name

    def test_invoke_threads_values_and_config(self) -> None:
        seen: list[Any] = []

        def step(x: int, config: RunnableConfig) -> int:
            seen.append((config["tags"], "run_name" in config, var_child_runnable_config.get()))
            return x * 2

        seq = RunnableLambda(step) | RunnableLambda(step) | add_one
        assert seq.invoke(3, {"tags": ["t"], "run_name": "top"}) == 13
        assert [s[:2] for s in seen] == [(["t"], False), (["t"], False)]
        assert all(s[2]["tags"] == ["t"] for s in seen)  # the current config while it ran
        assert var_child_runnable_config.get() is None

    def test_steps_never_change_the_callers_config(self) -> None:
        class Mutates(Runnable):
            def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
                config["configurable"]["leak"] = True
                config["tags"].append("leak")
                return input

        given: RunnableConfig = {"tags": ["t"], "configurable": {"a": 1}}
        out = (Mutates() | Ensures()).invoke(1, given)
        assert given == {"tags": ["t"], "configurable": {"a": 1}}
        # Each step's config is a copy of the previous step's, so a change flows forward (as
        # upstream, where every step gets patch_config(previous_config)).
        assert out["configurable"] == {"a": 1, "leak": True} and out["tags"] == ["t", "leak"]

    def test_kwargs_go_to_first_step_only(self) -> None:
        seq = Echo() | (lambda d: d) | Echo()
        out = seq.invoke(1, None, k=1)
        assert out["kwargs"] == {} and out["input"]["kwargs"] == {"k": 1}

    def test_ainvoke(self) -> None:
        seq = RunnableLambda(add_one, afunc=aadd_one) | RunnableLambda(aadd_one) | add_one
        assert run(seq.ainvoke(0)) == 3

    def test_stream_streams_the_last_step(self) -> None:
        seq = RunnableLambda(add_one) | RunnableLambda(lambda x: x * 100) | Chunks()
        assert list(seq.stream(1)) == ["2", "0", "0"]

        async def collect() -> list[str]:
            return [c async for c in seq.astream(1)]

        assert run(collect()) == ["2", "0", "0"]

    def test_stream_passes_kwargs_to_first(self) -> None:
        seq = Echo() | Chunks()
        assert "'k': 1" in "".join(seq.stream(1, None, k=1))

    def test_repr(self) -> None:
        assert repr(self.a | self.b) == "RunnableLambda(add_one)\n| RunnableLambda(add_one)"


class TestRunnableParallel:
    def test_invoke_and_name(self) -> None:
        p = RunnableParallel({"a": add_one}, b=lambda x: x * 2)
        assert p.invoke(3) == {"a": 4, "b": 6}
        assert p.get_name() == "RunnableParallel<a,b>"
        assert run(p.ainvoke(3)) == {"a": 4, "b": 6}


# ---------------------------------------------------------------- RunnableLambda


class CallableObject:
    def __call__(self, x: int) -> int:
        return x


class AsyncCallableObject:
    async def __call__(self, x: int) -> int:
        return x


class TestRunnableLambdaNames:
    @pytest.mark.parametrize(
        ("func", "afunc", "name", "expected"),
        [
            (add_one, None, None, "add_one"),
            (lambda x: x, None, None, "RunnableLambda"),
            (partial(add_one), None, None, "RunnableLambda"),
            (CallableObject(), None, None, "RunnableLambda"),
            (add_one, None, "given", "given"),
            (aadd_one, None, None, "aadd_one"),
            (add_one, aadd_one, None, "add_one"),
            (lambda x: x, aadd_one, None, "RunnableLambda"),
            (AsyncCallableObject(), None, None, "RunnableLambda"),
        ],
    )
    def test_get_name(self, func: Any, afunc: Any, name: Any, expected: str) -> None:
        assert RunnableLambda(func, afunc=afunc, name=name).get_name() == expected

    def test_lambda_name_attribute_is_none(self) -> None:
        assert RunnableLambda(lambda x: x).name is None

    def test_repr(self) -> None:
        assert repr(RunnableLambda(add_one)) == "RunnableLambda(add_one)"
        assert repr(RunnableLambda(aadd_one)) == "RunnableLambda(afunc=aadd_one)"
        f = lambda x: x + 1  # noqa: E731
        assert repr(RunnableLambda(f)) == "RunnableLambda(lambda x: x + 1)"
        assert repr(RunnableLambda(AsyncCallableObject())) == "RunnableLambda(afunc=...)"


class TestRunnableLambda:
    def test_constructor_errors(self) -> None:
        with pytest.raises(TypeError) as e:
            RunnableLambda(aadd_one, afunc=aadd_one)
        assert str(e.value) == (
            "Func was provided as a coroutine function, but afunc was also provided. "
            "If providing both, func should be a regular function to avoid ambiguity."
        )
        with pytest.raises(TypeError) as e:
            RunnableLambda(5)  # type: ignore[arg-type]
        assert str(e.value) == (
            "Expected a callable type for `func`.Instead got an unsupported type: <class 'int'>"
        )

    def test_async_only_cannot_run_sync(self) -> None:
        r = RunnableLambda(aadd_one)
        with pytest.raises(TypeError) as e:
            r.invoke(1)
        assert (
            str(e.value)
            == "Cannot invoke a coroutine function synchronously.Use `ainvoke` instead."
        )
        with pytest.raises(TypeError) as e:
            list(r.stream(1))
        assert (
            str(e.value)
            == "Cannot stream a coroutine function synchronously.Use `astream` instead."
        )
        assert run(r.ainvoke(1)) == 2

    def test_ainvoke_prefers_afunc(self) -> None:
        async def other(x: int) -> str:
            return "async"

        assert run(RunnableLambda(add_one, afunc=other).ainvoke(1)) == "async"
        assert RunnableLambda(add_one, afunc=other).invoke(1) == 2

    def test_config_injection(self) -> None:
        def positional(x: int, config: RunnableConfig) -> Any:
            return config

        def keyword_only(x: int, *, config: RunnableConfig | None = None) -> Any:
            return config

        out = RunnableLambda(positional).invoke(1, {"tags": ["a"], "run_name": "r"})
        assert out["tags"] == ["a"] and out["recursion_limit"] == 25 and "run_name" not in out
        assert RunnableLambda(keyword_only).invoke(1, {"tags": ["b"]})["tags"] == ["b"]

        async def apositional(x: int, config: RunnableConfig) -> Any:
            return config

        assert run(RunnableLambda(apositional).ainvoke(1, {"tags": ["c"]}))["tags"] == ["c"]
        assert run(RunnableLambda(positional).ainvoke(1, {"tags": ["d"]}))["tags"] == ["d"]

    def test_sets_current_config_so_nested_calls_inherit(self) -> None:
        h = Handler()
        inner = Ensures()  # called below WITHOUT a config argument
        for outer in (
            RunnableLambda(lambda x: inner.invoke(x)),
            RunnableCallable(lambda x: inner.invoke(x)),
            RunnableLambda(add_one) | (lambda x: inner.invoke(x)),
        ):
            out = outer.invoke(1, {"callbacks": [h], "metadata": {"m": 1}})
            assert out["callbacks"] == [h] and out["metadata"] == {"m": 1}, outer
        assert var_child_runnable_config.get() is None
        assert inner.invoke(1)["callbacks"] is None

    def test_kwargs_are_passed(self) -> None:
        assert RunnableLambda(lambda x, **kw: kw).invoke(1, None, a=2) == {"a": 2}

    def test_returned_runnable_is_invoked_with_same_input(self) -> None:
        r = RunnableLambda(lambda x: RunnableLambda(lambda y: y * 10))
        assert r.invoke(3) == 30
        assert run(r.ainvoke(3)) == 30
        assert list(RunnableLambda(lambda x: Chunks()).stream(12)) == ["1", "2"]

        async def collect() -> list[str]:
            return [c async for c in RunnableLambda(lambda x: Chunks()).astream(12)]

        assert run(collect()) == ["1", "2"]

    def test_returned_runnable_gets_recursion_limit_minus_one(self) -> None:
        r = RunnableLambda(lambda x: Echo())
        assert r.invoke(1, {"recursion_limit": 4})["config"]["recursion_limit"] == 3

    def test_recursion_limit(self) -> None:
        def rec(x: int) -> Runnable:
            return RunnableLambda(rec)

        with pytest.raises(RecursionError) as e:
            RunnableLambda(rec).invoke(3)
        assert (
            str(e.value)
            == "Recursion limit reached when invoking RunnableLambda(rec) with input 3."
        )
        with pytest.raises(RecursionError):
            RunnableLambda(rec).invoke(3, {"recursion_limit": 0})

    def test_signature_is_inspected_once(self, monkeypatch: pytest.MonkeyPatch) -> None:
        def f(x: int, config: RunnableConfig) -> list[str]:
            return config["tags"]

        r = RunnableLambda(f)

        def no_signature(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("inspect.signature called per invoke")

        monkeypatch.setattr(inspect, "signature", no_signature)
        assert r.invoke(1, {"tags": ["x"]}) == ["x"]


# ---------------------------------------------------------------- RunnableBinding


class TestRunnableBinding:
    def test_bind_merges_kwargs_over_the_same_bound(self) -> None:
        model = Echo()
        b2 = model.bind(a=1).bind(b=2)
        assert type(b2) is RunnableBinding
        assert b2.bound is model and b2.kwargs == {"a": 1, "b": 2}
        assert model.bind(a=1).bind(a=3).kwargs == {"a": 3}

    def test_invoke_passes_kwargs_call_time_wins(self) -> None:
        out = Echo().bind(a=1, b=2).invoke(0, None, a=9, c=3)
        assert out["kwargs"] == {"a": 9, "b": 2, "c": 3}
        assert run(Echo().bind(a=1).ainvoke(0))["kwargs"] == {"a": 1}
        assert list(Echo().bind(a=1).stream(0))[0]["kwargs"] == {"a": 1}

        async def collect() -> list[Any]:
            return [c async for c in Echo().bind(a=1).astream(0)]

        assert run(collect())[0]["kwargs"] == {"a": 1}
        assert [o["kwargs"] for o in Echo().bind(a=1).batch([0, 1])] == [{"a": 1}, {"a": 1}]

    def test_config_is_merged(self) -> None:
        b = Echo().with_config(tags=["b"], metadata={"x": 1})
        cfg = b.invoke(0, {"tags": ["a"], "metadata": {"y": 2}})["config"]
        assert cfg["tags"] == ["a", "b"] and cfg["metadata"] == {"x": 1, "y": 2}

    def test_with_config_and_bind_keep_each_other(self) -> None:
        model = Echo()
        b = model.bind(a=1).with_config(tags=["x"]).with_config(metadata={"k": 1})
        assert b.bound is model and b.kwargs == {"a": 1}
        assert b.config == {"tags": ["x"], "metadata": {"k": 1}}
        assert model.with_config(tags=["x"]).bind(a=1).config == {"tags": ["x"]}

    def test_shared_handler_is_not_duplicated(self) -> None:
        h = Handler()
        with set_config_context(ensure_config({"callbacks": [h]})):
            cfg = Echo().bind(a=1).invoke(0, {"callbacks": [h]})["config"]
        assert cfg["callbacks"] == [h]

    def test_name_and_attribute_delegation(self) -> None:
        lam = RunnableLambda(add_one)
        b = lam.bind(a=1)
        assert b.get_name() == "add_one" and b.get_name("input") == "add_one_input"
        assert b.name is None
        assert b.func is add_one
        with pytest.raises(AttributeError, match="'RunnableLambda' object has no attribute 'nope'"):
            b.nope  # noqa: B018

    def test_copy_does_not_delegate_dunders(self) -> None:
        b = Echo().bind(a=1)
        c = copy.copy(b)
        assert type(c) is RunnableBinding and c.bound is b.bound
        assert copy.deepcopy(b).kwargs == {"a": 1}

    def test_keyword_only_constructor(self) -> None:
        with pytest.raises(TypeError):
            RunnableBinding(Echo())  # type: ignore[misc]
        b = RunnableBinding(bound=Echo(), kwargs={"a": 1})
        assert b.config == {} and b.invoke(0)["kwargs"] == {"a": 1}

    def test_repr(self) -> None:
        assert repr(RunnableLambda(add_one).bind(a=1)) == (
            "RunnableBinding(bound=RunnableLambda(add_one), kwargs={'a': 1}, config={})"
        )


# ---------------------------------------------------------------- RunnableCallable


def node_with_config(state, config):  # noqa: ANN001
    return config


def node_with_runtime(state, runtime):  # noqa: ANN001
    return runtime


def node_with_store(state, *, store):  # noqa: ANN001
    return store


def node_with_previous(state, previous):  # noqa: ANN001
    return previous


def node_with_writer(state, writer):  # noqa: ANN001
    return writer


def rt_config(**runtime_fields: Any) -> RunnableConfig:
    return {"configurable": {CONFIG_KEY_RUNTIME: Runtime(**runtime_fields)}}


class TestRunnableCallable:
    def test_names(self) -> None:
        assert RunnableCallable(add_one).name == "add_one"
        lam = RunnableCallable(lambda x: x)
        assert lam.name is None and lam.get_name() == "RunnableCallable"
        assert RunnableCallable(None, lambda x: x).name == "<lambda>"
        assert RunnableCallable(None, aadd_one).name == "aadd_one"
        assert RunnableCallable(add_one, name="Prompt").name == "Prompt"
        assert RunnableCallable(partial(add_one)).get_name() == "RunnableCallable"

    def test_needs_a_function(self) -> None:
        with pytest.raises(ValueError, match="^At least one of func or afunc must be provided.$"):
            RunnableCallable(None, None)

    @pytest.mark.parametrize(
        ("runnable", "name"),
        [
            (RunnableCallable(None, aadd_one, name="Prompt"), "Prompt"),
            (RunnableCallable(None, aadd_one), "aadd_one"),
            (RunnableCallable(None, lambda x: x), "<lambda>"),
        ],
    )
    def test_async_only_invoked_synchronously(self, runnable: RunnableCallable, name: str) -> None:
        with pytest.raises(TypeError) as e:
            runnable.invoke(1)
        assert str(e.value) == ASYNC_ONLY_ERROR.format(name)

    def test_async(self) -> None:
        assert run(RunnableCallable(add_one, aadd_one).ainvoke(1)) == 2
        assert run(RunnableCallable(None, aadd_one).ainvoke(1)) == 2

    def test_ainvoke_without_afunc_runs_func_and_drops_kwargs(self) -> None:
        r = RunnableCallable(lambda x, **kw: (x, kw))
        assert run(r.ainvoke(1)) == (1, {})
        assert run(r.ainvoke(1, None, a=1)) == (1, {})  # upstream drops them too
        assert r.invoke(1, None, a=1) == (1, {"a": 1})

    def test_config_injection(self) -> None:
        r = RunnableCallable(node_with_config)
        assert r.invoke(1) == ensure_config()  # no config -> an ensured one
        given: RunnableConfig = {"tags": ["a"]}
        assert r.invoke(1, given) is given  # a given config is passed as is
        # An explicitly passed value is not overwritten.
        assert RunnableCallable(node_with_runtime).invoke(1, None, runtime="mine") == "mine"
        assert RunnableCallable(node_with_config, config="bound").invoke(1) == "bound"

        async def anode(state: Any, *, config: RunnableConfig) -> Any:
            return config

        assert run(RunnableCallable(None, anode).ainvoke(1, given)) is given

    def test_config_annotations_that_opt_in(self) -> None:
        def real(state: Any, config: RunnableConfig) -> Any:
            return config

        def optional(state: Any, config: Optional[RunnableConfig]) -> Any:
            return config

        def union(state: Any, config: RunnableConfig | None) -> Any:
            return config

        def string(state: Any, config: "RunnableConfig") -> Any:  # noqa: UP037
            return config

        def string_optional(state: Any, config: "Optional[RunnableConfig]") -> Any:  # noqa: UP037
            return config

        for f in (real, optional, union, string, string_optional):
            assert RunnableCallable(f).invoke(1, {"tags": ["s"]}) == {"tags": ["s"]}, f

    def test_string_union_annotation_is_not_recognised(self) -> None:
        def string_union(state: Any, config: "RunnableConfig | None") -> Any:  # noqa: UP037
            return config

        with pytest.warns(UserWarning, match="not 'RunnableConfig \\| None'"):
            r = RunnableCallable(string_union)
        assert r.func_accepts == {}

    def test_wrongly_typed_config_warns_and_is_not_injected(self) -> None:
        def typed_dict(state: Any, config: dict) -> Any:
            return config

        with pytest.warns(UserWarning) as record:
            r = RunnableCallable(typed_dict)
        assert str(record[0].message) == (
            "The 'config' parameter should be typed as 'RunnableConfig' or "
            "'RunnableConfig | None', not '<class 'dict'>'. "
        )
        with pytest.raises(TypeError, match="missing 1 required positional argument: 'config'"):
            r.invoke(1)

    def test_only_named_or_keyword_parameters_are_injected(self) -> None:
        def pos_only(state: Any, config: RunnableConfig, /) -> Any:
            return config

        def var_kw(state: Any, **kwargs: Any) -> Any:
            return kwargs

        assert RunnableCallable(pos_only).func_accepts == {}
        assert RunnableCallable(var_kw).invoke(1, rt_config()) == {}

    def test_runtime_store_previous_writer(self) -> None:
        def write(chunk: Any) -> None:
            pass

        cfg = rt_config(store="S", previous="P", stream_writer=write)
        runtime = cfg["configurable"][CONFIG_KEY_RUNTIME]
        assert RunnableCallable(node_with_runtime).invoke(1, cfg) is runtime
        assert RunnableCallable(node_with_store).invoke(1, cfg) == "S"
        assert RunnableCallable(node_with_previous).invoke(1, cfg) == "P"
        assert RunnableCallable(node_with_writer).invoke(1, cfg) is write

    def test_store_none_in_runtime_is_injected(self) -> None:
        assert RunnableCallable(node_with_store).invoke(1, rt_config()) is None

    @pytest.mark.parametrize(
        ("func", "key"),
        [
            (node_with_runtime, "N/A"),
            (node_with_store, "store"),
            (node_with_previous, "previous"),
        ],
    )
    def test_missing_runtime(self, func: Any, key: str) -> None:
        with pytest.raises(ValueError) as e:
            RunnableCallable(func).invoke(1)
        assert str(e.value) == f"Missing required config key '{key}' for '{func.__name__}'."

    def test_missing_runtime_with_default_value_still_raises(self) -> None:
        def store_default(state: Any, store=None) -> Any:  # noqa: ANN001
            return store

        with pytest.raises(
            ValueError, match="^Missing required config key 'store' for 'store_default'.$"
        ):
            RunnableCallable(store_default).invoke(1)

    def test_store_annotations(self) -> None:
        def opt_store(state: Any, *, store: "Optional[BaseStore]") -> Any:  # noqa: F821, UP037
            return store

        def named_store(state: Any, *, store: "BaseStore") -> Any:  # noqa: F821, UP037
            return store

        class BaseStore:  # any class of that name opts in (see _annotation_matches)
            pass

        def class_store(state: Any, *, store: BaseStore) -> Any:
            return store

        def other_store(state: Any, *, store: int = 0) -> Any:
            return store

        assert RunnableCallable(opt_store).invoke(1) is None  # Optional -> default None
        for f in (named_store, class_store):
            with pytest.raises(ValueError, match="Missing required config key 'store'"):
                RunnableCallable(f).invoke(1)
            assert RunnableCallable(f).invoke(1, rt_config(store="S")) == "S"
        assert RunnableCallable(other_store).invoke(1, rt_config(store="S")) == 0  # not injected

    def test_writer_defaults_to_a_no_op(self) -> None:
        writer = RunnableCallable(node_with_writer).invoke(1)
        assert callable(writer) and writer("chunk") is None

    def test_ctor_kwargs_and_call_kwargs(self) -> None:
        r = RunnableCallable(lambda s, **kw: kw, foo=1)
        assert r.invoke(1, None, bar=2) == {"foo": 1, "bar": 2}

    def test_trace_sets_the_current_config(self) -> None:
        def peek(state: Any) -> Any:
            return var_child_runnable_config.get()

        traced = RunnableCallable(peek).invoke(1, {"tags": ["t"], "run_name": "r"})
        assert traced["tags"] == ["t"] and "run_name" not in traced
        assert RunnableCallable(peek, trace=False).invoke(1, {"tags": ["t"]}) is None
        assert var_child_runnable_config.get() is None

        async def apeek(state: Any) -> Any:
            return var_child_runnable_config.get()

        assert run(RunnableCallable(None, apeek).ainvoke(1, {"tags": ["u"]}))["tags"] == ["u"]
        assert run(RunnableCallable(None, apeek, trace=False).ainvoke(1, {})) is None

    def test_recurse(self) -> None:
        inner = RunnableLambda(lambda y: y * 10)
        assert RunnableCallable(lambda x: inner).invoke(2) == 20
        assert RunnableCallable(lambda x: inner, recurse=False).invoke(2) is inner

        async def ainner(x: int) -> Runnable:
            return inner

        assert run(RunnableCallable(None, ainner).ainvoke(2)) == 20

    def test_signature_is_inspected_once(self, monkeypatch: pytest.MonkeyPatch) -> None:
        r = RunnableCallable(node_with_runtime)

        def no_signature(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("inspect.signature called per invoke")

        monkeypatch.setattr(inspect, "signature", no_signature)
        cfg = rt_config()
        assert r.invoke(1, cfg) is cfg["configurable"][CONFIG_KEY_RUNTIME]

    def test_repr(self) -> None:
        assert repr(RunnableCallable(node_with_config)) == (
            "node_with_config(tags=None, recurse=True, "
            "func_accepts={'config': ('N/A', <class 'inspect._empty'>)})"
        )

    def test_langgraph_coerce_to_runnable(self) -> None:
        r = callable_module.coerce_to_runnable(aadd_one, name="n", trace=False)
        assert isinstance(r, RunnableCallable) and r.func is None and r.afunc is aadd_one
        s = callable_module.coerce_to_runnable(add_one, name=None, trace=True)
        assert isinstance(s, RunnableCallable) and s.func is add_one and s.name == "add_one"
        e = Echo()
        assert callable_module.coerce_to_runnable(e, name="x", trace=False) is e
        with pytest.raises(TypeError, match="Expected a Runnable, callable or dict."):
            callable_module.coerce_to_runnable(5, name=None, trace=False)

    def test_no_warning_for_plain_config(self) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            RunnableCallable(node_with_config)
