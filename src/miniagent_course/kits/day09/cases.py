"""Day 09's reference for the Rebuild part, and the travel desk of the Repair part.

**Rebuild.** Upstream defines ``_are_more_steps_needed`` inside ``create_react_agent``
(chat_agent_executor.py:620), where it closes over one value, ``should_return_direct`` (the
names of the tools built with ``return_direct=True``, l.597). The exercise passes that set as
an argument instead; this module turns it back into the real function, so the reference *is*
miniagent's ``_are_more_steps_needed`` and never a second copy of it.

    check = make_are_more_steps_needed({"finish"})   # the real closure, over {"finish"}
    check({"messages": [], "remaining_steps": 1}, response)

**Repair.** ``answer_as_shipped`` is a small application, a travel desk, as it went live: the
chat platform calls it once per question with the platform's own run config. It misbehaves the
way three real threads did (langgraph #8204 and #5548, deepagents PR #5882: the lesson tells
them). :data:`SCENARIOS` are the desk's requirements, each a check of an ``answer`` function
that raises ``AssertionError`` with one sentence while it still misbehaves. They run on
miniagent's side (the graders) or on upstream's (the kit's differential test): :func:`on_side`
runs the same application code against the other library.
"""

from __future__ import annotations

import copy
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from miniagent.messages import BaseMessage
from miniagent.prebuilt import create_react_agent
from miniagent_course.grading.closures import (
    rebind,
    reference_inner_function,
)
from miniagent_course.sides import mini
from miniagent_course.todo import NotStarted

SORRY = "Sorry, need more steps to process this request."


def make_are_more_steps_needed(
    should_return_direct: set[str],
) -> Callable[[Any, BaseMessage], bool]:
    """The real ``_are_more_steps_needed`` (chat_agent_executor.py:620), over this set.

    Python keeps a closure's free variables in cells; a new function object made from the real
    function's code and a fresh cell holding ``should_return_direct`` is the function
    ``create_react_agent`` builds for an agent with those return-direct tools. Read the code in
    ``src/miniagent/prebuilt/chat_agent_executor.py`` (snippet ``are_more_steps_needed``).
    """
    real = reference_inner_function("_are_more_steps_needed")
    return rebind(real, should_return_direct=should_return_direct)  # its only free variable


def install_make_are_more_steps_needed(agent: Any, make: Callable[..., Any]) -> None:
    """Put the check ``make`` builds into ``agent``, over the agent's own return-direct set."""
    from miniagent_course.grading.closures import agent_node_function, closure_vars, swap_closure

    call_model = agent_node_function(agent)
    real = closure_vars(call_model)["_are_more_steps_needed"]
    should_return_direct = closure_vars(real)["should_return_direct"]
    swap_closure(call_model, "_are_more_steps_needed", make(should_return_direct))


# --- Repair: the travel desk -----------------------------------------------------------------

MAX_TOOL_CALLS = 3  # what the desk pays for, per question (the stub has the same constant)

# What the chat platform passes to every handler it runs: the ticket (its traces and the
# tools read it), its tags, and the recursion limit it stamps on every run it starts.
PLATFORM_CONFIG: dict[str, Any] = {
    "metadata": {"ticket": "T-1042"},
    "tags": ["travel-desk"],
    "recursion_limit": 25,
}
QUESTION = "When does LH123 leave, and can you book me on it?"
ANSWER = "LH123 leaves at 9:40 from gate B12."
BOOKED = "Booked LH123: confirmation K7Q2."


# --8<-- [start:answer_as_shipped]
def answer_as_shipped(question, model, tools, config):
    """The desk as it went live: one question in, the text of the reply out."""
    agent = create_react_agent(model, tools).with_config(
        recursion_limit=2 * MAX_TOOL_CALLS  # two super-steps per tool call: tools, then agent
    )
    result = agent.invoke({"messages": [("user", question)]}, config)
    return result["messages"][-1].content


# --8<-- [end:answer_as_shipped]


def on_side(function: Callable[..., Any], lib: Any) -> Callable[..., Any]:
    """``function`` running on the library of side ``lib``: each miniagent name it reads from its
    module (``create_react_agent``, ``GraphRecursionError``...), in its own code or in the code
    of the functions it defines, is taken from ``lib`` instead. On miniagent's side, the
    function itself."""
    ours = mini()
    if lib.name == ours.name:
        return function
    code = function.__code__
    names: set[str] = set()
    codes = [code]
    while codes:
        current = codes.pop()
        names.update(current.co_names)
        codes.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    globals_ = dict(function.__globals__)
    for name in names:
        value = globals_.get(name)
        if value is not None and getattr(ours, name, None) is value:
            globals_[name] = getattr(lib, name)
    moved = types.FunctionType(
        code, globals_, function.__name__, function.__defaults__, function.__closure__
    )
    moved.__kwdefaults__ = function.__kwdefaults__
    return moved


def _runnable_config(lib: Any) -> Any:
    """The ``RunnableConfig`` type of side ``lib``: a tool parameter of that type gets the
    run's config."""
    if lib.name == mini().name:
        from miniagent.runnables import RunnableConfig
    else:
        from langchain_core.runnables import RunnableConfig
    return RunnableConfig


def desk_tools(lib: Any, runs: list[tuple[str, Any]], *, book: bool = True) -> list[Any]:
    """The desk's tools on side ``lib``: ``search``, and ``book`` (``return_direct=True``: its
    confirmation is the reply). Each run is logged in ``runs`` as (tool, the ticket it saw)."""

    def search(query: str, config: Any) -> str:
        """Look up flights: departure times, gates, seats."""
        runs.append(("search", (config.get("metadata") or {}).get("ticket")))
        return f"Found for {query!r}: LH123, 9:40, gate B12, seats left."

    def book_flight(flight: str, config: Any) -> str:
        """Book the customer on a flight and give the confirmation."""
        runs.append(("book", (config.get("metadata") or {}).get("ticket")))
        return BOOKED

    for function in (search, book_flight):
        function.__annotations__["config"] = _runnable_config(lib)
    book_flight.__name__ = "book"
    tools = [lib.tool(search)]
    if book:
        tools.append(lib.tool(return_direct=True)(book_flight))
    return tools


def scripted(lib: Any, script: list[Any]) -> Any:
    """A model on side ``lib`` that replies from ``script``: ``(tool, args)`` calls that tool,
    a str answers with that text."""
    replies = []
    for n, step in enumerate(script, start=1):
        if isinstance(step, tuple):
            name, args = step
            call = {"name": name, "args": args, "id": f"call-{n}"}
            replies.append(lib.AIMessage("", id=f"ai-{n}", tool_calls=[call]))
        else:
            replies.append(lib.AIMessage(step, id=f"ai-{n}"))
    return lib.ScriptedChatModel(replies)


LOOK_UP_TIME = ("search", {"query": "LH123 departure"})
LOOK_UP_GATE = ("search", {"query": "LH123 gate"})
BOOK = ("book", {"flight": "LH123"})
# each situation: the model's script, and whether the desk is given the booking tool
SITUATIONS: dict[str, tuple[list[Any], bool]] = {
    "two lookups, then an answer": ([LOOK_UP_TIME, LOOK_UP_GATE, ANSWER], True),
    "two lookups, then a booking": ([LOOK_UP_TIME, LOOK_UP_GATE, BOOK], True),
    "a model that never stops": ([LOOK_UP_TIME] * 20, False),
}


@dataclass
class DeskRun:
    """How one call of an ``answer`` function went: its reply or its error, and the tool runs."""

    reply: Any = None
    error: Exception | None = None
    runs: list[tuple[str, Any]] = field(default_factory=list)

    def ran(self, tool: str) -> int:
        return sum(name == tool for name, _ in self.runs)

    def told(self) -> str:
        """What ``answer`` did, as the end of a sentence: "returned '...'" or "raised X: ..."."""
        if self.error is None:
            return f"returned {self.reply!r}"
        first = (str(self.error).strip().splitlines() or [""])[0]
        return f"raised {type(self.error).__name__}: {first}"


def run_desk(
    answer: Callable[..., Any], lib: Any, situation: str, config: dict[str, Any] | None = None
) -> DeskRun:
    """Call ``answer`` as the platform does, in ``situation``, on side ``lib``; ``config`` is the
    platform's run config unless given (a copy of it is passed)."""
    script, book = SITUATIONS[situation]
    run = DeskRun()
    tools = desk_tools(lib, run.runs, book=book)
    given = copy.deepcopy(PLATFORM_CONFIG if config is None else config)
    try:
        run.reply = on_side(answer, lib)(QUESTION, scripted(lib, script), tools, given)
    except NotStarted:
        raise
    except Exception as error:  # what it raised is an outcome like any other
        run.error = error
    return run


def observe(lib: Any, answer: Callable[..., Any], situation: str, config: Any = None) -> str:
    """One line: what ``answer`` did in ``situation`` on side ``lib``, and which tools ran."""
    run = run_desk(answer, lib, situation, config)
    names = dict.fromkeys(name for name, _ in run.runs)  # in the order they first ran
    tools = ", ".join(f"{name} {run.ran(name)}x" for name in names) or "none"
    return f"{run.told()}; tools run: {tools}"


def _saw_the_ticket(run: DeskRun, situation: str) -> None:
    ticket = PLATFORM_CONFIG["metadata"]["ticket"]
    for tool, seen in run.runs:
        if seen != ticket:
            raise AssertionError(
                f"{situation}: the platform's config must reach the run, so every tool sees the "
                f"ticket {ticket!r} in its metadata, but `{tool}` saw {seen!r}."
            )


def two_lookups_then_an_answer(answer: Callable[..., Any], lib: Any = None) -> None:
    """The model looks up twice, then answers: that answer is the reply."""
    situation = "two lookups, then an answer"
    run = run_desk(answer, lib or mini(), situation)
    if run.error is not None or run.reply != ANSWER:
        raise AssertionError(
            f"{situation}: `answer` should return the model's answer {ANSWER!r}, "
            f"but it {run.told()}."
        )
    _saw_the_ticket(run, situation)


def two_lookups_then_a_booking(answer: Callable[..., Any], lib: Any = None) -> None:
    """The model looks up twice, then books (langgraph #8204): the booking is made, and its
    confirmation is the reply."""
    situation = "two lookups, then a booking"
    run = run_desk(answer, lib or mini(), situation)
    if run.ran("book") != 1 or run.error is not None or run.reply != BOOKED:
        raise AssertionError(
            f"{situation}: `book` should run once and its confirmation {BOOKED!r} be the "
            f"reply, but `book` ran {run.ran('book')} time(s) and `answer` {run.told()}."
        )
    _saw_the_ticket(run, situation)


def a_model_that_never_stops(answer: Callable[..., Any], lib: Any = None) -> None:
    """The model calls ``search`` on every turn (langgraph #5548): no more tool calls run than
    the desk pays for, and ``answer`` raises ``GraphRecursionError``, which the platform
    catches to hand the ticket to a person."""
    lib = lib or mini()
    situation = "a model that never stops"
    run = run_desk(answer, lib, situation)
    calls = len(run.runs)
    expected = (
        f"{situation}: `answer` should raise GraphRecursionError after at most "
        f"{MAX_TOOL_CALLS} tool calls, but"
    )
    if not isinstance(run.error, lib.GraphRecursionError):
        raise AssertionError(f"{expected} it {run.told()} after {calls} tool call(s).")
    if calls > MAX_TOOL_CALLS:
        raise AssertionError(f"{expected} `search` ran {calls} times before it raised.")
    _saw_the_ticket(run, situation)


# scenario name (the graders' test ids) -> its check of an `answer` function
SCENARIOS: dict[str, Callable[..., None]] = {
    "two_lookups_then_an_answer": two_lookups_then_an_answer,
    "two_lookups_then_a_booking": two_lookups_then_a_booking,
    "a_model_that_never_stops": a_model_that_never_stops,
}

# the modules whose functions a repair leaves alone: the agent, its tool node, the loop
UNTOUCHED = [
    "miniagent.prebuilt.chat_agent_executor",
    "miniagent.prebuilt.tool_node",
    "miniagent.graph.pregel",
    "miniagent.graph.state",
    "miniagent.managed",
    "miniagent.runnables.config",
]
