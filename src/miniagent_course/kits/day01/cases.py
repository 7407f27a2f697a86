"""Day 01's reference: ``add_messages``, the reducer of the agent's ``messages`` key.

* :data:`add_messages` is miniagent's own function (``src/miniagent/graph/message.py``, snippet
  ``add_messages``) as written under its decorator: the learner writes that body, and the
  stub keeps upstream's decorator ``_add_messages_wrapper`` (the one-argument error and
  ``add_messages(format=...)``), which is given.
* :func:`install_add_messages` makes a compiled agent's ``messages`` channel reduce with another
  function (``miniagent mine`` and the graders put the learner's there).
* Generated histories (:func:`generated`, :func:`replay`): random updates fed through a reducer
  one after another, the result of each becoming the next ``left``. The graders replay them on
  the learner's function and on the reference; the contributors' differential test
  (``instructor/test_day01_histories_diff.py``) on miniagent's and upstream's.
* Part 2: the pairs of the table (:func:`pairs`) and what ``add_messages`` returns for one of
  them (:func:`what_it_returns`), which the graders run to grade a prediction. Every helper
  takes ``lib``, a namespace of the names it uses (``miniagent_course.sides``), so the same
  pairs run on upstream in the differential test and in the notebook.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from miniagent.graph import message as _message
from miniagent.testing import normalize_ids
from miniagent_course.grading.closures import closure_vars
from miniagent_course.todo import NotStarted

add_messages = closure_vars(_message.add_messages)["func"]
"""miniagent's ``add_messages`` under its decorator (graph/message.py; upstream message.py:65).

``_add_messages_wrapper`` returns an inner function that calls the decorated one, kept in its
closure as ``func``; that one is the code the learner writes, and its source starts at the
decorator, as the stub does.
"""


def install_add_messages(agent: Any, add_messages: Callable[[Any, Any], Any]) -> None:
    """Make ``agent``'s ``messages`` channel reduce with ``add_messages`` from now on.

    A state key annotated ``Annotated[list, reducer]`` becomes a ``BinaryOperatorAggregate``
    channel (miniagent/graph/state.py; upstream langgraph/channels/binop.py) that keeps the
    reducer as ``operator``; every write to the key, the run's input included, goes through
    ``operator(current, written)``. The channel object belongs to this agent (each
    ``create_react_agent`` call builds its own graph), so no other agent is touched.
    """
    agent.channels["messages"].operator = add_messages


# --- generated histories ------------------------------------------------------------------
#
# A message spec is a small tuple that builds one message-like value with either library's
# classes: (kind, content, id) for kind in human/ai/chunk/dict/tool, ("remove", id) and
# ("tuple", content). Ids come from a small pool, so updates replace and delete each other.

KINDS = ("human", "ai", "chunk", "dict", "tool")
IDS = ("a", "b", "c", None)


def generated(count: int = 200, seed: int = 1, max_updates: int = 8, max_size: int = 4) -> list:
    """``count`` different update lists, each a list of message specs, smallest first.

    Random but the same on every run (``seed``): a spec is one of three shapes, each as likely;
    an update list holds up to ``max_updates`` updates of up to ``max_size`` specs. The graders
    replay them in this order, so the first history that goes wrong is one of the shortest.
    """
    rng = random.Random(seed)
    shapes = (
        lambda: (rng.choice(KINDS), rng.choice("xy"), rng.choice(IDS)),
        lambda: ("remove", rng.choice([*IDS[:-1], "__remove_all__"])),
        lambda: ("tuple", rng.choice("xy")),
    )
    found: dict[str, list] = {}
    while len(found) < count:
        steps = [
            [rng.choice(shapes)() for _ in range(rng.randint(0, max_size))]
            for _ in range(rng.randint(0, max_updates))
        ]
        found.setdefault(repr(steps), steps)
    return sorted(found.values(), key=lambda steps: (sum(map(len, steps)), len(steps), repr(steps)))


def build(lib: Any, spec: tuple) -> Any:
    """The message-like value ``spec`` describes, made with ``lib``'s classes."""
    kind = spec[0]
    if kind == "human":
        return lib.HumanMessage(spec[1], id=spec[2])
    if kind == "ai":
        call = {"name": "f", "args": {}, "id": "t"}
        return lib.AIMessage(spec[1], id=spec[2], tool_calls=[call])
    if kind == "chunk":
        return lib.AIMessageChunk(spec[1], id=spec[2])
    if kind == "tool":
        return lib.ToolMessage(spec[1], id=spec[2], tool_call_id="t")
    if kind == "dict":
        return {"role": "user", "content": spec[1], "id": spec[2]}
    if kind == "remove":
        return lib.RemoveMessage(id=spec[1])
    return ("ai", spec[1])


def replay(lib: Any, add_messages: Callable[[Any, Any], Any], steps: list[list[tuple]]) -> list:
    """Start from ``add_messages([], [])`` and apply each update; the outcome after each.

    An update that raises leaves the history as it was, as a failed graph step would.
    """
    history = add_messages([], [])
    seen = []
    for step in steps:
        new = [build(lib, spec) for spec in step]
        try:
            history = add_messages(history, new)
        except NotStarted:  # a stub: not an outcome
            raise
        except Exception as error:
            seen.append({"error": type(error).__name__, "message": str(error)})
            continue
        seen.append([dict(entry) for entry in _entries(history)])
    return normalize_ids(seen)


def _entries(history: Any) -> list[dict[str, Any]]:
    from miniagent.testing import _trace_entry

    return [_trace_entry(m) for m in history]


# --- part 2: predict what add_messages returns ---------------------------------------------

Result = list[tuple[str, str]] | str  # (type, content) of each message, or an error's class


def pairs(lib: Any) -> dict[str, tuple[Callable[[], Any], Callable[[], Any]]]:
    """The table's (left, right) pairs by case name, built fresh with ``lib``'s classes.

    The stub's docstring shows the same pairs; keep the two in step.
    """
    H, AI, Tool, Remove = lib.HumanMessage, lib.AIMessage, lib.ToolMessage, lib.RemoveMessage
    call = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}

    def chat():
        return [H("2 + 3?", id="1"), AI("let me add", id="2", tool_calls=[call])]

    return {
        "append_one": (chat, lambda: Tool("5", id="3", tool_call_id="call_1")),
        "same_id_replaces": (chat, lambda: [AI("2 + 3 = 5", id="2")]),
        "no_id_appends": (chat, lambda: [AI("let me add", tool_calls=[call])]),
        "same_id_other_type": (chat, lambda: [Tool("5", id="2", tool_call_id="call_1")]),
        "remove_one": (chat, lambda: [Remove(id="2")]),
        "remove_unknown": (chat, lambda: [Remove(id="9")]),
        "add_then_remove": (chat, lambda: [AI("draft", id="7"), Remove(id="7")]),
        "remove_then_add": (chat, lambda: [Remove(id="2"), AI("again", id="2")]),
        "remove_all": (chat, lambda: [Remove(id=lib.REMOVE_ALL_MESSAGES), H("fresh")]),
        "remove_all_tail": (
            chat,
            lambda: [Remove(id=lib.REMOVE_ALL_MESSAGES), H("a", id="x"), Remove(id="x")],
        ),
        "dicts_tuples_strs": (
            list,
            lambda: [{"role": "user", "content": "hi"}, ("assistant", "hello"), "bye"],
        ),
        "one_tuple": (list, lambda: ("user", "hi")),
        "tuple_of_messages": (list, lambda: (H("a"), H("b"), H("c"))),
        "tool_dict_without_call_id": (list, lambda: [{"role": "tool", "content": "5"}]),
        "unanswered_call_is_fine": (list, lambda: [AI("", tool_calls=[call]), H("hello?")]),
        "chunk": (chat, lambda: lib.AIMessageChunk("2 + 3", id="4")),
    }


def what_it_returns(lib: Any, left: Callable[[], Any], right: Callable[[], Any]) -> Result:
    """``lib.add_messages(left(), right())`` as (type, content) pairs, or the error's class name."""
    try:
        merged = lib.add_messages(left(), right())
    except Exception as error:  # the prediction names the class
        return type(error).__name__
    return [(m.type, m.content) for m in merged]
