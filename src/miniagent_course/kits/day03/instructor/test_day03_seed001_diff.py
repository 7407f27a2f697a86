"""Seed 001's graph, run as written: the Day 03 page's claims about it, on both libraries.

The code is the notebook's (``notebooks/day03_react_loop.ipynb``, section 6); the page's fragment
(``course/days/day03-react-loop.md``) must be that code, line for line. Each claim the page makes
about the run is asserted here on miniagent and on the pinned upstream packages, and the two must
agree. The provider's replies the page quotes from the article (the 400, the empty reply) are not
run: only a real service gives them.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langgraph")
pytest.importorskip("langchain_openai")

ROOT = Path(__file__).resolve().parents[5]
NOTEBOOK = ROOT / "notebooks" / "day03_react_loop.ipynb"
PAGE = ROOT / "course" / "days" / "day03-react-loop.md"
PREAMBLE = """
from miniagent.testing import message_trace
from miniagent_course.lab import MINI, UP, agreement, attempt, on_both
"""


def _section_six_code() -> list[str]:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    code, inside = [], False
    for cell in cells:
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and text.startswith("## "):
            inside = text.startswith("## 6. The source article's graph")
        elif inside and cell["cell_type"] == "code":
            code.append(text)
    assert code, "section 6 of the Day 03 notebook is gone"
    return code


@pytest.fixture(scope="module")
def ns() -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "day03_section6"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(PREAMBLE + "\n".join(_section_six_code()), namespace)
    return namespace


def both(ns: dict[str, Any], experiment: Any) -> tuple[Any, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return experiment(ns["MINI"]), experiment(ns["UP"])


def test_the_page_shows_the_code_the_notebook_runs() -> None:
    page = PAGE.read_text(encoding="utf-8")
    section = page.split("the source article's graph, run as written\"", 1)[1]
    fragment = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    wanted = [line.strip() for line in fragment.splitlines() if line.strip()]
    cell = next(c for c in _section_six_code() if "def article_graph(" in c)
    have = [line.strip() for line in cell.splitlines() if line.strip()]
    position = 0
    for line in wanted:  # every line of the page's fragment, in order
        assert line in have[position:], f"not in the notebook's article_graph: {line}"
        position = have.index(line, position) + 1


def test_every_round_and_a_dict_becomes_pythons_repr(ns: dict[str, Any]) -> None:
    mini, up = both(ns, ns["every_round"])
    assert mini == up
    assert len(mini) == 5  # agent, tools, agent, tools, agent: one update per node run
    assert "\"{'hire_date': '2023-03-01', 'used': 3}\"" in mini[1]  # str(dict), not JSON


def test_the_system_prompt_is_sent_every_call_and_stored_nowhere(ns: dict[str, Any]) -> None:
    mini, up = both(ns, ns["what_the_model_got"])
    assert mini == up
    assert mini == {
        "first message, each call": ["system", "system", "system"],
        "system messages in the state": 0,
        "tools sent, first call": ["query_employee", "annual_leave_quota"],
    }


def test_bound_or_not_is_the_tools_key_of_the_request(ns: dict[str, Any]) -> None:
    unbound, bound = ns["request_body"](False), ns["request_body"](True)
    assert "tools" not in unbound
    assert [t["function"]["name"] for t in bound["tools"]] == [
        "query_employee",
        "annual_leave_quota",
    ]
    assert {k: v for k, v in bound.items() if k != "tools"} == unbound


def test_tool_call_id_three_ways(ns: dict[str, Any]) -> None:
    assert both(ns, ns["no_id"]) == ("KeyError: 'tool_call_id'",) * 2
    mini, up = both(ns, ns["wrong_id_request"])
    assert mini == up
    assert mini[-1] == {"content": '{"used": 3}', "role": "tool", "tool_call_id": "call_x"}
    shown = '{"content": "{\\"used\\": 3}", "role": "tool", "tool_call_id": "call_x"}'
    assert shown in PAGE.read_text(encoding="utf-8")  # the page shows this very message
    assert json.loads(shown) == mini[-1]
    mini, up = both(ns, ns["one_of_two_answered"])
    assert mini == up
    assert mini["the article's graph answers"] == "a reply from the fake"  # no check at all
    assert mini["create_react_agent"].startswith("ValueError: Found AIMessages with tool_calls")


def test_the_cap_counts_tool_messages_in_the_whole_history(ns: dict[str, Any]) -> None:
    mini, up = both(ns, ns["two_turns"])
    assert mini == up
    assert mini["model calls"] == 3
    assert mini["turn 1 ends with"][0]["tool_calls"][0]["id"] == "call_3"  # after ONE round
    assert mini["turn 2 adds"] == ["human", "ai"]  # ends at the first tool request
    assert "'id': 'call_3'" in mini["history check"]
    assert "'id': 'call_4'" in mini["history check"]


def test_the_hand_off_keeps_the_history_valid(ns: dict[str, Any]) -> None:
    mini, up = both(ns, lambda lib: ns["two_turns"](lib, ns["handoff"](lib)))
    assert mini == up
    assert mini["history check"] == "valid"
    assert mini["turn 2 adds"] == ["human", "ai", "tool", "ai"]  # a person takes over again
    assert mini["turn 2 ends with"][0]["content"] == "A colleague from HR will take this over."
