"""Day 04's corrected claims, run on miniagent and on the pinned upstream packages.

* A sequence on the right of ``|`` loses its name only when the left side is a plain Runnable:
  a sequence on the left keeps ``self.name or other.name``, a function or a dict on the left goes
  through the sequence's ``__ror__``, which keeps the sequence's name.
* LangGraph's ``KWARGS_CONFIG_KEYS`` has ``error`` too, and a node that declares
  ``error: NodeError`` outside an error handler gets ``None``.
* LangGraph's ``coerce_to_runnable`` (what ``add_node`` uses) turns a generator function into a
  ``RunnableLambda``, not a ``RunnableCallable``; its chunks are added up.
* langchain-core's ``RunnableLambda`` passes ``run_manager`` as well as ``config`` (upstream only:
  the miniature has no callback managers, the page says so).

No ``from __future__ import annotations``: RunnableCallable looks at real annotation objects.
"""

import asyncio
import operator
import warnings
from typing import Annotated, Any

import pytest
from typing_extensions import TypedDict

pytest.importorskip("langgraph")

from langgraph._internal import _runnable as up_callable  # noqa: E402

from miniagent.runnables import callable as mini_callable  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    SIDES = {"miniagent": mini(), "langgraph": upstream()}
CALLABLE = {"miniagent": mini_callable, "langgraph": up_callable}


def on_both(experiment: Any) -> tuple[Any, Any]:
    """``experiment(lib)`` on each side: (miniagent's result, upstream's)."""
    return experiment(SIDES["miniagent"]), experiment(SIDES["langgraph"])


def add_one(x: int) -> int:
    return x + 1


def double(x: int) -> int:
    return 2 * x


def square(x: int) -> int:
    return x * x


# ------------------------------------------------------------- a sequence's name


def names(lib: Any) -> dict[str, Any]:
    one, two, sq = (lib.RunnableLambda(f) for f in (add_one, double, square))
    return {
        "runnable | named": (one | two.pipe(sq, name="calc")).name,
        "sequence | named": ((one | two) | two.pipe(square, name="calc")).name,
        "named | named2": (one.pipe(two, name="left") | sq.pipe(one, name="calc")).name,
        "function | named": (square | two.pipe(one, name="calc")).name,
        "dict | named": ({"x": square} | lib.RunnableLambda(str).pipe(one, name="calc")).name,
    }


def test_a_sequence_on_the_right_loses_its_name_only_after_a_plain_runnable() -> None:
    mini_names, up_names = on_both(names)
    assert mini_names == up_names
    # the page's old claim, "a sequence on the right loses its name", fails on every row but one
    assert up_names == {
        "runnable | named": None,
        "sequence | named": "calc",
        "named | named2": "left",
        "function | named": "calc",
        "dict | named": "calc",
    }


# ------------------------------------------------------------- KWARGS_CONFIG_KEYS


def test_kwargs_config_keys_are_upstreams_and_include_error() -> None:
    keys = {side: [k[0] for k in m.KWARGS_CONFIG_KEYS] for side, m in CALLABLE.items()}
    assert keys["miniagent"] == keys["langgraph"]
    assert "error" in keys["langgraph"]


def f_error(state, error: "NodeError"):  # noqa: ANN001, ANN201, F821, UP037
    return ("error", error)


def f_error_required(state, error: "NodeError" = "own default"):  # noqa: ANN001, ANN201, F821, UP037
    return ("error", error)


@pytest.mark.parametrize("func", [f_error, f_error_required], ids=lambda f: f.__name__)
@pytest.mark.parametrize("with_error", [False, True])
def test_error_parameter_is_injected(func: Any, with_error: bool) -> None:
    def run(side: str) -> Any:
        cfg: dict[str, Any] = {}
        if with_error:
            cfg["configurable"] = {"__pregel_node_error": "the failure"}
        return CALLABLE[side].RunnableCallable(func, trace=False).invoke(1, cfg)

    assert run("miniagent") == run("langgraph")
    # outside an error handler, the default None (not the function's own default)
    assert run("langgraph") == ("error", "the failure" if with_error else None)


# ------------------------------------------------------------- generator nodes


def letters(x: str):  # noqa: ANN201
    yield x
    yield "!"


async def aletters(x: str):  # noqa: ANN201
    yield x
    yield "?"


def updates(state: dict):  # noqa: ANN201
    yield {"log": ["first"]}
    yield {"log": ["second"]}


@pytest.mark.parametrize(
    "thing", [letters, add_one, lambda x: x, {"a": add_one}], ids=["gen", "def", "lambda", "dict"]
)
def test_langgraph_coerce_to_runnable_kinds(thing: Any) -> None:
    kinds = {
        side: type(m.coerce_to_runnable(thing, name="node", trace=False)).__name__
        for side, m in CALLABLE.items()
    }
    assert kinds["miniagent"] == kinds["langgraph"]
    if thing is letters:
        assert kinds["langgraph"] == "RunnableLambda"  # not a RunnableCallable


def test_a_generator_function_adds_up_its_chunks() -> None:
    def run(lib: Any) -> Any:
        return [
            lib.RunnableLambda(letters).invoke("hi"),
            lib.RunnableLambda(updates).invoke({}),  # dicts do not add: the last one wins
            asyncio.run(lib.RunnableLambda(aletters).ainvoke("hi")),
        ]

    mini_out, up_out = on_both(run)
    assert mini_out == up_out == ["hi!", {"log": ["second"]}, "hi?"]


def test_a_generator_node_runs_in_a_graph() -> None:
    class State(TypedDict):
        log: Annotated[list, operator.add]

    def run(lib: Any) -> Any:
        graph = lib.StateGraph(State)
        graph.add_node("gen", updates)
        graph.add_edge(lib.START, "gen")
        compiled = graph.compile()
        node = compiled.builder.nodes["gen"].runnable
        return type(node).__name__, compiled.invoke({"log": []})

    mini_out, up_out = on_both(run)
    assert mini_out == up_out == ("RunnableLambda", {"log": ["second"]})


# ------------------------------------------------------------- run_manager (upstream only)


def with_run_manager(x: int, run_manager) -> str:  # noqa: ANN001
    return type(run_manager).__name__


def test_upstream_runnable_lambda_passes_run_manager() -> None:
    up = SIDES["langgraph"]
    assert up.RunnableLambda(with_run_manager).invoke(1) == "CallbackManagerForChainRun"
    # the miniature has no callback managers: the parameter is left unfilled (the page says so)
    with pytest.raises(TypeError, match="run_manager"):
        SIDES["miniagent"].RunnableLambda(with_run_manager).invoke(1)
