# why: tests dict states only: misses every mistake that breaks pydantic states
# function: _get_state_value
# part: judgment
# whole_file_because: a test suite, not a function: the mistake is the tests it leaves out
"""A weak suite for Day 00's part 2: it tests dict states only, so a function that breaks every
pydantic state passes it."""


def test_a_dict_gives_its_value(get):
    assert get({"messages": ["hi"]}, "messages") == ["hi"]


def test_a_missing_key_gives_the_default(get):
    assert get({}, "remaining_steps", 25) == 25
