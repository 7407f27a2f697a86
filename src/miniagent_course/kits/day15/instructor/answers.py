"""Day 15's Think part, answered: how each scripted conversation ends, and which tools answered.

The instructors' side: no learner file, kit.toml, ``cases.py`` nor grader holds this function; the
engine finds it here because kit.toml names no ``reference`` for ``predictions``
(``grading/course.py``, ``ANSWERS``). The table is run, never written down: every conversation of
``cases.CONVERSATIONS`` on miniagent (``cases.run``, ``cases.ending``). The mutants
``mutants/predicts_*.patch`` edit this function's source.
"""

from __future__ import annotations

from miniagent_course.kits.day15.cases import CONVERSATIONS, ending, run


def predictions() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Part 2's reference: every conversation's ending, found by running it on miniagent."""
    from miniagent_course.sides import mini

    return {key: ending(run(mini(), key)) for key in CONVERSATIONS}
