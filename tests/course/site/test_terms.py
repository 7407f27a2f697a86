"""Every term is defined on or before its first use, or linked to where it is defined (terms.toml,
checked by terms.py on the built day pages), and no page refers to material a learner does not
have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from terms import Term, load_terms, missing_definitions, problems

ROOT = Path(__file__).resolve().parents[3]
GLOSSARY = ROOT / "course/glossary.md"

# the terms issue #22 names: each must stay in terms.toml
NAMED = [
    "channel", "thread", "FakeToolCallingModel", "content blocks", 'format="langchain-openai"',
    "StateGraph", "compile", "START, END", "Send", "ToolException", "MCP", "Runtime", "store",
    "writer", "previous", "callbacks", "RunnableParallel.get_name()", "wrap_tool_call",
    "GraphBubbleUp", "pending writes", "ToolRuntime", "Responses API",
]  # fmt: skip

# what a learner does not have: another repository's notes, a spec's sections, someone's disk
ELSEWHERE = [
    re.compile(r"\bspec\s*§|§\s*\d"),
    re.compile(r"\.\./shared/|\bshared/real-questions|real-questions\.md"),
    re.compile(r"(?<![\w.])/(?:work|home|Users|tmp/h\d)/"),
]
# a path in the repository that a learner's page names must exist (placeholders such as dayNN
# excepted; a path in the course package may be named from the package, grading/run.py)
REPO_PATH = re.compile(
    r"(?<![\w./-])((?:src|exercises|notebooks|tests|course|bench|grading)/[\w./-]*\w)"
)
MADE_BY_THE_COURSE = ("exercises/.backup/",)  # miniagent reset keeps the learner's file there


def test_the_terms_the_issue_names_are_listed():
    names = {t.name for t in load_terms()}
    assert not [n for n in NAMED if n not in names]


def test_every_glossary_entry_is_a_term():
    anchors = re.findall(r"\{#([\w-]+)\}", GLOSSARY.read_text(encoding="utf-8"))
    defined = {at for t in load_terms() for at in t.at}
    missing = [a for a in anchors if f"glossary.md#{a}" not in defined]
    assert not missing, f"add these glossary entries to tests/course/site/terms.toml: {missing}"


def _site(tmp_path: Path, pages: dict[str, str]) -> Path:
    for name, body in pages.items():
        file = tmp_path / name
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(
            f'<html><article class="md-content__inner md-typeset">{body}</article></html>',
            encoding="utf-8",
        )
    return tmp_path


def _term(at: str) -> Term:
    return Term("widget", [at], prose=[re.compile(r"\bwidgets?\b", re.I)])


def test_the_check_finds_a_use_before_its_definition(tmp_path):
    site = _site(
        tmp_path,
        {
            "glossary.html": '<dl><dt id="widget">Widget</dt></dl>',
            "days/day00-a.html": "<p>nothing yet</p>",
            "days/day01-b.html": "<p>a widget here</p>",
        },
    )
    assert problems(site, [_term("glossary.md#widget")])  # used, never linked
    assert not missing_definitions([_term("glossary.md#widget")], site)
    assert missing_definitions([_term("glossary.md#gadget")], site)
    assert missing_definitions([_term("nowhere.md#widget")], site)


def test_a_link_an_earlier_page_or_an_earlier_anchor_defines_it(tmp_path):
    linked = {"days/day00-a.html": '<p>a <a href="../glossary.html#widget">widget</a></p>'}
    assert not problems(_site(tmp_path / "1", linked), [_term("glossary.md#widget")])
    earlier = {
        "days/day00-a.html": '<h2 id="w">Widgets</h2>',
        "days/day01-b.html": "<p>a widget</p>",
    }
    assert not problems(_site(tmp_path / "2", earlier), [_term("days/day00-a.md#w")])
    same = {"days/day00-a.html": '<h2 id="w">Parts</h2><p>a widget</p>'}
    assert not problems(_site(tmp_path / "3", same), [_term("days/day00-a.md#w")])
    late = {"days/day00-a.html": '<p>a widget</p><h2 id="w">Parts</h2>'}
    assert problems(_site(tmp_path / "4", late), [_term("days/day00-a.md#w")])
    in_code = {"days/day00-a.html": "<pre><code>widget = 1</code></pre>"}
    assert not problems(_site(tmp_path / "5", in_code), [_term("glossary.md#widget")])


@pytest.mark.timeout(600)  # the first use builds the site
def test_every_definition_exists(built_site):
    assert not missing_definitions(load_terms(), built_site)


@pytest.mark.timeout(600)
def test_every_term_is_defined_on_or_before_its_first_use(built_site):
    found = problems(built_site)
    assert not found, "\n".join(found)


def elsewhere(text: str, paths: bool = True) -> list[str]:
    """What a page's text refers to that a learner does not have (with ``paths``: also the
    repository paths it names that do not exist)."""
    wrong = [m.group(0) for pattern in ELSEWHERE for m in pattern.finditer(text)]
    for m in REPO_PATH.finditer(text) if paths else ():
        path = m.group(1).rstrip(".").split(":")[0]
        if re.search(r"NN|<|\*|\{|\.\.\.", path) or path.startswith(MADE_BY_THE_COURSE):
            continue  # a placeholder, or what a course command makes in the learner's folder
        if not any((base / path).exists() for base in (ROOT, ROOT / "src/miniagent_course")):
            wrong.append(path)
    return wrong


def test_the_reference_check_can_fail():
    assert elsewhere("as spec §3.6 says") == ["spec §"]
    assert elsewhere("see ../shared/real-questions.md") == ["../shared/", "real-questions.md"]
    assert elsewhere("open src/miniagent/nothing_here.py") == ["src/miniagent/nothing_here.py"]
    assert elsewhere("open src/miniagent/types.py and exercises/dayNN_x.py") == []
    assert elsewhere("see grading/inner/day15.py") == ["grading/inner/day15.py"]
    assert elsewhere("see grading/run.py:12 and src/...py") == []


@pytest.mark.timeout(600)
def test_no_page_refers_to_material_a_learner_does_not_have(built_site):
    wrong = {}
    for page in sorted(built_site.rglob("*.html")):
        name = page.relative_to(built_site).as_posix().removeprefix("zh/")  # the same rules
        if name.startswith(("assets/", "search/")):
            continue
        text = re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8"))
        # contributors' pages may name files they are about to write
        found = elsewhere(text, paths=not name.startswith("contributing/"))
        if found:
            wrong[name] = sorted(set(found))
    assert not wrong, wrong


def test_the_glossary_says_what_the_libraries_do():
    """The glossary entries the term check added, run: names, fields and the fake's replies."""
    import dataclasses

    from langchain_core.runnables import RunnableLambda, RunnableParallel
    from langgraph.errors import GraphBubbleUp, GraphInterrupt, ParentCommand
    from langgraph.prebuilt import ToolRuntime

    from miniagent.messages import HumanMessage
    from miniagent.runnables import RunnableLambda as MiniLambda
    from miniagent.testing import FakeToolCallingModel

    step = RunnableLambda(lambda x: x)
    assert RunnableParallel(a=step, b=step).get_name() == "RunnableParallel<a,b>"
    mini = MiniLambda(lambda x: x) | {"a": MiniLambda(lambda x: x), "b": lambda x: x}
    assert mini.steps[1].get_name() == "RunnableParallel<a,b>"
    assert issubclass(GraphInterrupt, GraphBubbleUp) and issubclass(ParentCommand, GraphBubbleUp)
    fields = {f.name for f in dataclasses.fields(ToolRuntime)}
    assert {"state", "context", "config", "stream_writer", "tool_call_id", "store"} <= fields
    call = {"name": "f", "args": {}, "id": "c1", "type": "tool_call"}
    model = FakeToolCallingModel(tool_calls=[[call], []])
    replies = [model.invoke([HumanMessage("a"), HumanMessage("b")]) for _ in range(3)]
    assert [r.id for r in replies] == ["0", "1", "2"]
    assert replies[0].content == "a-b"
    assert [len(r.tool_calls) for r in replies] == [1, 0, 1]
