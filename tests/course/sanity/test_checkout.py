"""Quick checks that this checkout can grade you: part of the README's plain ``pytest``.

They take well under a second, import nothing but miniagent and the course tooling (never the
upstream packages), and fail with one plain sentence when the checkout is broken.
"""

from __future__ import annotations

from miniagent_course.grading.course import find_root, load_course, pristine_stub, stub_problems


def test_the_course_is_complete():
    course = load_course(find_root())
    assert course.exercises, "course.toml's kits folder holds no day kit"
    for exercise in course.exercises:
        for path in (exercise.lesson, exercise.notebook):
            assert (course.root / path).is_file(), f"{exercise.id}: {path} is missing"
        assert course.grader_files(exercise), f"{exercise.id} has no graders"
        assert not stub_problems(pristine_stub(course, exercise), exercise), (
            f"{exercise.kit}/stub.py (the stub of {exercise.file}) is not a pristine stub"
        )
        assert (course.root / exercise.file).is_file(), f"{exercise.file} is missing"


def test_the_miniature_runs_an_agent_offline():
    from miniagent.messages import AIMessage, ToolMessage
    from miniagent.prebuilt import create_react_agent
    from miniagent.testing import FakeToolCallingModel

    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    model = FakeToolCallingModel(
        tool_calls=[[{"name": "add", "args": {"a": 2, "b": 3}, "id": "1"}], []]
    )
    result = create_react_agent(model, [add]).invoke({"messages": [("user", "2 + 3?")]})
    kinds = [type(m).__name__ for m in result["messages"]]
    assert kinds == ["HumanMessage", "AIMessage", "ToolMessage", "AIMessage"]
    assert isinstance(result["messages"][2], ToolMessage) and result["messages"][2].content == "5"
    assert isinstance(result["messages"][-1], AIMessage)
