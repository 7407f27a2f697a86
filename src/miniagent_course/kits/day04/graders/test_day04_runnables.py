"""Graders for day04: ``coerce_to_runnable``, ``RunnableSequence.__init__`` (as ``sequence_init``)
and ``RunnableBinding.bind`` (langchain_core/runnables/base.py:6627, :3188, :6418).

Each test runs against every implementation ``--impl`` names (``impl`` fixture, see
``course/grading.md``). Four groups:

* each function alone (``sequence_init`` runs as the ``__init__`` of a new, empty sequence);
* ``|`` and ``.bind`` with the functions swapped in where miniagent has its own
  (``impl.swap_in``: ``base.coerce_to_runnable``, ``RunnableSequence.__init__``,
  ``RunnableBinding.bind``);
* the real ``create_react_agent`` built with them: its model step is ``prompt | model``, and a
  pre-bound model must reach the agent with all its kwargs;
* ``impl.inputs()``: for each changed copy in ``variants.py``, an input on which it does not do
  what the function it copies does (both run here, on miniagent's Runnables).
"""

from __future__ import annotations

import asyncio
from types import MappingProxyType

import pytest

from miniagent.messages import AIMessage, SystemMessage
from miniagent.runnables import (
    RunnableBinding,
    RunnableLambda,
    RunnableParallel,
    RunnableSequence,
)
from miniagent.testing import FakeToolCallingModel, ScriptedChatModel
from miniagent.tools import tool
from miniagent_course.grading.closures import agent_node_function, closure_vars
from miniagent_course.grading.judgments import judgment_graders
from miniagent_course.kits.day04 import cases as reference
from miniagent_course.kits.day04.variants import VARIANTS


def _unsupported(thing) -> str:
    return f"Expected a Runnable, callable or dict.Instead got an unsupported type: {type(thing)}"


def add_one(x):
    return x + 1


def double(x):
    return x * 2


def square(x):
    return x * x


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def _names(sequence) -> list[str]:
    return [step.get_name() for step in sequence.steps]


def _new_sequence(impl, *steps, **keywords) -> RunnableSequence:
    """A sequence set up by the implementation's ``sequence_init``, as ``__init__`` would."""
    sequence = RunnableSequence.__new__(RunnableSequence)
    impl.sequence_init(sequence, *steps, **keywords)
    return sequence


@pytest.fixture
def swapped(impl, monkeypatch):
    """``|``, ``RunnableSequence(...)`` and ``binding.bind`` now run the implementation's code."""
    impl.swap_in(monkeypatch)
    return impl


# --- coerce_to_runnable -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "runnable",
    [
        RunnableLambda(add_one),
        FakeToolCallingModel(),
        FakeToolCallingModel().bind(stop=["x"]),
        RunnableSequence(add_one, double),
    ],
    ids=["lambda", "model", "binding", "sequence"],
)
def test_coerce_returns_a_runnable_as_it_is(impl, runnable):
    assert impl.coerce_to_runnable(runnable) is runnable


def test_coerce_checks_runnable_before_callable(impl):
    class CallableRunnable(RunnableLambda):
        def __call__(self, x):
            return x

    runnable = CallableRunnable(add_one)
    assert impl.coerce_to_runnable(runnable) is runnable


def test_coerce_wraps_a_function_in_a_runnable_lambda(impl):
    runnable = impl.coerce_to_runnable(square)
    assert type(runnable) is RunnableLambda and runnable.func is square
    assert runnable.get_name() == "square"
    assert runnable.invoke(4) == 16


def test_coerce_wraps_any_callable(impl):
    class Times:
        def __call__(self, x):
            return 3 * x

    times = Times()
    for thing, expected in [(lambda x: -x, -2), (times, 6), (str, "2")]:
        runnable = impl.coerce_to_runnable(thing)
        assert type(runnable) is RunnableLambda and runnable.func is thing
        assert runnable.invoke(2) == expected


def test_coerce_makes_a_dict_a_runnable_parallel(impl):
    runnable = impl.coerce_to_runnable({"d": double, "s": RunnableLambda(square)})
    assert type(runnable) is RunnableParallel
    assert runnable.get_name() == "RunnableParallel<d,s>"
    assert runnable.invoke(3) == {"d": 6, "s": 9}
    assert type(impl.coerce_to_runnable({})) is RunnableParallel


@pytest.mark.parametrize(
    "thing",
    [5, None, "add_one", [add_one], (add_one,), MappingProxyType({"d": double})],
    ids=["int", "none", "str", "list", "tuple", "mappingproxy"],
)
def test_coerce_refuses_everything_else_with_upstreams_text(impl, thing):
    with pytest.raises(TypeError) as caught:
        impl.coerce_to_runnable(thing)
    assert type(caught.value) is TypeError
    assert str(caught.value) == _unsupported(thing)


# --- sequence_init ----------------------------------------------------------------------------


def test_sequence_of_two_steps(impl):
    one, two = RunnableLambda(add_one), RunnableLambda(double)
    sequence = _new_sequence(impl, one, two)
    assert sequence.first is one and sequence.last is two
    assert sequence.middle == [] and isinstance(sequence.middle, list)
    assert sequence.steps == [one, two] and sequence.name is None
    assert sequence.invoke(3) == 8


def test_sequence_keeps_its_name(impl):
    sequence = _new_sequence(impl, RunnableLambda(add_one), double, name="calc")
    assert sequence.name == "calc" and sequence.get_name() == "calc"


def test_sequence_coerces_functions_and_dicts(impl):
    sequence = _new_sequence(impl, add_one, {"d": double, "s": square}, lambda out: out["s"])
    assert [type(step) for step in sequence.steps] == [
        RunnableLambda,
        RunnableParallel,
        RunnableLambda,
    ]
    assert _names(sequence) == ["add_one", "RunnableParallel<d,s>", "RunnableLambda"]
    assert sequence.invoke(2) == 9


def test_sequence_refuses_what_cannot_be_a_step(impl):
    with pytest.raises(TypeError) as caught:
        _new_sequence(impl, RunnableLambda(add_one), 5)
    assert str(caught.value) == _unsupported(5)


def test_a_nested_sequence_adds_its_steps_not_itself(impl):
    one, two, three, four = (RunnableLambda(f) for f in (add_one, double, square, add_one))
    inner = RunnableSequence(two, three, four)
    sequence = _new_sequence(impl, one, inner)
    assert sequence.steps == [one, two, three, four]  # the same objects, all of them
    assert sequence.middle == [two, three] and sequence.last is four
    assert sequence.invoke(1) == 17


def test_two_nested_sequences_are_joined(impl):
    one, two, three = (RunnableLambda(f) for f in (add_one, double, square))
    left, right = RunnableSequence(one, two), RunnableSequence(three, one)
    sequence = _new_sequence(impl, left, right)
    assert sequence.steps == [one, two, three, one]
    assert left.steps == [one, two] and right.steps == [three, one]  # left as they were


def test_one_nested_sequence_alone_is_enough(impl):
    one, two = RunnableLambda(add_one), RunnableLambda(double)
    sequence = _new_sequence(impl, RunnableSequence(one, two))
    assert sequence.steps == [one, two]


def test_first_middle_last_keywords(impl):
    one, two, three, four = (RunnableLambda(f) for f in (add_one, double, square, add_one))
    sequence = _new_sequence(impl, first=one, middle=[two, three], last=four, name="kw")
    assert sequence.steps == [one, two, three, four] and sequence.name == "kw"
    assert _new_sequence(impl, first=one, last=four).steps == [one, four]


def test_positional_steps_win_over_the_keywords(impl):
    one, two, three = (RunnableLambda(f) for f in (add_one, double, square))
    sequence = _new_sequence(impl, one, two, first=three, last=three)
    assert sequence.steps == [one, two]


@pytest.mark.parametrize(
    "steps, keywords, count",
    [
        ((), {}, 0),
        ((add_one,), {}, 1),
        ((), {"first": RunnableLambda(add_one)}, 0),
        ((), {"last": RunnableLambda(add_one), "middle": [RunnableLambda(double)]}, 0),
    ],
    ids=["nothing", "one_step", "first_only", "no_first"],
)
def test_fewer_than_two_steps_is_a_value_error(impl, steps, keywords, count):
    with pytest.raises(ValueError) as caught:
        _new_sequence(impl, *steps, **keywords)
    assert str(caught.value) == f"RunnableSequence must have at least 2 steps, got {count}"


# --- bind ---------------------------------------------------------------------------------------


def test_bind_makes_a_new_binding_over_the_same_bound(impl):
    model = FakeToolCallingModel()
    binding = RunnableBinding(bound=model, kwargs={"stop": ["a"]}, config={"tags": ["t"]})
    new = impl.bind(binding, temperature=0)
    assert type(new) is RunnableBinding and new is not binding
    assert new.bound is model  # not a binding of a binding
    assert new.kwargs == {"stop": ["a"], "temperature": 0}
    assert new.config == {"tags": ["t"]}
    assert binding.kwargs == {"stop": ["a"]}  # the old binding is unchanged


def test_bind_the_new_value_wins(impl):
    binding = RunnableBinding(bound=FakeToolCallingModel(), kwargs={"stop": ["a"], "n": 1})
    new = impl.bind(binding, stop=["b"])
    assert new.kwargs == {"stop": ["b"], "n": 1}
    assert binding.kwargs == {"stop": ["a"], "n": 1}


def test_bind_keeps_the_class_of_the_binding(impl):
    class ModelBinding(RunnableBinding):
        """Like upstream's _ChatModelBinding, what a chat model's .bind returns."""

    binding = ModelBinding(bound=FakeToolCallingModel(), kwargs={"stop": ["a"]})
    new = impl.bind(binding, temperature=0)
    assert type(new) is ModelBinding and new.kwargs == {"stop": ["a"], "temperature": 0}


def test_bind_with_nothing_is_still_a_new_binding(impl):
    binding = RunnableBinding(bound=FakeToolCallingModel(), kwargs={"stop": ["a"]})
    new = impl.bind(binding)
    assert new is not binding and new.bound is binding.bound
    assert new.kwargs == {"stop": ["a"]}


# --- | and .bind with the functions swapped in --------------------------------------------------


def test_pipe_flattens_on_both_sides(swapped):
    one, two, three, four = (RunnableLambda(f) for f in (add_one, double, square, add_one))
    assert (one | (two | three)).steps == [one, two, three]
    assert ((one | two) | three).steps == [one, two, three]
    assert ((one | two) | (three | four)).steps == [one, two, three, four]
    assert ((one | two) | (three | four)).invoke(1) == 17


def test_pipe_coerces_either_side(swapped):
    one = RunnableLambda(add_one)
    assert _names(square | one) == ["square", "add_one"]
    assert _names(one | {"d": double}) == ["add_one", "RunnableParallel<d>"]
    assert _names({"d": double} | one) == ["RunnableParallel<d>", "add_one"]
    assert (square | one).invoke(3) == 10
    with pytest.raises(TypeError) as caught:
        one | 5  # noqa: B018
    assert str(caught.value) == _unsupported(5)


def test_pipe_names_left_and_right(swapped):
    one, two = RunnableLambda(add_one), RunnableLambda(double)
    assert (one.pipe(two, name="calc") | square).name == "calc"
    assert (one | two.pipe(square, name="calc")).name is None


def test_bind_twice_is_one_binding_and_the_model_gets_both(swapped):
    model = ScriptedChatModel([AIMessage("ok")])
    twice = model.bind(stop=["a"], temperature=1).bind(stop=["b"])
    assert twice.bound is model and twice.kwargs == {"stop": ["b"], "temperature": 1}
    twice.invoke("hi")
    assert model.calls[0]["kwargs"] == {"stop": ["b"], "temperature": 1}


def test_bind_after_with_config_keeps_the_config(swapped):
    model = ScriptedChatModel([AIMessage("ok")])
    bound = model.with_config(tags=["mine"]).bind(stop=["a"])
    assert bound.config == {"tags": ["mine"]} and bound.kwargs == {"stop": ["a"]}
    assert bound.bound is model


def test_bind_then_bind_tools_loses_the_first_kwargs(swapped):
    # bind_tools is not the binding's: it is handed to the model inside, which starts afresh.
    model = ScriptedChatModel([AIMessage("ok")])
    assert model.bind(tool_choice="any").bind_tools([add]).kwargs.keys() == {"tools"}
    assert model.bind_tools([add]).bind(tool_choice="any").kwargs.keys() == {"tools", "tool_choice"}


# --- inside the real agent ----------------------------------------------------------------------


def _static_model(agent):
    return closure_vars(agent_node_function(agent))["static_model"]


def test_agent_static_model_is_your_prompt_pipe_model(swapped):
    from miniagent.prebuilt import create_react_agent

    model = ScriptedChatModel([AIMessage("ok")])
    agent = create_react_agent(model, [], prompt="Be brief.")
    static_model = _static_model(agent)
    assert isinstance(static_model, RunnableSequence)
    assert _names(static_model) == ["Prompt", "ScriptedChatModel"]
    agent.invoke({"messages": [("user", "hi")]})
    seen = [(m.type, m.content) for m in model.calls[0]["messages"]]
    assert seen == [("system", "Be brief."), ("human", "hi")]


def test_agent_with_a_pipeline_prompt_flattens_it(swapped):
    from miniagent.prebuilt import create_react_agent

    def last_only(state):
        return state["messages"][-1:]

    def be_brief(messages):
        return [SystemMessage("Be brief."), *messages]

    model = ScriptedChatModel([AIMessage("ok")])
    agent = create_react_agent(model, [], prompt=last_only | RunnableLambda(be_brief))
    assert _names(_static_model(agent)) == ["last_only", "be_brief", "ScriptedChatModel"]
    agent.invoke({"messages": [("user", "first"), ("user", "second")]})
    seen = [(m.type, m.content) for m in model.calls[0]["messages"]]
    assert seen == [("system", "Be brief."), ("human", "second")]


def test_agent_keeps_a_model_bound_twice_with_all_its_kwargs(swapped):
    from miniagent.prebuilt import create_react_agent

    call = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}
    model = ScriptedChatModel([AIMessage("", tool_calls=[call]), AIMessage("5")])
    bound = model.bind_tools([add]).bind(parallel_tool_calls=False)
    agent = create_react_agent(bound, [add])
    assert _static_model(agent).last is bound  # _should_bind_tools found the tools in .kwargs
    result = agent.invoke({"messages": [("user", "2 + 3?")]})
    assert [m.type for m in result["messages"]] == ["human", "ai", "tool", "ai"]
    for seen in model.calls:
        assert seen["kwargs"]["parallel_tool_calls"] is False
        assert [t["function"]["name"] for t in seen["kwargs"]["tools"]] == ["add"]


def test_async_agent_runs_your_pipe_too(swapped):
    from miniagent.prebuilt import create_react_agent

    model = ScriptedChatModel([AIMessage("ok")])
    agent = create_react_agent(model.bind(stop=["x"]).bind(temperature=0), [], prompt="Brief.")
    result = asyncio.run(agent.ainvoke({"messages": [("user", "hi")]}))
    assert [m.type for m in result["messages"]] == ["human", "ai"]
    assert model.calls[0]["kwargs"] == {"stop": ["x"], "temperature": 0}


# --- spot the bug: an input per variant, run on both (the spot kind, grading/judgments.py) ------

KEYWORDS = ("name", "first", "middle", "last")  # what RunnableSequence(...) takes by keyword


def _steps_and_keywords(given):
    assert (
        isinstance(given, (tuple, list))
        and len(given) == 2
        and isinstance(given[0], (tuple, list))
        and isinstance(given[1], dict)
    ), "give a pair (steps, keywords): a tuple of steps and a dict of keyword arguments"
    unknown = sorted(map(str, set(given[1]) - set(KEYWORDS)))
    assert not unknown, f"RunnableSequence takes no keyword {', '.join(unknown)}"


def _binding_and_kwargs(given):
    assert isinstance(given, (tuple, list)) and len(given) == 2 and isinstance(given[1], dict), (
        "give a pair (binding, kwargs): a RunnableBinding and a dict of keyword arguments"
    )
    assert isinstance(given[0], RunnableBinding), (
        f"the first of the pair is the binding to bind again, not a {type(given[0]).__name__}"
    )
    assert all(isinstance(key, str) for key in given[1]), "keyword arguments are named by str"


FORMS = {
    "variant_c": _steps_and_keywords,
    "variant_d": _steps_and_keywords,
    "variant_e": _binding_and_kwargs,
    "variant_f": _binding_and_kwargs,
    "variant_g": _binding_and_kwargs,
}  # variant_a and variant_b copy coerce_to_runnable, which takes anything

test_an_input_for_every_variant, test_spot = judgment_graders(
    __file__,
    variants=VARIANTS,
    upstream=reference.copies(),
    run=reference.what_it_does,
    row="variant {case!r}",
    shape=FORMS,
)
