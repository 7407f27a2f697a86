"""Managed values: state keys the graph computes for each task. Mirrors ``langgraph/managed/``.

A managed value is never stored and never returned: the loop computes it from its step counter
when it builds a node's input. ``create_react_agent`` reads ``remaining_steps`` to give up
politely ("Sorry, need more steps to process this request.") before the recursion limit hits.
"""

from __future__ import annotations

from typing import Annotated, Any

__all__ = [
    "ManagedValue",
    "is_managed_value",
    "RemainingStepsManager",
    "RemainingSteps",
    "IsLastStepManager",
    "IsLastStep",
]


class ManagedValue:
    """Base class of managed values (langgraph/managed/base.py:18).

    ``get`` receives the *scratchpad*, anything with the loop's ``step`` and ``stop``; in the
    miniature that is the loop itself.
    """

    @staticmethod
    def get(scratchpad: Any) -> Any:
        raise NotImplementedError


def is_managed_value(value: Any) -> bool:
    """True for a ManagedValue subclass (langgraph/managed/base.py:27)."""
    return isinstance(value, type) and issubclass(value, ManagedValue)


# --8<-- [start:remaining_steps_manager]
class RemainingStepsManager(ManagedValue):
    """``stop - step`` (langgraph/managed/is_last_step.py:18).

    With ``stop = first_step + recursion_limit + 1`` and the first node at step 1 of a fresh
    thread, a node sees ``recursion_limit - step``.
    """

    @staticmethod
    def get(scratchpad: Any) -> int:
        return scratchpad.stop - scratchpad.step


# --8<-- [end:remaining_steps_manager]


class IsLastStepManager(ManagedValue):
    """True when ``step == stop - 1`` (langgraph/managed/is_last_step.py:9)."""

    @staticmethod
    def get(scratchpad: Any) -> bool:
        return scratchpad.step == scratchpad.stop - 1


RemainingSteps = Annotated[int, RemainingStepsManager]  # is_last_step.py:24
IsLastStep = Annotated[bool, IsLastStepManager]  # is_last_step.py:15
