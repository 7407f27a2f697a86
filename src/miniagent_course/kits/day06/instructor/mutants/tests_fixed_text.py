# why: expects "must match. Got" with a full stop, so it fails on correct code too
# function: _should_bind_tools
# part: judgment
# whole_file_because: a test suite, not a function: the mistake is what it expects
"""A wrong suite for Day 06's part 2: it expects the count error with a full stop ("must match.
Got"), which upstream's text does not have. It catches mistakes only because it fails on
everything, correct code included."""

import pytest

from miniagent.testing import FakeToolCallingModel
from miniagent.tools import tool


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def test_the_count_error_reads_like_two_sentences(should_bind):
    with pytest.raises(ValueError) as error:
        should_bind(FakeToolCallingModel().bind_tools([add]), [])
    assert "must match. Got 0 tools, expected 1" in str(error.value)
