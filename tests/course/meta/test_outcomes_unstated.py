"""No row of a sealed prediction table is answered before the table (issue #22).

A predict day's page asks for the table in its "Your turn" and sends the learner on only after it
is saved, and its notebook's table cell comes before the sections that run the table's cases. So
the page up to "Your turn" (as the site renders it: prose, tables, code blocks and their outputs)
and the notebook's cells before its table cell must not give a row's real outcome. Found here,
mechanically, against the real answers (the reference of the day's Think function):

* a row's outcome as Python prints it (``repr``), the same with double quotes, or as JSON, when it
  is distinctive: at least ``DISTINCT`` characters once whitespace is collapsed (a short outcome,
  ``'raises'`` or ``[]``, is also ordinary prose or code);
* a row's key (``default_value_error``) on the same line as its outcome in any of those forms,
  however short, or as a bare word when the outcome is a string (``raises``).

Not found: an outcome told in words ("bad arguments go back to the model"), or printed in another
shape. That part is a reading (issue #22's review found such leaks on Days 05, 11, 12 and 15; their
pages moved them after "Your turn"); a check of prose against meanings would be flaky, so there is
none. The planted tests below prove each detection, and that a wrong value or a place after the
table is not reported.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from miniagent_course.grading.course import Exercise, import_target, load_course

from . import think_answers as think

COURSE = load_course(think.ROOT)
TABLE_KINDS = ("predict", "read")  # a table of outcomes, sealed until the first try
TABLE_DAYS = [e.id for e in COURSE.exercises if e.judgment and e.judgment.kind in TABLE_KINDS]
DISTINCT = 16  # characters: a printed outcome this long does not occur by chance
COMMIT = 'id="your-turn"'  # the page's "Your turn" heading: write the table, then read on
TABLE_CELL = "your_table("  # the notebook's table cell


def answers(exercise: Exercise) -> dict[str, Any]:
    """The real table: the reference of the day's Think function, called."""
    name = exercise.judgment.function
    function = next(f for f in exercise.functions if f.name == name)
    return import_target(function.reference)()


def _jsonable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def printed_forms(value: Any) -> set[str]:
    """How a page or a cell would print ``value``: its repr, with double quotes, as JSON."""
    forms = {repr(value), repr(value).replace("'", '"')}
    try:
        forms.add(json.dumps(_jsonable(value), ensure_ascii=False))
    except (TypeError, ValueError):  # not JSON: the repr forms are enough
        pass
    return {squeeze(form) for form in forms}


@dataclass(frozen=True)
class Stated:
    where: str  # "course/days/day11-tool-node.md, before Your turn"
    case: str
    how: str  # "its outcome printed" / "its key and outcome on one line"
    text: str  # the line it was found on, shortened

    def __str__(self) -> str:
        return f"{self.where}: row {self.case!r}, {self.how}: {self.text}"


def _key_pattern(case: str) -> re.Pattern[str] | None:
    """A case key that names its row and nothing else (not "2", a number in any prose)."""
    if len(case) < 4 or not re.search(r"[A-Za-z]", case):
        return None
    return re.compile(rf"(?<![\w]){re.escape(case)}(?![\w])")


def stated(where: str, text: str, table: dict[str, Any]) -> Iterator[Stated]:
    """Every row of ``table`` whose outcome ``text`` states, as this module can tell."""
    lines = [squeeze(line) for line in text.splitlines()]
    whole = squeeze(text)
    for case, value in table.items():
        forms = printed_forms(value)
        for form in sorted(f for f in forms if len(f) >= DISTINCT):
            if form in whole:
                line = next((ln for ln in lines if form in ln), form)
                yield Stated(where, case, "its outcome printed", line[:160])
                break
        else:
            key = _key_pattern(case)
            if key is None:
                continue
            bare = (
                re.compile(rf"(?<![\w]){re.escape(value)}(?![\w])")
                if isinstance(value, str)
                else None
            )
            for line in lines:
                if not key.search(line):
                    continue
                if any(form in line for form in forms) or (bare and bare.search(line)):
                    yield Stated(where, case, "its key and outcome on one line", line[:160])
                    break


def page_before_table(exercise: Exercise, text: str | None = None) -> str:
    """The day's page as the site renders it, up to its "Your turn", as text."""
    page = exercise.lesson
    source = (think.ROOT / page).read_text(encoding="utf-8") if text is None else text
    rendered = think.render_page(source, page)
    cut = rendered.find(COMMIT)
    assert cut >= 0, f"{page}: no 'Your turn' heading, where the table is asked for"
    without_tags = re.sub(r"<[^>]+>", " ", rendered[:cut])
    return html.unescape(without_tags)


def notebook_before_table(exercise: Exercise, path: Path | None = None) -> str:
    """The sources of the day's notebook cells before its table cell."""
    notebook = path or think.ROOT / exercise.notebook
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    sources = ["".join(cell.get("source", [])) for cell in cells]
    table = next(
        (
            i
            for i, cell in enumerate(cells)
            if cell["cell_type"] == "code" and TABLE_CELL in sources[i]
        ),
        None,
    )
    assert table is not None, f"{notebook.name}: no table cell ({TABLE_CELL}...)"
    return "\n".join(sources[:table])


def leaks(exercise: Exercise, table: dict[str, Any], page: str | None = None, notebook=None):
    return [
        *stated(f"{exercise.lesson}, before Your turn", page_before_table(exercise, page), table),
        *stated(
            f"{exercise.notebook}, before the table cell",
            notebook_before_table(exercise, notebook),
            table,
        ),
    ]


@pytest.mark.parametrize("day", TABLE_DAYS)
def test_no_row_is_answered_before_the_table(day):
    exercise = COURSE.exercise(day)
    found = leaks(exercise, answers(exercise))
    assert not found, f"{day}: a row's outcome comes before its table:\n" + "\n".join(
        f"  {s}" for s in found
    )


def test_the_prediction_days_are_found():
    assert {"day05", "day11", "day12", "day15"} <= set(TABLE_DAYS)


# --- the check can fail: planted outcomes are found, and only before the table ---------------


def _page(before: str, after: str = "") -> str:
    return f"# A planted page\n\n{before}\n\n## Your turn\n\n{after}\n\n## What comes next\n"


def test_a_printed_outcome_before_your_turn_is_found_and_after_it_is_not():
    exercise = COURSE.exercise("day05")
    table = answers(exercise)
    printed = f"```text\n{table['function']!r}\n```"
    assert [s.case for s in leaks(exercise, table, page=_page(printed))] == ["function"]
    assert leaks(exercise, table, page=_page("Nothing here.", after=printed)) == []


def test_a_key_beside_its_short_outcome_is_found_and_a_wrong_outcome_is_not():
    exercise = COURSE.exercise("day11")
    table = answers(exercise)
    right = table["default_value_error"]
    wrong = next(v for v in set(table.values()) if v != right)
    found = leaks(exercise, table, page=_page(f'`default_value_error`: `"{right}"`'))
    assert [(s.case, s.how) for s in found] == [
        ("default_value_error", "its key and outcome on one line")
    ]
    assert leaks(exercise, table, page=_page(f'`default_value_error`: `"{wrong}"`')) == []
    found = leaks(
        exercise, table, page=_page(f"With the default policy `default_value_error` {right}.")
    )
    assert [s.case for s in found] == ["default_value_error"]
    # a short outcome alone, without its key, is ordinary prose
    assert leaks(exercise, table, page=_page(f'It returns `"{right}"`.')) == []


def test_a_cell_before_the_table_cell_is_read_and_a_cell_after_it_is_not(tmp_path):
    exercise = COURSE.exercise("day15")
    table = answers(exercise)
    outcome = f"print({table['refused']!r})"
    cells = [
        {"cell_type": "code", "source": [outcome]},
        {"cell_type": "code", "source": ['your_table("day15")']},
        {"cell_type": "code", "source": [outcome]},
    ]
    path = tmp_path / "planted.ipynb"
    path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    found = leaks(exercise, table, page=_page("Nothing here."), notebook=path)
    assert [(s.where, s.case) for s in found] == [
        (f"{exercise.notebook}, before the table cell", "refused")
    ]
    json_form = json.dumps(_jsonable(table["refused"]))  # JSON, in a Markdown cell
    cells[0] = {"cell_type": "markdown", "source": [f"The run gives {json_form}."]}
    path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    assert [s.case for s in leaks(exercise, table, page=_page("-"), notebook=path)] == ["refused"]


def test_the_page_is_read_as_the_site_renders_it():
    """A table or a code block counts as much as prose; the page's own fences are expanded."""
    exercise = COURSE.exercise("day12")
    table = answers(exercise)
    row = json.dumps(_jsonable(table["nostream_no_tools"]))
    markdown = f"| run | the client sees |\n| --- | --- |\n| a run | `{row}` |"
    found = leaks(exercise, table, page=_page(markdown))
    assert [s.case for s in found] == ["nostream_no_tools"]
