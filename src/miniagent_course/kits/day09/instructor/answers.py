"""Day 09's Think part, answered: the travel desk, repaired.

The instructors' side: no learner file, kit.toml, ``cases.py`` nor grader holds this function; the
engine finds it here because kit.toml names no ``reference`` for ``answer``
(``grading/course.py``, ``ANSWERS``). The mutants ``mutants/*.patch`` whose ``function`` is
``answer`` edit this function's source.

What was wrong with ``cases.answer_as_shipped``, and why this repairs it:

* **the layer** (deepagents PR #5882, langchain-ai/docs #1121): a limit bound with
  ``.with_config`` is only a default; the platform's run config carries its own
  ``recursion_limit`` (25), and the run config wins, so the desk ran 12 tool calls. The limit
  goes into the run config, on top of the platform's (whose ticket the tools must still see).
* **the number** (langgraph #8204, #5548): ``2 * MAX_TOOL_CALLS`` is even, so the agent sees
  5, 3, 1: at 1 a third tool call is replaced by the Sorry reply, a booking included, and a
  runaway model ends with that reply instead of ``GraphRecursionError``. With
  ``2 * MAX_TOOL_CALLS + 1`` the agent sees 6, 4, 2, 0: a third call runs (a booking ends the
  run right after its tool: its round needs exactly the two steps left), an answer after two
  lookups arrives at 2, and a runaway model's fourth call arrives at 0 and the run raises after
  three tool calls.
"""

from __future__ import annotations

from typing import Any

from miniagent.prebuilt import create_react_agent
from miniagent_course.kits.day09.cases import MAX_TOOL_CALLS


def answer(question: str, model: Any, tools: list[Any], config: dict[str, Any]) -> str:
    """The desk, repaired: an odd limit, set per run, over the platform's config."""
    agent = create_react_agent(model, tools)
    run_config = {**config, "recursion_limit": 2 * MAX_TOOL_CALLS + 1}
    result = agent.invoke({"messages": [("user", question)]}, run_config)
    return result["messages"][-1].content
