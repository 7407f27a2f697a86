"""Day 00 warm-up: read one value from an agent state, whatever the state's type.

Lesson:    course/days/day00-welcome.md
Notebook:  notebooks/day00_welcome.ipynb
Check:     miniagent check day00        Stuck?  miniagent hint day00

Two parts, graded separately:

(1) ``_get_state_value``: write the function.
(2) Be the grader: write tests that tell a correct ``_get_state_value`` from wrong ones.
"""

from __future__ import annotations

from typing import Any

from miniagent_course.todo import NotStarted


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    """Return the value stored under ``key`` in the agent's ``state``, or ``default``.

    Input:

    * ``state`` -- an agent state: a ``dict`` (``AgentState`` is a TypedDict, a plain dict at run
      time; a dict subclass counts as a dict) or any other object (a pydantic
      ``AgentStatePydantic``, a dataclass, an object with ``__slots__``, a mapping that is not a
      ``dict``);
    * ``key`` -- the name of a state field; ``default`` -- any value.

    Output: for a ``dict``, the value stored under ``key``; for any other object, its attribute
    named ``key``. It is the stored object itself, even a falsy one (``0``, ``[]``, ``None``);
    ``default`` comes back only when the key or the attribute is missing.

    Errors: none. A missing key or attribute is not an error.

    >>> _get_state_value({"messages": []}, "remaining_steps", 25)
    25

    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:129`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day00): replace the line below with your code (one expression is enough).
    raise NotStarted("day00")


# --- part 2: be the grader ------------------------------------------------------------------
#
# Write test functions, as many as you like, each named test_<what it checks> and taking one
# argument: the function under test (call it `get`). A test calls `get(...)` and asserts what a
# correct _get_state_value returns; a test that raises, for any reason, has rejected `get`.
# The graders run your tests against a correct function (all must pass) and against several
# plausible wrong ones (together, your tests must catch at least eight). Which wrong versions?
# That is the exercise: think about what someone could get wrong, and about every kind of
# state the agent could be handed. `miniagent check day00` tells you how many you catch.
#
#     def test_a_dict_gives_its_value(get):
#         assert get({"messages": ["hi"]}, "messages") == ["hi"]


def test_my_first_check(get):
    """Your first test: replace the line below with a check (and add more test_ functions)."""
    # TODO(day00): part 2, your tests.
    raise NotStarted("day00")
