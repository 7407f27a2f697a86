"""The upstream twins of ``miniagent.testing``'s fakes, for the day kits' cases.

They are the runtime tests' (``tests/runtime/sides/upstream_fakes.py``), borrowed through
:func:`miniagent_course.sides.runtime_sides`; a notebook reaches them as ``UP.ScriptedChatModel``
and ``UP.FakeToolCallingModel``.
"""

from miniagent_course.sides import runtime_sides

_fakes = runtime_sides("sides.upstream_fakes")

FakeToolCallingModel = _fakes.FakeToolCallingModel
ScriptedChatModel = _fakes.ScriptedChatModel

__all__ = ["FakeToolCallingModel", "ScriptedChatModel"]
