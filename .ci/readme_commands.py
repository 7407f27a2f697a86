"""Print the quick-start command named on the command line, exactly as the README shows it.

CI runs these commands verbatim, so a README that drifts from reality fails CI.
The README marks each command block with an HTML comment: <!-- quickstart:NAME -->.
"""

import re
import sys
from pathlib import Path

name = sys.argv[1]
readme = Path(__file__).resolve().parent.parent.joinpath("README.md").read_text(encoding="utf-8")
match = re.search(rf"<!-- quickstart:{name} -->\s*```(?:bash|sh|console)?\n(.*?)```", readme, re.S)
if not match:
    sys.exit(f"README.md has no '<!-- quickstart:{name} -->' command block")
print(match.group(1).strip())
