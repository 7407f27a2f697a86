"""Every upstream citation in src/miniagent's docstrings and comments holds (the `upstream` extra).

The pages' checker (`miniagent_course.site.citations`) reads the source files too. Below it is
run on small made-up modules with right and wrong citations, so a checker that accepts everything
would fail here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("langgraph.prebuilt")

from miniagent_course.site.citations import (  # noqa: E402
    check_source,
    check_sources,
    line_citations,
    owners,
    source_prose,
    upstream_twins,
)

ROOT = Path(__file__).resolve().parents[3]
ARCHITECTURE = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
NAME = "src/miniagent/prebuilt/chat_agent_executor.py"
CAE_TWINS = ("langgraph/prebuilt/chat_agent_executor.py",)


def problems(text: str, twins: tuple[str, ...] = CAE_TWINS, name: str = NAME) -> list[str]:
    return [str(p) for p in check_source(text, name, twins)]


# --- src/miniagent ----------------------------------------------------------------------------


def test_every_citation_in_src_miniagent_holds():
    found = check_sources(ROOT / "src" / "miniagent", ROOT)
    assert not found, f"{len(found)} citations do not hold:\n" + "\n".join(map(str, found))


def test_src_miniagent_has_citations_to_check():
    """Guard against a scanner that silently finds nothing."""
    count = 0
    for path in (ROOT / "src" / "miniagent").rglob("*.py"):
        prose = source_prose(path.read_text(encoding="utf-8"))
        count += sum(len(line_citations(line)) for _, line in prose)
    assert count >= 600


# --- what is read -----------------------------------------------------------------------------


def test_docstrings_and_comments_are_read_code_strings_are_not():
    text = (
        '"""Module (a.py:1)."""\n'
        "X = 1  # b.py:2\n"
        '"""Under X (c.py:3)."""\n'
        'msg = "d.py:4"\n'
        "def f():\n"
        '    """One,\n'
        '    two (e.py:5)."""\n'
        '    return f"f.py:{6}", "g.py:7"\n'
    )
    cited = [m.group(0) for _, line in source_prose(text) for m, _ in line_citations(line)]
    assert cited == ["a.py:1", "b.py:2", "c.py:3", "e.py:5"]
    assert [n for n, line in source_prose(text) if "e.py:5" in line] == [7]


def test_owners_are_the_first_paragraph_of_a_docstring_and_assignments():
    text = (
        "class C:\n"
        '    """Summary,\n'
        "    still the summary.\n"
        "\n"
        '    Details."""\n'
        "    def m(self):\n"
        '        """M."""\n'
        "        y = 2  # a local: no owner\n"
        "X = 1  # comment\n"
        '"""About X."""\n'
    )
    assert owners(text) == {2: "C", 3: "C", 7: "C.m", 9: "X", 10: "X"}


def test_the_architecture_map_gives_each_module_its_twins():
    twins = upstream_twins("miniagent/runnables/base.py", ARCHITECTURE)
    assert "langchain_core/runnables/base.py" in twins
    assert "langchain_core/runnables/config.py" in twins  # `config.py` after a full path
    assert upstream_twins("miniagent/tools/schema.py", ARCHITECTURE)[0] == "langchain_core/tools/"
    assert "langchain_core/messages/human.py" in upstream_twins(
        "miniagent/messages/human.py", ARCHITECTURE
    )
    assert upstream_twins("miniagent/demo.py", ARCHITECTURE) == ()


# --- the checker fails ------------------------------------------------------------------------


def test_a_blank_line_fails():
    found = problems('"""Mirrors ``Command`` (langgraph/types.py:838)."""\n')
    assert len(found) == 1
    assert found[0].startswith(f"{NAME}:1: 'langgraph/types.py:838': ")
    assert "langgraph/types.py:838 is a blank line in langgraph 1.2.24" in found[0]


def test_a_line_past_the_end_fails():
    found = problems("# see chat_agent_executor.py:99999\n")
    assert len(found) == 1 and "line 99999-99999 is outside 1-1015" in found[0]


def test_a_line_holding_other_code_fails():
    # a docstring's summary cites its own object's twin
    text = 'def _get_prompt_runnable(prompt):\n    """Prompt -> Runnable (l.138)."""\n'
    found = problems(text)
    assert len(found) == 1
    assert "documents `_get_prompt_runnable`, whose twin starts at" in found[0]
    assert "chat_agent_executor.py:137" in found[0]
    assert problems(text.replace("l.138", "l.137")) == []
    # elsewhere, a backticked name or fragment before the citation, as on a page
    assert "starts at" in problems("# `_get_state_value` (chat_agent_executor.py:130)\n")[0]
    fragment = '# `remaining_steps = _get_state_value(state, "remaining_steps", None)` (l.628)\n'
    assert "is not on langgraph/prebuilt/chat_agent_executor.py:628" in problems(fragment)[0]
    assert problems(fragment.replace("l.628", "l.627")) == []


def test_an_unknown_file_fails():
    found = problems("# chat_agent_executer.py:137 and pregel/nosuch.py:3\n")
    assert len(found) == 2
    assert "chat_agent_executer.py: no such file in the pinned packages" in found[0]
    assert "pregel/nosuch.py: no such file" in found[1]


def test_every_failure_is_reported_with_where_and_why():
    text = '"""a (langgraph/types.py:838), b (chat_agent_executor.py:99999).\n\n(nope.py:1)"""\n'
    found = problems(text)
    assert [f.split(": ", 2)[:2] for f in found] == [
        [f"{NAME}:1", "'langgraph/types.py:838'"],
        [f"{NAME}:1", "'chat_agent_executor.py:99999'"],
        [f"{NAME}:3", "'nope.py:1'"],
    ]


# --- the checker passes -----------------------------------------------------------------------


def test_the_summary_names_the_object_not_its_backticked_words():
    text = (
        "class AgentMiddleware:\n"
        "    async def abefore_agent(self, state, runtime):\n"
        '        """Async ``before_agent`` (types.py:444)."""\n'
    )
    twins = ("langchain/agents/middleware/types.py",)
    name = "src/miniagent/agents/middleware/types.py"
    assert problems(text, twins, name) == []
    assert (
        "starts at langchain/agents/middleware/types.py:444"
        in (problems(text.replace(":444", ":433"), twins, name)[0])
    )
    # a helper of the miniature's own: the line must exist and not be blank, nothing more
    helper = 'def _setup(x):\n    """``(a, b)`` (factory.py:1132-1160)."""\n'
    assert problems(helper, ("langchain/agents/factory.py",), "src/miniagent/agents/f.py") == []


def test_ambiguous_names_go_to_the_module_twins():
    text = '"""Mirrors ``Runnable`` (base.py:197) and ``ensure_config`` (config.py:255)."""\n'
    assert "base.py is ambiguous, write the path" in problems(text, ())[0]
    runnables = upstream_twins("miniagent/runnables/base.py", ARCHITECTURE)
    assert problems(text, runnables, "src/miniagent/runnables/base.py") == []
    # beside a twin: language_models/base.py for a module mirroring language_models/chat_models.py
    text = (
        'class BaseChatModel:\n    def _identifying_params(self):\n        """(base.py:430)."""\n'
    )
    models = upstream_twins("miniagent/models.py", ARCHITECTURE)
    assert problems(text, models, "src/miniagent/models.py") == []


def test_the_function_twin_picks_among_files_beside_the_twins():
    twins = upstream_twins("miniagent/openai/chat_models/base.py", ARCHITECTURE)
    name = "src/miniagent/openai/chat_models/base.py"
    text = 'def _convert_from_v1_to_chat_completions(m):\n    """V1 (_compat.py:169)."""\n'
    assert problems(text, twins, name) == []
    unknown = text.replace("_convert_from_v1_to_chat_completions", "_mine")
    assert "_compat.py is ambiguous" in problems(unknown, twins, name)[0]


def test_bare_line_numbers_follow_the_last_file_named():
    # at first the twin with the module's file name; then the file named last
    text = (
        '"""``call_model`` (l.661).\n\n'
        "``ensure_config`` (langchain_core/runnables/config.py:255), ``patch_config`` (l.357).\n"
        '"""\n'
    )
    assert problems(text) == []
    found = problems(text.replace("l.357", "l.661"))
    assert "`patch_config` starts at langchain_core/runnables/config.py:357" in found[0]


def test_files_outside_the_pinned_wheels_are_not_checked():
    text = (
        "# langgraph/checkpoint/memory/__init__.py:99999, then l.99999\n"
        "# langgraph-prebuilt's tests/model.py:99999\n"
    )
    assert problems(text) == []
    # a partial path in a twin folder
    twins = upstream_twins("miniagent/checkpoint.py", ARCHITECTURE)
    assert twins == ("langgraph/checkpoint/memory/",)
    assert problems("# memory/__init__.py:99999\n", twins, "src/miniagent/checkpoint.py") == []
    assert "no such file" in problems("# memory/__init__.py:99999\n")[0]
