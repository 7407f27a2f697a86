"""Day 03's reference: the ReAct loop by hand, and the scripts it and the predictions are graded on.

``run_loop`` has no upstream twin: upstream builds this loop as a graph (``create_react_agent``).
Its contract is to end every script exactly as

    create_react_agent(model, ToolNode(tools, handle_tool_errors=True))
        .invoke({"messages": messages}, {"recursion_limit": 2 * max_steps})["messages"]

does, compared with ``miniagent.testing.message_trace`` (ids normalised). ``handle_tool_errors=True``
because the loop feeds every tool error back to the model; the agent's *default* re-raises them
(``_default_handle_tool_errors``, tool_node.py:405), which is what part 2 asks the learner to
predict. ``recursion_limit = 2 * max_steps`` because one round (agent, then tools) costs two
super-steps, so the agent's soft landing ("Sorry, need more steps ...", Day 09) falls on the
``max_steps``-th model call, as the loop's cap does.

``SCRIPTS`` are the scripted conversations, built with a ``lib`` (``miniagent_course.sides``), so
the graders, ``miniagent mine``, the differential tests and the notebook run the same ones. The
benchmark's floor is :func:`run_loop` itself.

``instructor/recorded.json`` (:data:`RECORDING`) holds upstream's
``create_react_agent(model, ToolNode(tools, handle_tool_errors=True))`` run of every script of
:data:`LOOP_SCRIPTS`: ``miniagent mine`` runs the learner's loop on each script and compares the
messages with it, without importing upstream (``[mine.loop]`` in kit.toml). The contributors' suite
(``instructor/test_day03_loop_diff.py``) records it again; after changing a script::

    python -m miniagent_course.grading.recording day03
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from miniagent.graph.message import add_messages
from miniagent.messages import AIMessage, BaseMessage, ToolMessage
from miniagent.prebuilt.tool_node import INVALID_TOOL_NAME_ERROR_TEMPLATE, TOOL_CALL_ERROR_TEMPLATE
from miniagent.testing import message_trace
from miniagent_course.grading.recording import Recording

RECORDED = Path(__file__).parent / "instructor" / "recorded.json"
SORRY = "Sorry, need more steps to process this request."


def run_loop(
    model: Any, tools: Sequence[Any], messages: Sequence[Any], max_steps: int
) -> list[BaseMessage]:
    """The ReAct loop: call the model, run its tool calls, feed the results back, until it answers.

    At most ``max_steps`` model calls; see the stub (the day kit's stub.py, laid out as exercises/
    day03_react_loop.py) for the contract and the lesson for why each rule is the graph's.
    """
    tools_by_name = {tool.name: tool for tool in tools}
    bound = model.bind_tools(tools)  # the schemas go with every call (Day 02)
    messages = add_messages([], list(messages))  # tuples become messages; each gets an id
    for step in range(1, max_steps + 1):
        response = bound.invoke(messages)
        if response.tool_calls and step == max_steps:
            # no call left to answer the results: the agent's soft landing (Day 09)
            response = AIMessage(id=response.id, content=SORRY)
        messages = add_messages(messages, [response])
        if not response.tool_calls:
            return messages
        results = []
        for call in response.tool_calls:  # one reply may hold several calls: answer every one
            tool = tools_by_name.get(call["name"])
            if tool is None:
                content = INVALID_TOOL_NAME_ERROR_TEMPLATE.format(
                    requested_tool=call["name"], available_tools=", ".join(tools_by_name)
                )
                result = ToolMessage(
                    content, name=call["name"], tool_call_id=call["id"], status="error"
                )
            else:
                try:  # invoked with the whole call, a tool returns its own paired ToolMessage
                    result = tool.invoke({**call, "type": "tool_call"})
                except Exception as error:  # fed back: the model sees the failure
                    result = ToolMessage(
                        TOOL_CALL_ERROR_TEMPLATE.format(error=repr(error)),
                        name=call["name"],
                        tool_call_id=call["id"],
                        status="error",
                    )
            results.append(result)
        messages = add_messages(messages, results)
    return messages  # not reached: the last step's reply has no tool calls


# --- the scripts ------------------------------------------------------------------------------


def _call(tool_name: str, n: int = 1, /, **args: Any) -> dict[str, Any]:
    return {"name": tool_name, "args": args, "id": f"call_{n}"}


@dataclass(frozen=True)
class Script:
    """One scripted conversation: the tool calls of each model reply, in order, and the cap.

    The model is ``FakeToolCallingModel``: each reply's content is the contents of the messages
    it was sent, joined by ``-`` (so a trace shows what the model saw), and the replies cycle:
    a script ending in ``()`` ends with an answer, one without it calls tools forever.
    """

    replies: tuple[tuple[dict[str, Any], ...], ...]
    max_steps: int = 5
    question: str = "2 + 3?"

    def model(self, lib: Any) -> Any:
        return lib.FakeToolCallingModel(tool_calls=[list(r) for r in self.replies])

    def messages(self) -> list[Any]:
        return [("user", self.question)]


SCRIPTS: dict[str, Script] = {
    "one_call": Script(((_call("add", a=2, b=3),), ())),
    "parallel_calls": Script(((_call("add", 1, a=1, b=2), _call("add", 2, a=3, b=4)), ())),
    "two_rounds": Script(
        ((_call("profile", 1, name="Chen"),), (_call("add", 2, a=15, b=-3),), ()),
        question="How many days of leave has Chen left?",
    ),
    "tool_raises": Script(((_call("fail", x=7),), ())),
    "raises_beside_a_good_call": Script(((_call("add", 1, a=1, b=2), _call("fail", 2, x=7)), ())),
    "tool_exception": Script(((_call("search", query="leave policy"),), ())),
    "unknown_tool": Script(((_call("multiply", a=2, b=3),), ())),
    "endless_calls": Script(((_call("add", a=1, b=1),),), max_steps=3),
    "answer_at_the_cap": Script(((_call("add", a=2, b=3),), ()), max_steps=2),
}
# Predicted only: ToolNode words an argument error its own way (ToolInvocationError), which the
# loop's contract leaves out (the lesson, "Edge cases").
BAD_ARGUMENTS = Script(((_call("add", a="two", b=3),), ()))
LOOP_SCRIPTS = list(SCRIPTS)  # the scripts part 1 is graded on, and `miniagent mine` runs
PREDICTED = [*SCRIPTS, "bad_arguments"]


def script(name: str | Script) -> Script:
    """A script by name (or the script itself)."""
    if isinstance(name, Script):
        return name
    return BAD_ARGUMENTS if name == "bad_arguments" else SCRIPTS[name]


_TOOLS: dict[tuple[Any, Any], list[Any]] = {}


def tools(lib: Any) -> list[Any]:
    """The scripts' tools, built with ``lib.tool``: fresh ones for every run (copies of one set
    per side: reading a function's schema is most of a tool's cost)."""
    key = (lib.tool, lib.ToolException)
    if key not in _TOOLS:
        _TOOLS[key] = _make_tools(lib)
    return [copy.copy(made) for made in _TOOLS[key]]


def _make_tools(lib: Any) -> list[Any]:

    @lib.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @lib.tool
    def profile(name: str) -> dict:
        """Look up an employee: days of leave per year and days used."""
        return {"name": name, "quota": 15, "used": 3}

    @lib.tool
    def fail(x: int) -> int:
        """Always fails."""
        raise ValueError(f"cannot use {x}")

    @lib.tool
    def search(query: str) -> str:
        """Search the handbook (a remote server that is down)."""
        raise lib.ToolException("server unavailable")

    return [add, profile, fail, search]


def agent_run(lib: Any, name: str | Script, *, handle_tool_errors: Any = None) -> Any:
    """``create_react_agent``'s run of one script: its message trace, or the error's class name.

    ``handle_tool_errors=None`` is the agent's default ``ToolNode``; ``True`` is the loop's
    contract (errors fed back).
    """
    s = script(name)
    tool_list: Any = tools(lib)
    if handle_tool_errors is not None:
        tool_list = lib.ToolNode(tool_list, handle_tool_errors=handle_tool_errors)
    agent = lib.create_react_agent(s.model(lib), tool_list)
    try:
        result = agent.invoke({"messages": s.messages()}, {"recursion_limit": 2 * s.max_steps})
    except Exception as error:  # the default ToolNode re-raises a tool's own error
        return type(error).__name__
    return message_trace(result["messages"])


def loop_run(lib: Any, name: str | Script, loop: Any = None) -> Any:
    """``loop``'s run of one script (default: :func:`run_loop`), as a message trace."""
    s = script(name)
    return message_trace((loop or run_loop)(s.model(lib), tools(lib), s.messages(), s.max_steps))


# --- upstream's runs of the scripts, recorded (`miniagent mine` checks the learner's loop on them)


def upstream_results(side: Any) -> dict[str, Any]:
    """Upstream's agent, tool errors fed back, on every script of :data:`LOOP_SCRIPTS`."""
    return {name: agent_run(side, name, handle_tool_errors=True) for name in LOOP_SCRIPTS}


RECORDING = Recording(RECORDED, upstream_results)
record = RECORDING.record  # upstream's runs afresh (contributors: needs the pinned packages)
recorded = RECORDING.recorded  # upstream's runs as the file holds them


# --- part 2: what the agent does by default -----------------------------------------------


def in_words(run: Any) -> str:
    """A run in prediction words: ``"human ai tool ai"`` (a failed tool: ``tool-error``), or
    ``"raises ValueError"``."""
    if isinstance(run, str):
        return f"raises {run}"
    words = [
        "tool-error" if m.get("status") == "error" else m["type"] for m in run
    ]  # message_trace writes `status` only when it is not "success"
    return " ".join(words)


def what_the_agent_does(name: str) -> str:
    """The default ``create_react_agent(model, tools)``'s run of one script, in words."""
    from miniagent_course.sides import mini

    return in_words(agent_run(mini(), name))


# --- the same loop as a graph (the lesson shows this function) ----------------------------


# --8<-- [start:loop_graph]
def loop_graph(lib: Any, model: Any, tools: list[Any]) -> Any:
    """The loop as a graph: two nodes, a conditional edge out of ``agent``, a back edge."""
    bound = model.bind_tools(tools)

    def agent(state):
        return {"messages": [bound.invoke(state["messages"])]}

    graph = lib.StateGraph(lib.MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", lib.ToolNode(tools, handle_tool_errors=True))
    graph.add_edge(lib.START, "agent")
    graph.add_conditional_edges("agent", lib.tools_condition)  # "tools", or END
    graph.add_edge("tools", "agent")  # the back edge: this one makes the graph an agent
    return graph.compile()


# --8<-- [end:loop_graph]


def loop_diagram() -> Any:
    """:func:`loop_graph` on miniagent, for the lesson's diagram (a ``graph-of`` fence)."""
    from miniagent_course.sides import mini
    from miniagent_course.site.diagrams import get_weather

    lib = mini()
    return loop_graph(lib, lib.FakeToolCallingModel(), [lib.tool(get_weather)])


def upstream_loop_diagram() -> Any:
    """:func:`loop_graph` on langgraph's ``StateGraph``, ``ToolNode`` and ``tools_condition``."""
    from miniagent_course.sides import upstream
    from miniagent_course.site.diagrams import get_weather

    lib = upstream()
    if lib is None:
        raise ModuleNotFoundError("the upstream packages are not installed", name="langgraph")
    return loop_graph(lib, lib.FakeToolCallingModel(), [lib.tool(get_weather)])
