"""Day 11's Think part, answered: what a ``ToolNode`` writes for each error policy and failing call.

The instructors' side: no learner file, kit.toml, ``cases.py`` nor grader holds this function; the
engine finds it here because kit.toml names no ``reference`` for ``predictions``
(``grading/course.py``, ``ANSWERS``). The table is run, never written down: every case of
``cases.CASES`` through a real ``ToolNode``, sorted into ``cases.OUTCOMES``. The mutants
``mutants/predicts_*.patch`` edit this function's source.
"""

from miniagent_course.kits.day11.cases import CASES, observe


def what_the_tool_node_does(key: str) -> str:
    """``observe`` on the miniature: the truth the learner's predictions are graded against."""
    from miniagent_course.sides import mini

    return observe(mini(), key)


def predictions() -> dict[str, str]:
    """What a ToolNode writes in each case of ``CASES``, found by running it."""
    return {key: what_the_tool_node_does(key) for key in CASES}
