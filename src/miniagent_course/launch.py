"""The ``miniagent`` command's entry point (pyproject's ``[project.scripts]``).

``check`` and ``list`` go to the course's warm grader when one runs (``handover.py``); any other
command, or one the warm grader cannot take, runs here (``cli.main``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from miniagent_course.handover import HANDED, hand_over, wanted


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``miniagent`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] and args[0] in HANDED and wanted():
        code = hand_over(args)
        if code is not None:
            return code
    from miniagent_course.cli import main as here

    return here(args)
