"""Day 04's prediction table is upstream's truth: each chain of ``|`` and ``.bind``, built with
both libraries' Runnables.

The graders compare a learner's predictions (and part 1's functions) with miniagent's Runnables
(``miniagent_course.kits.day04.cases``); this proves those build what langchain-core builds,
for every chain of the table, errors included, and raise upstream's exact texts.
"""

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


@pytest.mark.parametrize("thing", [5, None, "text", [1], {1, 2}], ids=repr)
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
