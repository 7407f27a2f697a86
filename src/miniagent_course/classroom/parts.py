"""Which of a day's grader tests belong to which part of the day.

Every day has two parts (the site's exercise box says so): part 1, write the graded functions;
part 2, the one that needs judgment (``[judgment]`` in its kit.toml). A class is graded per part,
so each grader test must belong to exactly one. The rule, read from the grader file's source
(nothing is run):

* part 2 holds the tests its judgment kind writes: the names a grader file binds from
  ``judgment_graders(...)`` (the ``predict`` and ``grader`` kinds);
* for a kind whose tests the day writes itself (``extend``), part 2 also holds every test that
  reaches the judgment's function, ``impl.<function>`` (or ``getattr(impl, "<function>")``), in
  its body, in the fixtures it asks for or in the helpers of its file it calls, at any depth;
* everything else is part 1, and a day without a judgment part has part 1 only.

(A "be the grader" day's judgment function is the part-1 function the learner's tests test, so
for that kind only the bound tests count.)
"""

from __future__ import annotations

import ast
from pathlib import Path

from miniagent_course.grading.course import Course, Exercise

PARTS = (1, 2)
BINDER = "judgment_graders"


def _bound_names(tree: ast.Module) -> set[str]:
    """The names a module binds from ``judgment_graders(...)``: ``a, b = judgment_graders(...)``."""
    names: set[str] = set()
    for node in tree.body:
        value = getattr(node, "value", None)
        if not (isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(value, ast.Call)):
            continue
        func = value.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if called != BINDER:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    names.add(name.id)
    return names


def _definitions(tree: ast.Module) -> dict[str, ast.AST]:
    """The module's own functions and classes, by name."""
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {node.name: node for node in tree.body if isinstance(node, kinds)}


def _reaches(start: ast.AST, function: str, definitions: dict[str, ast.AST]) -> bool:
    """Does ``start`` use ``.<function>`` (or the string ``"<function>"``), itself or through the
    module's functions, classes and fixtures it names, at any depth?"""
    seen: set[str] = set()
    todo = [start]
    while todo:
        node = todo.pop()
        parameters = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            parameters = [
                a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)
            ]
        for name in parameters:  # a fixture of the same file
            if name in definitions and name not in seen:
                seen.add(name)
                todo.append(definitions[name])
        for child in ast.walk(node):
            if isinstance(child, ast.Attribute) and child.attr == function:
                return True
            if isinstance(child, ast.Constant) and child.value == function:
                return True
            if isinstance(child, ast.Name) and child.id in definitions and child.id not in seen:
                seen.add(child.id)
                todo.append(definitions[child.id])
    return False


def file_parts(source: str, exercise: Exercise) -> dict[str, int]:
    """``{test function name: part}`` for one grader file's ``source``."""
    tree = ast.parse(source)
    definitions = _definitions(tree)
    tests = [n for n in definitions if n.startswith("test_")]
    bound = _bound_names(tree)
    judgment = exercise.judgment
    parts: dict[str, int] = {}
    for name in [*tests, *sorted(n for n in bound if n.startswith("test_"))]:
        if judgment is None:
            parts[name] = 1
        elif name in bound:
            parts[name] = 2
        elif judgment.kind != "grader" and judgment.function:
            parts[name] = 2 if _reaches(definitions[name], judgment.function, definitions) else 1
        else:
            parts[name] = 1
    return parts


def day_parts(course: Course, exercise: Exercise) -> dict[str, int]:
    """``{test function name: part}`` over every grader file of the day."""
    parts: dict[str, int] = {}
    for path in course.grader_files(exercise):
        parts.update(file_parts(Path(path).read_text(encoding="utf-8"), exercise))
    return parts


def function_name(nodeid: str) -> str:
    """``<kit>/graders/test_x.py::test_y[learner-3]`` -> ``test_y``."""
    return nodeid.split("::")[-1].split("[", 1)[0]


def part_count(exercise: Exercise) -> int:
    """How many parts the day has: 2 with a judgment part, else 1."""
    return 2 if exercise.judgment is not None else 1
