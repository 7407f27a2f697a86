"""Every upstream citation in course/ resolves against the pinned packages (the `upstream` extra).

The checker itself is tested below on small pages with right and wrong citations, so a checker
that accepts everything would fail here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("langgraph.prebuilt")

from miniagent_course.site import upstream as site_upstream  # noqa: E402
from miniagent_course.site.citations import check_pages, check_text, split_page  # noqa: E402
from miniagent_course.site.fences import mini_excerpt  # noqa: E402
from miniagent_course.site.upstream import (  # noqa: E402
    CitationError,
    UpstreamMissing,
    find_file,
    resolve,
)

ROOT = Path(__file__).resolve().parents[3]
CAE = "langgraph/prebuilt/chat_agent_executor.py"


def problems(text: str, project: Path = ROOT) -> list[str]:
    return [p.message for p in check_text(text, "page.md", project)]


# --- the course -------------------------------------------------------------------------------


def test_every_citation_in_course_resolves():
    found = check_pages(ROOT / "course", ROOT)
    assert not found, "\n".join(map(str, found))


def test_the_course_has_citations_to_check():
    """Guard against a scanner that silently finds nothing."""
    text = (ROOT / "course/days/day00-welcome.md").read_text(encoding="utf-8")
    prose, blocks = split_page(text)
    assert [b.kind for b in blocks].count("upstream") >= 1
    assert [b.kind for b in blocks].count("mini") >= 1
    assert sum("l.6" in line for _, line in prose) >= 2


# --- resolving symbols ------------------------------------------------------------------------


def test_pinned_line_numbers_of_the_syllabus():
    starts = {
        "_get_state_value": 129,
        "_get_prompt_runnable": 137,
        "_should_bind_tools": 173,
        "_validate_chat_history": 243,
        "create_react_agent": 278,
        "create_react_agent._resolve_model": 599,
        "_are_more_steps_needed": 620,
        "_get_model_input_state": 636,
        "call_model": 661,
    }
    for name, line in starts.items():
        excerpt = resolve(f"{CAE}:{name}")
        assert excerpt.cite_line == line, name
        assert excerpt.source.lines[line - 1].lstrip().startswith("def "), name


def test_caption_names_distribution_version_path_and_line():
    excerpt = resolve(f"{CAE}:_get_prompt_runnable")
    assert excerpt.caption == f"langgraph-prebuilt 1.1.3 · {CAE}:137"
    assert excerpt.text.startswith("def _get_prompt_runnable(prompt: Prompt | None) -> Runnable:")


def test_decorators_are_shown_but_not_cited():
    excerpt = resolve(f"{CAE}:create_react_agent")
    assert (excerpt.first_line, excerpt.cite_line) == (274, 278)
    assert excerpt.text.startswith("@deprecated(")


def test_methods_nested_functions_and_overloads():
    assert resolve("langgraph/prebuilt/tool_node.py:ToolNode").symbol.kind == "class"
    method = resolve("langchain_core/runnables/base.py:RunnableSequence.invoke")
    assert method.source.lines[method.cite_line - 1].strip().startswith("def invoke(")
    # create_agent has three @overload stubs first; the implementation is the one shown
    impl = resolve("langchain/agents/factory.py:create_agent")
    before = impl.source.lines[impl.first_line - 2]
    assert "@overload" not in before and impl.end_line - impl.first_line > 100


def test_caption_of_part_of_a_symbol_names_the_lines_and_the_symbol():
    excerpt = resolve(f"{CAE}:create_react_agent")
    assert excerpt.caption_for(568, 590) == (
        f"langgraph-prebuilt 1.1.3 · {CAE}:568-590 (in create_react_agent, l.278)"
    )
    assert excerpt.caption_for(274, 300).endswith(f"{CAE}:278")


def test_line_range_caption():
    excerpt = resolve(f"{CAE}:568-590")
    assert excerpt.caption.endswith(f"{CAE}:568-590")
    assert excerpt.text.lstrip().startswith("if not is_dynamic_model:")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (f"{CAE}:_get_prompt_runnabel", "no symbol '_get_prompt_runnabel'"),
        (f"{CAE}:invoke", "no symbol 'invoke'"),
        ("langgraph/prebuilt/no_such_file.py:x", "no such file"),
        ("numpy/core.py:x", "not in a pinned upstream package"),
        (f"{CAE}:99999-100000", "outside"),
        (CAE, "expected"),
    ],
)
def test_bad_specs_are_rejected(spec, message):
    with pytest.raises(CitationError, match=message):
        resolve(spec)


def test_another_installed_version_is_rejected(monkeypatch):
    monkeypatch.setitem(site_upstream.UPSTREAM_VERSIONS, "langgraph-prebuilt", "0.0.1")
    with pytest.raises(CitationError, match="is installed but the course cites 0.0.1"):
        find_file(CAE)


def test_missing_extra_is_its_own_error(monkeypatch):
    monkeypatch.setattr(site_upstream, "_dist_files", lambda dist: None)
    with pytest.raises(UpstreamMissing, match=r'pip install -e "\.\[upstream\]"'):
        find_file(CAE)


# --- prose citations --------------------------------------------------------------------------


def test_a_wrong_line_number_fails():
    found = problems("`_get_prompt_runnable` (chat_agent_executor.py:138)\n")
    assert len(found) == 1
    assert "starts at langgraph/prebuilt/chat_agent_executor.py:137" in found[0]


def test_the_right_line_number_passes():
    assert problems("`_get_prompt_runnable` (chat_agent_executor.py:137)\n") == []
    assert (
        problems("`_get_prompt_runnable()` at langgraph/prebuilt/chat_agent_executor.py:137\n")
        == []
    )


def test_bare_l_citations_use_front_matter_or_the_last_file():
    page = f"---\nupstream: {CAE}\n---\n`_should_bind_tools` (l.173) and `_get_model` (l.221)\n"
    found = problems(page)
    assert len(found) == 1 and "'l.221'" in found[0] and ":220" in found[0]
    assert problems("`call_model` (chat_agent_executor.py:661), then `acall_model` (l.696)\n") == []
    # with front matter, a bare l.N stays on the page's file after another file is cited
    page = f"---\nupstream: {CAE}\n---\n`if name:` (factory.py:1510), `_get_model` (l.220)\n"
    assert problems(page) == []
    assert "no file for this line number" in problems("`call_model` (l.661)\n")[0]


def test_code_fragments_must_be_on_the_cited_line():
    good = '`remaining_steps = _get_state_value(state, "remaining_steps", None)` (chat_agent_executor.py:627)\n'
    assert problems(good) == []
    bad = good.replace(":627", ":628")
    assert "is not on langgraph/prebuilt/chat_agent_executor.py:628" in problems(bad)[0]


def test_ranges_and_plain_citations():
    assert problems("The static model: chat_agent_executor.py:568–590.\n") == []
    assert "outside" in problems("See chat_agent_executor.py:5000.\n")[0]
    assert problems("`if not is_dynamic_model:` (chat_agent_executor.py:568-590)\n") == []


def test_ambiguous_file_names_need_a_path():
    assert "ambiguous" in problems("`Runnable` (base.py:120)\n")[0]
    # tool_node.py exists in langgraph-prebuilt and langchain: the course's subject wins
    assert problems("`ToolNode` (tool_node.py:644)\n") == []


def test_code_blocks_and_non_upstream_paths_are_not_prose():
    page = "```python\n`_get_prompt_runnable` (chat_agent_executor.py:1)\n```\n"
    page += "Our copy: src/miniagent/prebuilt/chat_agent_executor.py:3\n"
    assert problems(page) == []


# --- directives -------------------------------------------------------------------------------


def test_upstream_blocks_are_checked_with_their_options():
    ok = f'```upstream lines="568-590" expect="if not is_dynamic_model:"\n{CAE}:create_react_agent\n```\n'
    assert problems(ok) == []
    drifted = ok.replace("568-590", "569-590")
    assert "expected it to start with" in problems(drifted)[0]
    outside = f'```upstream annotate="100"\n{CAE}:_get_state_value\n```\n'
    assert "outside the block 129-134" in problems(outside)[0]
    unknown = f'```upstream colour="red"\n{CAE}:_get_state_value\n```\n'
    assert "unknown option" in problems(unknown)[0]
    nested = f"````markdown\n```upstream\n{CAE}:nope\n```\n````\n"
    assert problems(nested) == []  # an example inside another block is not a directive


def test_mini_blocks_need_an_existing_section(tmp_path):
    src = tmp_path / "src" / "m.py"
    src.parent.mkdir()
    src.write_text(
        "x = 1\n# --8<-- [start:thing]\n\ndef thing():\n    return 1\n\n# --8<-- [end:thing]\n"
    )
    assert problems("```mini\nsrc/m.py:thing\n```\n", tmp_path) == []
    assert "no section 'other'" in problems("```mini\nsrc/m.py:other\n```\n", tmp_path)[0]
    assert "no file" in problems("```mini\nsrc/nope.py:thing\n```\n", tmp_path)[0]
    assert (
        "hl line 1 is outside the block 4-5"
        in problems('```mini hl="1"\nsrc/m.py:thing\n```\n', tmp_path)[0]
    )
    assert (
        mini_excerpt("src/m.py:thing", tmp_path)[1] == 4
    )  # blank edge lines trimmed, numbers kept
