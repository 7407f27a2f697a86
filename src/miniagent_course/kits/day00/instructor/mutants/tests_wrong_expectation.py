# why: expects the default for a stored 0, so it fails on correct code too
# function: _get_state_value
# part: judgment
# whole_file_because: a test suite, not a function: the mistake is what it expects
"""A wrong suite for Day 00's part 2: it expects the default for a stored falsy value, which a
correct function does not give. It catches mistakes only because it fails on everything."""


def test_a_stored_zero_counts_as_missing(get):
    assert get({"remaining_steps": 0}, "remaining_steps", 25) == 25
