# why: tests bare, matching and wrong bindings only, and never reads an error's text
# function: _should_bind_tools
# part: judgment
# whole_file_because: a test suite, not a function: the mistake is the tests it leaves out
"""A weak suite for Day 06's part 2: it tests the main road only (bare, bound, wrong) and checks
that an error is a ValueError without reading its text, so most wrong functions pass it."""

import pytest

from miniagent.testing import FakeToolCallingModel
from miniagent.tools import tool


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def test_a_bare_model_needs_binding(should_bind):
    assert should_bind(FakeToolCallingModel(), [add]) is True


def test_a_matching_binding_is_kept(should_bind):
    assert should_bind(FakeToolCallingModel().bind_tools([add]), [add]) is False


def test_a_wrong_binding_raises(should_bind):
    with pytest.raises(ValueError):
        should_bind(FakeToolCallingModel().bind_tools([add]), [add, mul])
    with pytest.raises(ValueError):
        should_bind(FakeToolCallingModel().bind_tools([add]), [mul])
