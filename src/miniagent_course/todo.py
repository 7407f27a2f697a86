"""The marker an exercise stub raises until the learner writes code.

Exercise files import it (``from miniagent_course.todo import NotStarted``), so this module stays
tiny and imports nothing at load time.
"""

from __future__ import annotations


class NotStarted(NotImplementedError):
    """Raised by ``raise NotStarted("day00")`` in a stub: this exercise has no code yet.

    Graders turn it into a "not started" skip instead of a failure, so a fresh checkout is green
    while half-done work is red (``--strict-exercises`` counts it as a failure).
    """

    def __init__(self, exercise: str) -> None:
        super().__init__(exercise)
        self.exercise = exercise

    def __str__(self) -> str:
        from miniagent_course.text import say  # lazy: only needed when a message is shown

        return say("todo.not_started", day=self.exercise)
