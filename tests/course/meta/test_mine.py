"""Your agent (``miniagent mine``): the recorded scenarios are upstream's, miniagent passes them,
and an agent assembled from the reference solutions passes them too; a wrong day is named."""

from __future__ import annotations

import contextlib
import subprocess
import sys

import pytest

from miniagent_course.grading.course import load_course, pristine_stub
from miniagent_course.grading.recording import as_recorded
from miniagent_course.mine import all_scenarios, check, record, recorded, scenarios_of
from miniagent_course.mine.loop import check_loop, declared_loop
from miniagent_course.mine.scenarios import AGENT_SCENARIOS
from miniagent_course.sides import mini

from .conftest import REPO, solved_source

COURSE = load_course(REPO)
SCENARIOS = scenarios_of(COURSE)  # scenarios.py's, then the kits' ([[mine.scenarios]])
LOOP = declared_loop(COURSE)  # Day 03's [mine.loop]
LOOP_SCRIPTS = list(LOOP.scripts)

FIRST_CALL_ONLY = (
    "for call in response.tool_calls:",
    "for call in response.tool_calls[:1]:",
)
OR_DEFAULT = (
    "return state.get(key, default) if isinstance(state, dict) else getattr(state, key, default)",
    "return (state.get(key) if isinstance(state, dict) else getattr(state, key, None)) or default",
)


def test_the_recording_is_upstreams_own_result():
    pytest.importorskip("langgraph")
    assert record() == recorded(), (
        "a scenario changed: python -m miniagent_course.grading.recording mine"
    )


def test_the_kits_add_their_scenarios_after_the_engines():
    names = list(all_scenarios(COURSE))
    streamed = [n for n in names if n.startswith("messages stream: ")]  # Day 12's kit.toml
    assert len(streamed) == 4 and names[-len(AGENT_SCENARIOS) - 4 :][:4] == streamed
    assert list(recorded()) == names  # react.json records them in the order `mine` runs them


@pytest.mark.parametrize("name", list(all_scenarios(COURSE)))
def test_miniagent_behaves_as_recorded(name):
    scenario, _ = all_scenarios(COURSE)[name]
    assert as_recorded(scenario(mini())) == recorded()[name]


@contextlib.contextmanager
def _solved(course, **edits):
    """Every exercise solved by the reference (``edits``: {day: (old, new)} applied after)."""
    originals = {}
    for exercise in course.exercises:
        path = course.root / exercise.file
        originals[path] = path.read_text(encoding="utf-8")
        source = solved_source(exercise, pristine_stub(course, exercise))
        if exercise.id in edits:
            old, new = edits[exercise.id]
            assert old in source
            source = source.replace(old, new)
        path.write_text(source, encoding="utf-8")
    try:
        yield
    finally:
        for path, text in originals.items():
            path.write_text(text, encoding="utf-8")


def test_an_agent_of_reference_solutions_passes_every_scenario(workspace):
    with _solved(workspace):
        report = check(workspace)
    assert report.yours.not_started == [] and report.yours.broken == {}
    assert "day03" not in report.yours.functions  # the loop replaces the graph: checked apart
    assert report.failed == {} and len(report.passed) == len(SCENARIOS)


def test_a_stub_day_runs_on_miniagents_function_and_a_wrong_day_is_named(workspace):
    with _solved(workspace):
        day00 = workspace.root / workspace.exercise("day00").file
        day00.write_text(pristine_stub(workspace, workspace.exercise("day00")), encoding="utf-8")
        reverted = check(workspace)
    assert reverted.yours.not_started == ["day00"] and "day00" not in reverted.yours.functions
    assert reverted.failed == {}  # the rest is yours, day00 is miniagent's: all pass
    with _solved(workspace, day00=OR_DEFAULT):
        wrong = check(workspace)
    assert wrong.failed and all(days == ["day00"] for days in wrong.failed.values())


REPR_TO_STR = ("error=repr(e)", "error=str(e)")


def test_your_tool_error_text_is_the_tool_nodes_and_a_wrong_one_is_named(workspace):
    with _solved(workspace, day11=REPR_TO_STR):
        wrong = check(workspace)
    assert sorted(wrong.yours.functions["day11"]) == ["_handle_tool_error", "_infer_handled_types"]
    assert wrong.failed == {"handle_tool_errors=True": ["day11"]}


FORGETS_SENT_IDS = ("self.seen.add(message.id)", "pass")


def test_your_stream_handler_streams_your_agent_and_a_wrong_one_is_named(workspace):
    with _solved(workspace, day12=FORGETS_SENT_IDS):
        wrong = check(workspace)
    assert "_emit" in wrong.yours.functions["day12"]  # methods of StreamMessagesHandler
    assert "messages stream: a tool round" in wrong.failed
    assert all(days == ["day12"] for days in wrong.failed.values())


APPEND_ON_KNOWN_ID = ("merged[existing_idx] = m", "merged.append(m)")


def test_your_add_messages_is_the_agents_reducer_and_a_wrong_one_is_named(workspace):
    with _solved(workspace, day01=APPEND_ON_KNOWN_ID):
        wrong = check(workspace)
    assert list(wrong.yours.functions["day01"]) == ["add_messages"]  # predictions are not a piece
    assert "a reply that reuses an id" in wrong.failed
    assert all(days == ["day01"] for days in wrong.failed.values())


def test_the_command_prints_whose_functions_the_demo_and_the_score(workspace):
    with _solved(workspace, day00=OR_DEFAULT):
        done = subprocess.run(
            [sys.executable, "-m", "miniagent_course.cli", "--root", str(workspace.root), "mine"],
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=300,
        )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "day00  yours: _get_state_value" in done.stdout
    assert "The path through the graph" in done.stdout  # the demo ran on the learner's agent
    assert f"of {len(SCENARIOS)} scenarios behave exactly as upstream's" in done.stdout
    assert "revisit day00" in done.stdout
    n = len(LOOP_SCRIPTS)  # after the K of N line: the learner's Day 03 loop, on its own scripts
    assert f"your loop (day03): {n} of {n} scripts end as create_react_agent does" in done.stdout


@pytest.mark.parametrize("name", LOOP_SCRIPTS)
def test_the_reference_loop_ends_each_script_as_recorded(name):
    assert as_recorded(LOOP.run(mini(), name, None)) == LOOP.recording.recorded()[name]


def test_your_loop_is_checked_apart_and_a_wrong_one_is_caught(workspace):
    stub = check_loop(workspace)
    assert (stub.day, stub.state, stub.total) == ("day03", "not_started", 0)
    with _solved(workspace):
        solved = check_loop(workspace)
    assert solved.state == "yours" and solved.failed == []
    assert solved.passed == LOOP_SCRIPTS
    with _solved(workspace, day03=FIRST_CALL_ONLY):
        wrong = check_loop(workspace)
    assert wrong.state == "yours" and wrong.failed == [
        "parallel_calls",
        "raises_beside_a_good_call",
    ]


INNER_FIRST = (
    "composed_handler = compose_two(handlers[-2], handlers[-1])",
    "composed_handler = compose_two(handlers[-1], handlers[-2])",
)


def test_your_onion_builds_your_create_agent_and_a_wrong_one_is_named(workspace):
    with _solved(workspace):
        right = check(workspace, AGENT_SCENARIOS)
    assert right.failed == {} and len(right.passed) == len(AGENT_SCENARIOS)
    with _solved(workspace, day13=INNER_FIRST):
        wrong = check(workspace, AGENT_SCENARIOS)
    assert wrong.failed and all(days == ["day13"] for days in wrong.failed.values())
