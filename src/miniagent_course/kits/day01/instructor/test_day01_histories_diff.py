"""Day 01's histories are upstream's: the graders' random updates and the prediction table, run
on miniagent and on the pinned langgraph.

Random sequences of updates, with the result of each merge fed back in as ``left``: hypothesis
generates new ones on every run (``updates``, the same shapes as the graders' ``cases.generated``),
and the graders' own fixed lists are replayed too, so the histories a learner's ``add_messages`` is
graded on are proven here to be upstream's results; each pair of the prediction table (part 2,
graded on miniagent's runs) gives upstream's result.
"""

from __future__ import annotations

import itertools
import uuid
from types import SimpleNamespace
from unittest import mock

import pytest

pytest.importorskip("langgraph")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from miniagent_course.kits.day01 import cases as day01  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402

MINI, UP = mini(), upstream()


def _run(M: SimpleNamespace, updates: list[list[tuple]]) -> list[tuple]:
    counter = itertools.count()
    trace = []
    with mock.patch.object(uuid, "uuid4", lambda: uuid.UUID(int=next(counter))):
        history = M.add_messages([], [])
        for update in updates:
            try:
                history = M.add_messages(history, [day01.build(M, s) for s in update])
                trace.append(("ok", repr(history)))
            except ValueError as e:
                trace.append(("error", str(e)))
    return trace


def updates(max_updates: int = 8, max_size: int = 4) -> st.SearchStrategy:
    """A list of updates, each a list of message specs, as ``cases.generated`` makes them."""
    spec = st.one_of(
        st.tuples(st.sampled_from(day01.KINDS), st.sampled_from("xy"), st.sampled_from(day01.IDS)),
        st.tuples(st.just("remove"), st.sampled_from([*day01.IDS[:-1], "__remove_all__"])),
        st.tuples(st.just("tuple"), st.sampled_from("xy")),
    )
    return st.lists(st.lists(spec, max_size=max_size), max_size=max_updates)


@settings(max_examples=150, deadline=None)
@given(updates())
def test_add_messages_random_sequences(updates: list[list[tuple]]):
    assert _run(MINI, updates) == _run(UP, updates)


def test_day01_grader_histories_are_upstreams():
    """The graders' own lists and replay (real uuid4s, normalised), on miniagent's reference and
    upstream's."""
    for steps in day01.generated():
        expected = day01.replay(UP, UP.add_messages, steps)
        assert day01.replay(MINI, day01.add_messages, steps) == expected, steps


@pytest.mark.parametrize("case", list(day01.pairs(MINI)))
def test_day01_prediction_table_is_upstreams(case: str):
    """Day 01's part 2 is graded on miniagent's runs; each pair gives upstream's result."""
    upstream_result = day01.what_it_returns(UP, *day01.pairs(UP)[case])
    assert day01.what_it_returns(MINI, *day01.pairs(MINI)[case]) == upstream_result
