"""Day 01's histories are upstream's: the graders' random updates and the prediction table, run
on miniagent and on the pinned langgraph.

Random sequences of updates, with the result of each merge fed back in as ``left``, come from
the generator Day 01's graders use (``cases.updates``), so the histories a learner's
``add_messages`` is graded on are proven here to be upstream's results too; each pair of the
prediction table (part 2, graded on miniagent's runs) gives upstream's result.
"""

from __future__ import annotations

import itertools
import uuid
from types import SimpleNamespace
from unittest import mock

import pytest

pytest.importorskip("langgraph")

from hypothesis import given, settings  # noqa: E402

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


@settings(max_examples=150, deadline=None)
@given(day01.updates())
def test_add_messages_random_sequences(updates: list[list[tuple]]):
    assert _run(MINI, updates) == _run(UP, updates)


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(day01.updates())
def test_day01_grader_histories_are_upstreams(updates: list[list[tuple]]):
    """The graders' own replay (real uuid4s, normalised), on miniagent's reference and upstream's."""
    expected = day01.replay(UP, UP.add_messages, updates)
    assert day01.replay(MINI, day01.add_messages, updates) == expected


@pytest.mark.parametrize("case", list(day01.pairs(MINI)))
def test_day01_prediction_table_is_upstreams(case: str):
    """Day 01's part 2 is graded on miniagent's runs; each pair gives upstream's result."""
    upstream_result = day01.what_it_returns(UP, *day01.pairs(UP)[case])
    assert day01.what_it_returns(MINI, *day01.pairs(MINI)[case]) == upstream_result
