"""Nothing printed passes the Think part (issue #22, acceptance).

For every day, every code block a learner is shown -- the day's page as the site renders it, every
cell of its notebook, its stub -- is tried as the learner's answer to the day's Think part, as
written and after mechanical adaptation (renamed to the graded name, mapped by keyword, the
``miniagent`` imports a learner would add), in an exercise whose Rebuild part is the reference,
graded by the day's judgment graders only (``think_answers.py`` says how). None may pass.

The planted tests prove the search can fail: a right answer written into a page, a notebook or a
block in another shape is found, by the adaptation that makes it right.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import textwrap

import pytest

from miniagent_course.grading.course import import_target, load_course

from . import think_answers as think

COURSE = load_course(think.ROOT)
DAYS = [exercise.id for exercise in COURSE.exercises]


@pytest.mark.parametrize("day", DAYS)
def test_nothing_printed_passes_the_think_part(day, tmp_path):
    exercise = COURSE.exercise(day)
    part = think.think_part(COURSE, exercise)
    found = think.harvest(part, think.shown_blocks(exercise), tmp_path)
    assert found.blocks and found.candidates, f"{day}: nothing was tried"
    if found.leaks:
        pytest.fail(
            f"{day}: the Think part ({part.kind}) passes with code the course prints:\n"
            + "\n".join(f"  {leak}" for leak in found.leaks),
            pytrace=False,
        )


# --- the search can fail: planted answers are found -----------------------------------------


def _page(*blocks: str) -> str:
    """A page of Markdown holding each block as a ```python fence, in prose."""
    fences = [f"Some prose.\n\n```python\n{textwrap.dedent(b).strip()}\n```\n" for b in blocks]
    return "# A planted page\n\n" + "\n".join(fences)


def _leaks(day: str, blocks: list[think.Block], folder) -> list[think.Leak]:
    part = think.think_part(COURSE, COURSE.exercise(day))
    return think.harvest(part, blocks, folder).leaks


def _true_table(day: str) -> dict:
    """The day's real answers, from the reference the engine finds (its kit's instructor/)."""
    exercise = COURSE.exercise(day)
    function = next(f for f in exercise.functions if f.name == exercise.judgment.function)
    return import_target(function.reference)()


def test_a_table_printed_on_a_page_or_in_a_notebook_is_found(tmp_path):
    exercise = COURSE.exercise("day08")
    page = _page(
        f"answers = {_true_table('day08')!r}",
        """
        def what_the_node_does():
            from miniagent_course.kits.day08 import cases

            return {key: cases.what_call_model_does(key) for key in cases.SITUATIONS}
        """,
        "print({'async_model_ainvoke': (6, 'hi', None)})",  # a dict, but not the table
        """
        from miniagent_course.kits.day08.cases import SITUATIONS, observe


        def every_situation(lib):
            return {key: observe(lib, key) for key in SITUATIONS}
        """,
    )
    # a notebook: its second cell binds the graded name from what the first imported
    cells = [
        "from miniagent_course.kits.day08.cases import SITUATIONS, what_call_model_does as node",
        "predictions = lambda: dict(zip(SITUATIONS, map(node, SITUATIONS)))",
    ]
    notebook = {"cells": [{"cell_type": "code", "source": [cell]} for cell in cells]}
    (tmp_path / "planted.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    planted = dataclasses.replace(exercise, notebook="planted.ipynb")
    blocks = [*think.page_blocks(exercise, text=page), *think.notebook_blocks(planted, tmp_path)]
    found = {
        (leak.where.rpartition(", ")[2], leak.how) for leak in _leaks("day08", blocks, tmp_path)
    }
    assert found == {
        ("code block 1 (python)", "the dict `answers` as the table"),
        ("code block 2 (python)", "function `what_the_node_does` as `predictions`"),
        (
            "code block 4 (python)",
            "function `every_situation` called with miniagent's side as `predictions`",
        ),
        ("cell 2 (code)", "as written"),
    }


def test_a_policy_with_its_arguments_in_another_order_is_found_mapped_by_keyword(tmp_path):
    exercise = COURSE.exercise("day10")
    page = _page(
        """
        from miniagent_course.kits.day10.instructor.answers import choose_model as policy


        def route(runtime, state, *, strong, cheap):
            assert not isinstance(state, RemoveMessage)  # a name the stub does not import
            return policy(state, runtime, cheap=cheap, strong=strong)
        """
    )
    leaks = _leaks("day10", think.page_blocks(exercise, text=page), tmp_path)
    assert [leak.how for leak in leaks] == ["function `route` as `choose_model`, mapped by keyword"]


def test_the_tests_a_page_or_a_notebook_prints_are_found_for_a_be_the_grader_day(tmp_path):
    exercise = COURSE.exercise("day00")
    judgment = exercise.judgment
    reference = (think.ROOT / judgment.reference).read_text(encoding="utf-8")
    page = _page(reference)  # the reference tests, printed on the page
    # a notebook cell: the same checks as statements that call the function by its name
    tree = ast.parse(reference)
    setup = [n for n in tree.body if not isinstance(n, ast.FunctionDef)]
    checks = [s for n in tree.body if isinstance(n, ast.FunctionDef) for s in n.body]
    cell = ast.unparse(ast.Module([*setup, *checks], [])).replace("get(", "_get_state_value(")
    notebook = {"cells": [{"cell_type": "code", "source": cell.splitlines(keepends=True)}]}
    (tmp_path / "planted.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    planted = dataclasses.replace(exercise, notebook="planted.ipynb")
    blocks = [*think.page_blocks(exercise, text=page), *think.notebook_blocks(planted, tmp_path)]
    found = {(leak.where, leak.how) for leak in _leaks("day00", blocks, tmp_path)}
    assert found == {
        (
            f"{exercise.lesson}, code block 1 (python)",
            "as written (its tests that pass on the correct function)",
        ),
        (
            f"{exercise.lesson}, code block 1 (python)",
            "its functions as tests of the function (those that pass on the correct one)",
        ),
        ("planted.ipynb, cell 1 (code)", "the whole block as one test"),
    }


def test_a_wrong_table_and_a_stub_pass_nothing(tmp_path):
    wrong = dict(_true_table("day08"))
    key = next(iter(wrong))
    wrong[key] = (6, "not what it says", None)
    exercise = COURSE.exercise("day08")
    blocks = [
        *think.page_blocks(exercise, text=_page(f"t = {wrong!r}")),
        *think.stub_blocks(exercise),
    ]
    assert _leaks("day08", blocks, tmp_path) == []


# --- what a learner is shown, read as the site shows it -------------------------------------


def test_a_page_block_is_the_code_the_site_renders_from_its_fences_and_includes():
    exercise = COURSE.exercise("day00")
    page = (
        "# Fences\n\n```upstream\nlanggraph/prebuilt/chat_agent_executor.py:_get_state_value\n"
        '```\n\n```python\n--8<-- "src/miniagent/prebuilt/chat_agent_executor.py:get_state_value"'
        "\n```\n\n```pycon\n>>> 1 + 1\n2\n```\n\n```bash\nminiagent check day00\n```\n"
    )
    blocks = think.page_blocks(exercise, text=page)
    assert [b.where.rpartition(", ")[2] for b in blocks] == [
        "code block 1 (python)",
        "code block 2 (python)",
        "code block 3 (pycon)",
    ]
    upstream, mini, session = (b.code for b in blocks)
    assert upstream.startswith("def _get_state_value(") and "661" not in upstream  # no numbers
    assert mini.startswith("def _get_state_value(") and "--8<--" not in mini
    assert session.strip() == "1 + 1"


def test_the_stub_shows_its_examples_and_the_code_in_its_comments():
    blocks = think.stub_blocks(COURSE.exercise("day00"))
    where = [b.where.partition(", ")[2] or b.where for b in blocks]
    assert where[0].endswith("(the whole stub)")
    examples = next(b for b in blocks if "examples in _get_state_value" in b.where)
    assert examples.code == '_get_state_value({"messages": []}, "remaining_steps", 25)'
    commented = next(b for b in blocks if "code in a comment" in b.where)
    assert commented.code.startswith("def test_a_dict_gives_its_value(get):")


def test_the_think_graders_are_found_in_each_kind():
    def names(day):
        return [name for name, _ in think.think_part(COURSE, COURSE.exercise(day)).tests]

    assert names("day08") == [
        "test_predictions_are_a_table_of_the_ten_situations",
        "test_prediction",
    ]
    assert names("day00") == [
        "test_your_tests_pass_on_a_correct_function",
        "test_your_tests_catch_the_known_mistakes",
    ]
    day10 = names("day10")  # extend: every test that reads impl.choose_model, helpers too
    assert "test_choose_by_history_length" in day10  # through choose()
    assert "test_agent_routes_a_plain_tool_round_to_the_cheap_model" in day10  # routed_run()
    assert not any("resolve" in name or "static" in name for name in day10)


def test_keyword_mapping_hands_each_argument_to_its_name():
    def reference(state, runtime, *, cheap, strong):
        raise AssertionError

    def candidate(strong, runtime, state, extra=1, *, cheap):
        return (state, runtime, cheap, strong, extra)

    mapped = think.keyword_mapped(candidate, reference)
    assert inspect.signature(mapped) == inspect.signature(reference)
    assert mapped("s", "r", cheap="c", strong="S") == ("s", "r", "c", "S", 1)
    assert think.keyword_mapped(reference, reference) is None  # the same names: nothing to map


def test_a_name_a_block_uses_is_imported_from_miniagent():
    from miniagent.messages import RemoveMessage

    namespace: dict = {}
    think.add_imports(ast.parse("x = RemoveMessage(id='1')\nprint(len(x))"), namespace)
    assert namespace == {"RemoveMessage": RemoveMessage}
