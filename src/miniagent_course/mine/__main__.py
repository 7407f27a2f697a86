"""``python -m miniagent_course.mine``: record upstream's results of the scenarios again.

Contributors run it after changing ``scenarios.py``; the contributors' suite checks the file
against the pinned upstream packages on every run, so a stale recording fails there.
"""

import json

from miniagent_course.mine import RECORDED, record

results = record()
RECORDED.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
print(f"recorded {len(results)} scenarios in {RECORDED}")
