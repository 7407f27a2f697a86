"""The loopback Chat Completions server, for the notebooks and the course's tests.

It is the runtime tests' (``tests/runtime/sides/loopback.py``, whose docstring shows its use),
borrowed through :func:`miniagent_course.sides.runtime_sides`: one server, two users.
"""

from miniagent_course.sides import runtime_sides

_loopback = runtime_sides("sides.loopback")

LoopbackServer = _loopback.LoopbackServer
Reply = _loopback.Reply
completion = _loopback.completion
chunk = _loopback.chunk
streamed_tool_call_chunks = _loopback.streamed_tool_call_chunks
closed_port_url = _loopback.closed_port_url

__all__ = [
    "LoopbackServer",
    "Reply",
    "chunk",
    "closed_port_url",
    "completion",
    "streamed_tool_call_chunks",
]
