"""Mutant: right endings, but counts a tool run for the round that ended in the Sorry reply.

The Sorry reply *replaces* the tool call, so that last round's tool never runs.
"""


def predictions():
    return {limit: ("sorry" if limit % 2 == 0 else "error", limit // 2) for limit in range(2, 8)}
