"""Day 04's chains and part 2's "upstream" are upstream's truth, built with both libraries.

The notebook prints what sixteen chains of ``|`` and ``.bind`` build, and the graders of part 2
run each variant against miniagent's ``coerce_to_runnable``, ``RunnableSequence.__init__`` and
``RunnableBinding.bind`` (``miniagent_course.kits.day04.cases``); this proves that those build
what langchain-core builds, for every chain, errors included, with upstream's exact texts, and on
the kinds of input that tell the variants apart (a callable Runnable, a mapping that is not a
dict, a nested sequence, keywords with steps, a shared key, a config).
"""

from collections import ChainMap
from types import MappingProxyType

import pytest

pytest.importorskip("langgraph")

from miniagent_course.kits.day04.cases import chains, what_it_builds  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402

MINI, UPSTREAM = mini(), upstream()


@pytest.mark.parametrize("case", list(chains(MINI)))
def test_the_chain_builds_what_upstream_builds(case):
    expected = what_it_builds(UPSTREAM, chains(UPSTREAM)[case])
    assert what_it_builds(MINI, chains(MINI)[case]) == expected


def _error(call):
    try:
        call()
    except Exception as error:
        return type(error).__name__, str(error)
    raise AssertionError("no error")


@pytest.mark.parametrize(
    "thing", [5, None, "text", [1], {1, 2}, MappingProxyType({"n": len}), ChainMap()], ids=repr
)
def test_coerce_refuses_with_upstreams_text(thing):
    expected = _error(lambda: UPSTREAM.coerce_to_runnable(thing))
    assert _error(lambda: MINI.coerce_to_runnable(thing)) == expected


@pytest.mark.parametrize("count", [0, 1])
def test_a_short_sequence_fails_with_upstreams_text(count):
    def build(lib):
        return lib.RunnableSequence(*[lib.RunnableLambda(lambda x: x)] * count)

    assert _error(lambda: build(MINI)) == _error(lambda: build(UPSTREAM))


def test_a_sequence_from_first_middle_last():
    def steps(lib):
        one, two, three = (
            lib.RunnableLambda(f, name=n) for f, n in [(abs, "a"), (str, "b"), (len, "c")]
        )
        built = lib.RunnableSequence(first=one, middle=[two], last=three, name="kw")
        return [s.get_name() for s in built.steps], built.name, built.invoke(-12)

    assert steps(MINI) == steps(UPSTREAM) == (["a", "b", "c"], "kw", 2)


def test_bind_keeps_a_binding_subclass():
    def bound_twice(lib):
        class ModelBinding(lib.RunnableBinding):
            pass

        first = ModelBinding(bound=lib.RunnableLambda(abs), kwargs={"a": 1}, config={"tags": ["t"]})
        second = first.bind(a=2, b=3)
        return type(second).__name__, second.bound is first.bound, second.kwargs, second.config

    assert bound_twice(MINI) == bound_twice(UPSTREAM)


def test_a_callable_runnable_is_returned_as_it_is():
    def coerced(lib):
        class CallableLambda(lib.RunnableLambda):
            def __call__(self, x):
                return self.invoke(x)

        runnable = CallableLambda(abs)
        result = lib.coerce_to_runnable(runnable)
        return type(result).__name__, result is runnable, result.invoke(-2)

    assert coerced(MINI) == coerced(UPSTREAM) == ("CallableLambda", True, 2)


def test_steps_win_over_keywords_and_bind_merges_onto_the_same_bound_with_its_config():
    def built(lib):
        one, two, three = (lib.RunnableLambda(f) for f in (abs, str, len))
        sequence = lib.RunnableSequence(one, two | three | one, first=three, last=three)
        binding = lib.RunnableLambda(abs).with_config(tags=["t"]).bind(stop=["a"])
        again = binding.bind(stop=["b"], n=1)
        return (
            [step.get_name() for step in sequence.steps],
            again.bound is binding.bound,
            again.kwargs,
            again.config.get("tags"),
            binding.kwargs,
        )

    assert built(MINI) == built(UPSTREAM)
    assert built(MINI) == (
        ["abs", "str", "len", "abs"],
        True,
        {"stop": ["b"], "n": 1},
        ["t"],
        {"stop": ["a"]},
    )
