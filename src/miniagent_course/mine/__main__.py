"""``python -m miniagent_course.mine``: record upstream's results of the scenarios (and of Day 03's
loop scripts, ``loop.json``) again.

Contributors run it after changing ``scenarios.py``; the contributors' suite checks the file
against the pinned upstream packages on every run, so a stale recording fails there.
"""

import json

from miniagent_course.mine import RECORDED, loop, record

for results, path, what in (
    (record(), RECORDED, "scenarios"),
    (loop.record(), loop.RECORDED, "scripts"),
):
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"recorded {len(results)} {what} in {path}")
