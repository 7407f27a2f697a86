"""Make ``from upstream_fakes import ...`` work in the differential tests (no tests/__init__.py)."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
