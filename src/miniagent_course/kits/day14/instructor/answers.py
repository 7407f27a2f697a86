"""Day 14's Think part, answered: where ``SummarizationMiddleware._find_safe_cutoff_point`` puts
each cut of ``day14.CUTS``, from reading it (the graders compare with upstream's recorded run).

The reading, for instructors: a cut that is not on a ``ToolMessage`` (a question, a reply, the
call itself, or past the end) stays. A cut on a ``ToolMessage`` takes the ids of that message and
of every ``ToolMessage`` right after it, then goes back to the nearest ``AIMessage`` whose tool
calls share at least one of them: the cut moves there, even when another id of the run is an
orphan (``mixed_run``, langchain issue #38352). No such ``AIMessage``: the cut moves forward past
the run of ``ToolMessage`` objects.
"""

from __future__ import annotations


def predictions() -> dict[str, int]:
    return {
        "at_a_question": 4,
        "at_the_end": 5,
        "at_the_call": 3,
        "at_a_result": 1,
        "at_the_second_result": 3,
        "past_a_plain_reply": 1,
        "past_another_call": 3,
        "orphans": 3,
        "orphan_first": 1,
        "orphan_after_a_pair": 4,
        "mixed_run": 3,
    }
