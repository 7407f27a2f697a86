"""Day 03's Think part, answered: how the default ``create_react_agent`` ends each script.

The instructors' side: no learner file, kit.toml, ``cases.py`` nor grader holds this function; the
engine finds it here because kit.toml names no ``reference`` for ``predictions``
(``grading/course.py``, ``ANSWERS``). The table is run, never written down: every script of
``cases.PREDICTED`` on miniagent's real agent. The mutants ``mutants/predicts_*.patch`` edit this
function's source.
"""

from __future__ import annotations

from miniagent_course.kits.day03.cases import PREDICTED, what_the_agent_does


def predictions() -> dict[str, str]:
    """How the default agent ends each script, found by running miniagent's real agent."""
    return {name: what_the_agent_does(name) for name in PREDICTED}
