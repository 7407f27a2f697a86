"""Every day is built to learn by building: a second part that needs judgment, and notebooks that
read like a lab notebook (a short first cell, a prediction in every section)."""

from __future__ import annotations

import json

import pytest

from miniagent_course.grading.judgments import KINDS

from .conftest import REPO

PREDICT_MARK = "predict"  # a section's prediction cell says so ("Predict, then run")


def _code(cell):
    return "".join(cell["source"]) if cell["cell_type"] == "code" else ""


def test_every_day_has_a_second_part_of_a_named_kind(course):
    for exercise in course.exercises:
        judgment = exercise.judgment
        assert judgment is not None, f"{exercise.id}: add [exercises.judgment] to course.toml"
        assert judgment.kind in KINDS, f"{exercise.id}: kind must be one of {sorted(KINDS)}"
        assert judgment.title.strip(), f"{exercise.id}: the second part needs a title"
        names = {f.name for f in exercise.functions}
        if judgment.kind == "grader":
            assert judgment.function in names and judgment.catch > 0 and judgment.reference
            assert (REPO / judgment.reference).is_file(), judgment.reference
            weak = [m for m in exercise.mutants if m.part == "judgment"]
            assert weak, f"{exercise.id}: add weak test suites that the judgment graders reject"
        else:
            assert judgment.function in names, f"{exercise.id}: which graded function is part 2?"


def _exercise_ids():
    from miniagent_course.grading.course import load_course

    return [e.id for e in load_course(REPO).exercises]


@pytest.mark.parametrize("exercise_id", _exercise_ids())
def test_notebooks_read_like_a_lab_notebook(course, exercise_id):
    exercise = course.exercise(exercise_id)
    cells = json.loads((REPO / exercise.notebook).read_text(encoding="utf-8"))["cells"]
    first = next(_code(c) for c in cells if c["cell_type"] == "code")
    assert len(first.strip().splitlines()) <= 15, f"{exercise.notebook}: first code cell > 15 lines"
    sections: list[list[dict]] = []
    for cell in cells:
        if cell["cell_type"] == "markdown" and "".join(cell["source"]).lstrip().startswith("## "):
            sections.append([cell])
        elif sections:
            sections[-1].append(cell)
    assert sections, f"{exercise.notebook} has no sections"
    for section in sections:
        title = "".join(section[0]["source"]).splitlines()[0]
        if "your turn" in title.lower():
            continue  # the learner's own code: nothing to predict
        text = "".join("".join(c["source"]) for c in section).lower()
        assert PREDICT_MARK in text, f"{exercise.notebook}: section {title!r} has no predict cell"
